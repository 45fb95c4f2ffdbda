// Editing one field of one tool call in the panel's Reply tab changes only that field (issue 12, 11):
// a Solveit envelope keeps its tag (no `markdown='1'`), its unescaped summary form, its fields (no
// added `"server": false`) and the blank lines around it; its siblings are untouched.
import { strict as assert } from 'node:assert';
import { Message, promptOutput } from '../../src/core/model';
import { aiRes } from '../../src/core/model';
import { parts2reply, replyParts, ReplyCallPart } from '../../src/core/reply';

function envelope(id: string, url: string, result: string, summary: string): string {
  const body = JSON.stringify({ id, call: { function: 'read_url', arguments: { url } }, result }, null, 2);
  return `<details class='tool-usage-details'>\n<summary>${summary}</summary>\n\n\`\`\`json\n${body}\n\`\`\`\n\n</details>`;
}

const A = envelope('toolu_a', 'https://a.example', 'see <http://a.example/x>\nline 2', 'read_url(url="https://a.example")→"see <http://a.example/x>\\nline 2"');
const B = envelope('toolu_b', 'https://b.example', 'b text', 'read_url(url="https://b.example")→"b text"');
const REPLY = `Looking.\n\n\n\n${A}\n\n\n\n${B}\n\n\n\nDone.`;
const prompt = () => new Message({ msgType: 'prompt', content: 'Read them.', output: promptOutput(REPLY) });

describe('reply parts: one edited field, one changed field', () => {
  it('editing a result rewrites that result and its summary only', () => {
    const p = prompt();
    const parts = replyParts(p);
    const call = parts.find((x): x is ReplyCallPart => x.kind === 'call' && x.toolId === 'toolu_a')!;
    assert.equal(call.result, 'see <http://a.example/x>\nline 2');
    call.result = 'see <http://a.example/y>\nline 2';
    const out = parts2reply(p, parts);
    const want = envelope('toolu_a', 'https://a.example', 'see <http://a.example/y>\nline 2', 'read_url(url="https://a.example")→"see <http://a.example/y>\\nline 2"');
    assert.equal(out, `Looking.\n\n\n\n${want}\n\n\n\n${B}\n\n\n\nDone.`);
  });

  it('editing the arguments keeps the tag, the fields and an HTML-escaped summary escaped', () => {
    const esc = REPLY.replace(A, A.replace('<summary>read_url(url="https://a.example")→"see <http://a.example/x>\\nline 2"</summary>', '<summary><code>read_url(url=&quot;https://a.example&quot;)→&quot;see &lt;http://a.example/x&gt;\\nline 2&quot;</code></summary>'));
    const p = new Message({ msgType: 'prompt', content: 'Read them.', output: promptOutput(esc) });
    const parts = replyParts(p);
    const call = parts.find((x): x is ReplyCallPart => x.kind === 'call' && x.toolId === 'toolu_a')!;
    call.args = "url='https://c.example'";
    const out = parts2reply(p, parts);
    assert.ok(out.includes('<summary><code>read_url(url=&quot;https://c.example&quot;)→&quot;see &lt;http://a.example/x&gt;\\nline 2&quot;</code></summary>'), out);
    assert.ok(out.includes('"url": "https://c.example"'));
    assert.ok(!out.includes("markdown='1'"), 'no markdown attribute added');
    assert.ok(!out.includes('"server"'), 'no server field added');
    assert.ok(out.endsWith(`\n\n\n\n${B}\n\n\n\nDone.`), 'the sibling and the blank lines stay');
  });

  it('an unedited reply comes back byte for byte', () => {
    const p = prompt();
    assert.equal(parts2reply(p, replyParts(p)), aiRes(p));
  });
});
