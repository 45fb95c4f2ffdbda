// How a tool call is shown on one line (the reply renderer's fold): the spec's Python-style form,
// `add(a=1, b=2)→3`, values as the literals they are and text as written.
import { strict as assert } from 'node:assert';
import { callSummary, mkToolBlock, toolSpans } from '../../src/core/reply';

const shown = (reply: string) => toolSpans(reply).map((s) => callSummary(s.name, s.args, s.result));

describe('tool-call summaries', () => {
  it('shows numbers as numbers and the result as written', () => {
    assert.equal(callSummary('add', { a: 1, b: 2 }, '3'), 'add(a=1, b=2)→3');
    assert.deepEqual(shown(mkToolBlock({ id: 't1', name: 'add', arguments: { a: 1, b: 2.5 }, text: '3.5' })), ['add(a=1, b=2.5)→3.5']);
  });

  it('shows other values as Python literals: strings quoted, True, None, lists, dicts', () => {
    assert.equal(callSummary('f', { s: 'hi', t: true, n: null, l: [1, 'x'], d: { k: false } }, ''), "f(s='hi', t=True, n=None, l=[1, 'x'], d={'k': False})");
  });

  it('keeps backticks as written, in arguments and results', () => {
    assert.equal(callSummary('python', { code: 'print("```")' }, '```'), 'python(code=\'print("```")\')→```');
  });

  it('cuts long values at 40 code points and keeps the summary on one line', () => {
    const long = 'x'.repeat(50);
    assert.equal(callSummary('f', { s: long }, `${long}\nmore`), `f(s='${'x'.repeat(39)}…)→${'x'.repeat(40)}…`);
    assert.equal(callSummary('f', {}, 'a\nb\n'), 'f()→a b');
  });

  it('reads a legacy <details> envelope from its JSON, not its stringified summary line', () => {
    const legacy =
      "Hi\n\n<details class='tool-usage-details' markdown='1'>\n<summary><code>f(x=&quot;1&quot;)→&quot;2&quot;</code></summary>\n\n" +
      '```json\n{\n  "id": "L1",\n  "server": false,\n  "call": {\n    "function": "f",\n    "arguments": {\n      "x": 1\n    }\n  },\n  "result": "2"\n}\n```\n\n</details>\n\n';
    assert.deepEqual(shown(legacy), ['f(x=1)→2']);
  });
});
