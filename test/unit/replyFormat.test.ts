import { strict as assert } from 'node:assert';
import { Msg, Part, textPart, thinkingPart, toolResult, toolUse } from '../../src/core/hist';
import {
  convTools,
  extractFenceCall,
  fenced,
  fencedBlocks,
  fmt2hist,
  hist2fmt,
  mkDetailsBlock,
  mkToolBlock,
  pendingRow,
  toolText,
  truncStr,
} from '../../src/core/reply';

/** The vectors' notation: [role, [[Kind, text-or-call]…]]. */
function show(msgs: Msg[]): unknown {
  const part = (p: Part) => {
    if (p.type === 'text') return ['Text', p.text];
    if (p.type === 'tool_use') return ['ToolUse', { id: p.id, name: p.name, arguments: p.arguments }];
    if (p.type === 'tool_result') return ['ToolResult', p.text];
    return [p.type];
  };
  return msgs.map((m) => [m.role, m.content.map(part)]);
}
const A = (...content: Part[]): Msg => ({ role: 'assistant', content });
const T = (...content: Part[]): Msg => ({ role: 'tool', content });

const LEGACY =
  "Hi\n\n<details class='tool-usage-details' markdown='1'>\n<summary><code>f(x=&quot;1&quot;)→&quot;2&quot;</code></summary>\n\n```json\n{\n  \"id\": \"L1\",\n  \"server\": false,\n  \"call\": {\n    \"function\": \"f\",\n    \"arguments\": {\n      \"x\": 1\n    }\n  },\n  \"result\": \"2\"\n}\n```\n\n</details>\n\n<details class='token-usage-details' markdown='1'><summary>$0.0010</summary>\n\n`total=5 | in=3 | out=2 | cached=0.0%`\n\n</details>\n";

describe('reply blocks (reply-format §2–§4)', () => {
  it('V142: hist2fmt(mx=None)', () => {
    const h = [A(textPart('Check:'), toolUse('x1', 'python', { code: '1+1' })), T(toolResult('x1', 'python', '2')), A(textPart('It is 2.'))];
    assert.equal(
      hist2fmt(h, null),
      'Check:\n\n```json {.tool}\n{\n  "id": "x1",\n  "name": "python",\n  "args": {\n    "code": "1+1"\n  },\n  "result": "2"\n}\n```\n\nIt is 2.',
    );
  });
  it('V143: the fence grows past a run of four backticks', () => {
    assert.equal(
      mkToolBlock({ id: 't', name: 'f', arguments: {}, text: 'has ```` fence' }),
      '\n\n`````json {.tool}\n{\n  "id": "t",\n  "name": "f",\n  "args": {},\n  "result": "has ```` fence"\n}\n`````\n\n',
    );
  });
  it('V144: server calls carry "server": true last', () => {
    assert.equal(
      mkToolBlock({ id: 't', name: 'f', arguments: {}, text: 'x', server: true }),
      '\n\n```json {.tool}\n{\n  "id": "t",\n  "name": "f",\n  "args": {},\n  "result": "x",\n  "server": true\n}\n```\n\n',
    );
  });
  it('V145: the result is right-trimmed when truncation is on', () => {
    assert.equal(
      mkToolBlock({ id: 't', name: 'f', arguments: {}, text: 'r  \n' }),
      '\n\n```json {.tool}\n{\n  "id": "t",\n  "name": "f",\n  "args": {},\n  "result": "r"\n}\n```\n\n',
    );
    assert.match(mkToolBlock({ id: 't', name: 'f', arguments: {}, text: 'r  \n' }, null), /"result": "r {2}\\n"/);
  });
  it('V146–V148: truncStr', () => {
    assert.equal(truncStr('x'.repeat(10), 5, 0), '<TRUNCATED>xxxxx…</TRUNCATED>');
    assert.equal(truncStr('x'.repeat(10), 5, 1), '<TRUNCATED>…xxx…</TRUNCATED>');
    assert.equal(truncStr('\u{1D341}' + 'x'.repeat(10) + '\u{1D341}', 5), 'x'.repeat(10));
    assert.equal(truncStr('short', null), 'short');
  });
  it('V149: toolText', () => {
    assert.deepEqual([{ a: 1, ok: true }, [1, 'x'], 42, null, 'hi'].map(toolText), ['{"a": 1, "ok": true}', '[1, "x"]', '42', 'None', 'hi']);
    assert.equal(toolText([{ type: 'text', text: 'a' }, { type: 'input_image', text: 'u', mime: 'image/png' }, { type: 'thinking', text: 't' }]), 'a\n<media input_image image/png>\n🧠');
  });
  it('fenced() and fencedBlocks(): offsets, info, unclosed blocks, longer closers', () => {
    assert.equal(fenced('a\n\n', 'x'), '```x\na\n```');
    const text = 'p\n```js  \nbody\n`````\nq\n````\nnever closed\n```';
    const blocks = fencedBlocks(text);
    assert.deepEqual(blocks.map((b) => [b.info, b.body, text.slice(b.start, b.end)]), [['js', 'body\n', '```js  \nbody\n`````\n']]);
  });
});

