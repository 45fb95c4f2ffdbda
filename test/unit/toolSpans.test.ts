// The tool calls of a reply as the renderer shows them (issue 12, item 10): found in both wire forms and
// read from their JSON only, so a summary holding `<http://…>` changes nothing, and the result keeps
// its real line breaks.
import { strict as assert } from 'node:assert';
import { hist2fmt, toolSpans } from '../../src/core/reply';
import { textPart, toolResult, toolUse } from '../../src/core/hist';

const ENVELOPE = [
  "<details class='tool-usage-details'>",
  '<summary>read_url(url="https://a.example")→"see <http://a.example/x>\\nline 2"</summary>',
  '',
  '```json',
  JSON.stringify({ id: 'toolu_a', call: { function: 'read_url', arguments: { url: 'https://a.example' } }, result: 'see <http://a.example/x>\nline 2' }, null, 2),
  '```',
  '',
  '</details>',
].join('\n');

describe('toolSpans: tool calls to show', () => {
  it('a Solveit envelope with an unescaped URL in its summary: one span, from the JSON', () => {
    const reply = `Before.\n\n${ENVELOPE}\n\nAfter.`;
    const [s, ...rest] = toolSpans(reply);
    assert.equal(rest.length, 0);
    assert.deepEqual([s.name, s.args, s.result, s.server], ['read_url', { url: 'https://a.example' }, 'see <http://a.example/x>\nline 2', false]);
    assert.equal(reply.slice(s.start, s.end), ENVELOPE);
  });

  it('fenced blocks and legacy envelopes in one reply, in order', () => {
    const fenced = hist2fmt([
      { role: 'assistant', content: [toolUse('x1', 'python', { code: 'print(1)\nprint(2)' })] },
      { role: 'tool', content: [toolResult('x1', 'python', '1\n2')] },
      { role: 'assistant', content: [textPart('Done.')] },
    ]);
    const spans = toolSpans(`${ENVELOPE}\n\n${fenced}`);
    assert.deepEqual(spans.map((s) => [s.name, s.result]), [['read_url', 'see <http://a.example/x>\nline 2'], ['python', '1\n2']]);
    assert.deepEqual(spans[1].args, { code: 'print(1)\nprint(2)' });
  });

  it('prose and broken blocks are not calls', () => {
    assert.deepEqual(toolSpans('Just prose with <details> and ```json {.tool}\nnot json\n```'), []);
  });
});