describe('fmt2hist (reply-format §6)', () => {
  const cases: [string, string, unknown][] = [
    ['V150', '', [['assistant', [['Text', '.']]]]],
    ['V151', 'Just prose.', [['assistant', [['Text', 'Just prose.']]]]],
    [
      'V152',
      '```json {.tool}\n{"id":"a","name":"f","args":{"x":1},"result":"r"}\n```',
      [['assistant', [['ToolUse', { id: 'a', name: 'f', arguments: { x: 1 } }]]], ['tool', [['ToolResult', 'r']]], ['assistant', [['Text', '.']]]],
    ],
    [
      'V153',
      'pre\n```json {.tool}\n{"id":"a","name":"f","args":{},"result":{"k":1}}\n```\npost',
      [['assistant', [['Text', 'pre'], ['ToolUse', { id: 'a', name: 'f', arguments: {} }]]], ['tool', [['ToolResult', '{"k": 1}']]], ['assistant', [['Text', 'post']]]],
    ],
    ['V154', '```json {.tool}\n{"id":"a","name":"f","args":{},"result":"r","server":true}\n```\nafter', [['assistant', [['Text', 'after']]]]],
    ['V155', '```json {.tool}\nnot json\n```\nafter', [['assistant', [['Text', '```json {.tool}\nnot json\n```\nafter']]]]],
    ['V156', 'x\n```json {.usage}\n{"total_tokens":5}\n```\ny', [['assistant', [['Text', 'x\ny']]]]],
    ['V157', '<!--think_start-->\nhmm\n<!--think_end-->\nanswer', [['assistant', [['Text', 'answer']]]]],
    [
      'V158',
      '```json  {.tool}\n{"id":"a","name":"f","args":{},"result":"r"}\n```',
      [['assistant', [['Text', '```json  {.tool}\n{"id":"a","name":"f","args":{},"result":"r"}\n```']]]],
    ],
    [
      'V159',
      'Let me calculate.\n`````py\n1+1\n`````\n\n`````result\n2\n`````\n\nDone.',
      [['assistant', [['Text', 'Let me calculate.\n`````py\n1+1\n`````']]], ['user', [['Text', '\n`````result\n2\n`````\n']]], ['assistant', [['Text', 'Done.']]]],
    ],
  ];
  for (const [id, input, want] of cases) it(`${id}: ${JSON.stringify(input).slice(0, 50)}`, () => assert.deepEqual(show(fmt2hist(input)), want));

  it('consecutive calls are batched into one assistant and one tool turn', () => {
    const b = (id: string) => `\`\`\`json {.tool}\n{"id":"${id}","name":"f","args":{},"result":"${id}"}\n\`\`\``;
    const h = fmt2hist(`Go.\n\n${b('a')}\n\n${b('b')}\n\nDone.`);
    assert.deepEqual(
      h.map((m) => [m.role, m.content.length]),
      [['assistant', 3], ['tool', 2], ['assistant', 1]],
    );
  });
  it('unusable blocks (no id, no name, not an object) vanish (port decision: no crash)', () => {
    const h = fmt2hist('a\n```json {.tool}\n{"name":"f"}\n```\n```json {.tool}\n[1]\n```\n```json {.tool}\n{"id":"x"}\n```\nb');
    assert.deepEqual(show(h), [['assistant', [['Text', 'a'], ['Text', 'b']]]]);
  });
  it('V168: convTools rewrites the legacy envelopes', () => {
    const want =
      'Hi\n\n```json {.tool}\n{\n  "id": "L1",\n  "name": "f",\n  "args": {\n    "x": 1\n  },\n  "result": "2"\n}\n```\n\n```json {.usage}\n{"summary": "$0.0010", "detail": "total=5 | in=3 | out=2 | cached=0.0%"}\n```';
    assert.equal(convTools(LEGACY), want);
    assert.equal(convTools(want), want, 'idempotent');
  });
  it("V169: legacy replies parse as calls — port decision §10 (aidialog: one Text part); DECISIONS 'reply wire format'", () => {
    assert.deepEqual(show(fmt2hist(LEGACY)), [
      ['assistant', [['Text', 'Hi'], ['ToolUse', { id: 'L1', name: 'f', arguments: { x: 1 } }]]],
      ['tool', [['ToolResult', '2']]],
      ['assistant', [['Text', '.']]],
    ]);
  });
  it("Solveit's envelope (no markdown attribute, no server key, any summary) is read too", () => {
    const s = "<details class='tool-usage-details'>\n<summary>f(x=1)</summary>\n\n```json\n{\n  \"id\": \"s1\",\n  \"call\": {\n    \"function\": \"f\",\n    \"arguments\": {\"x\": \"1\"}\n  },\n  \"result\": \"\\u00e9\"\n}\n```\n\n</details>\n\nok";
    assert.deepEqual(show(fmt2hist(s)), [['assistant', [['ToolUse', { id: 's1', name: 'f', arguments: { x: '1' } }]]], ['tool', [['ToolResult', 'é']]], ['assistant', [['Text', 'ok']]]]);
  });
  it('the seeds\' _mk_dtl fixture (one-line JSON) round-trips through dlg2chat shapes', () => {
    const d = JSON.stringify({ id: 'x1', server: false, call: { function: 'python', arguments: { code: '1+1' } }, result: '2' });
    const dtl = `<details class='tool-usage-details' markdown='1'>\n<summary><code>python(...)</code></summary>\n\n\`\`\`json\n${d}\n\`\`\`\n\n</details>`;
    const h = fmt2hist(`Check:\n\n${dtl}\n\nIt is 2.`);
    assert.deepEqual(h.map((m) => m.role), ['assistant', 'tool', 'assistant']);
    assert.equal((h[0].content[1] as { name: string }).name, 'python');
  });
});

describe('hist2fmt (reply-format §7)', () => {
  it('V160: a call with no result renders as a pending row', () => {
    assert.equal(hist2fmt([A(textPart('Calling...'), toolUse('p1', 'f', { x: 1 }))]), 'Calling...\n\n- ⏳ `f(x="1")` ⏳');
  });
  it('V161/V162: thinking is dropped unless showthink', () => {
    const h = [A(thinkingPart('hmm, sums'), textPart('The answer is 8.'))];
    assert.equal(hist2fmt(h), 'The answer is 8.');
    assert.equal(hist2fmt(h, 2000, true), '<!--think_start-->\n::: details\n\n## Thinking\n\nhmm, sums\n\n:::\n<!--think_end-->\n\nThe answer is 8.');
  });
  it('V163: an id-less ToolResult in an assistant turn renders nothing', () => {
    assert.equal(hist2fmt([A(textPart('Ran it.'), toolResult(null, '', '42'))]), 'Ran it.');
  });
  it('V164–V167: pending rows', () => {
    assert.equal('\n' + pendingRow('f', { a: 3, b: 5 }) + '\n', '\n- ⏳ `f(a="3", b="5")` ⏳\n');
    assert.equal('\n' + pendingRow('f', { s: 'it"s `x`' }) + '\n', '\n- ⏳ `` f(s="it\\"s \\\\`x\\\\`") `` ⏳\n');
    assert.equal('\n' + pendingRow('f', { l: [1, 'x'], d: { k: null } }) + '\n', '\n- ⏳ `f(l="[1, \'x\']", d="{\'k\': None}")` ⏳\n');
    assert.equal('\n' + pendingRow('f', { long: 'y'.repeat(60) }) + '\n', `\n- ⏳ \`f(long="${'y'.repeat(40)}…")\` ⏳\n`);
  });
  it('unknown roles are an error', () => {
    assert.throws(() => hist2fmt([{ role: 'user', content: [textPart('x')] }]), /hist2fmt renders assistant and tool messages only, got 'user'/);
  });
  it('fmt2hist(hist2fmt(h)) == h for fmt2hist-shaped histories, in both styles', () => {
    const h = [
      A(textPart('Check:'), toolUse('x1', 'python', { code: '1+1' }), toolUse('x2', 'f', { n: 1.5, l: [1, null] })),
      T(toolResult('x1', 'python', '2'), toolResult('x2', 'f', 'ok')),
      A(textPart('It is 2.')),
    ];
    for (const style of ['fenced', 'details'] as const) assert.deepEqual(fmt2hist(hist2fmt(h, null, false, style)), h, style);
  });
  it("details style writes fastllm's envelope (seeds; reply-format §10 bytes)", () => {
    const got = mkDetailsBlock({ id: 'L1', name: 'f', arguments: { x: 1 }, text: '2' });
    assert.equal(
      got,
      "\n\n<details class='tool-usage-details' markdown='1'>\n<summary><code>f(x=&quot;1&quot;)→&quot;2&quot;</code></summary>\n\n```json\n{\n  \"id\": \"L1\",\n  \"server\": false,\n  \"call\": {\n    \"function\": \"f\",\n    \"arguments\": {\n      \"x\": \"1\"\n    }\n  },\n  \"result\": \"2\"\n}\n```\n\n</details>\n\n",
    );
  });
  it('extractFenceCall', () => {
    assert.deepEqual(extractFenceCall('Let me.\n`````py\n1+1\n`````\n  '), ['py', '1+1']);
    assert.equal(extractFenceCall('`````py\n1+1\n`````\nmore'), null);
  });
});
