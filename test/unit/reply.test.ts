import { strict as assert } from 'node:assert';
import { NUM_TAG } from '../../src/core/base';
import { codeOutput, Dialog, Message, promptOutput } from '../../src/core/model';
import { Msg, Part, textPart, toolResult, toolUse } from '../../src/core/hist';
import { dlg2reply, REPLY_STYLE_KEY, reply2dlg, toolCall } from '../../src/core/reply';
import { fmt2hist, hist2fmt } from '../../src/core/reply';
import { pyToJson } from '../../src/core/python';

const A = (...content: Part[]): Msg => ({ role: 'assistant', content });
const T = (...content: Part[]): Msg => ({ role: 'tool', content });
const prompt = (reply: string) => new Message({ content: 'p', msgType: 'prompt', output: promptOutput(reply) });
const rows = (d: Dialog) => d.messages.map((m) => [m.msgType, m.content, m.output, m.meta]);

const STDIN = [A(toolUse('d1', 'tools.write_stdin', { session_id: 7, chars: 'x' })), T(toolResult('d1', 'tools.write_stdin', 'ok'))];

describe('reply2dlg / dlg2reply (reply-format §11–§13)', () => {
  it('V192/V193: explode, then implode byte-identical', () => {
    const reply = hist2fmt([...STDIN, A(textPart('Done.'))], null);
    const sub = reply2dlg(prompt(reply));
    assert.deepEqual(rows(sub), [
      ['code', "tools.write_stdin(session_id=7, chars='x')", codeOutput('ok'), { tool_id: 'd1' }],
      ['note', 'Done.', '', {}],
    ]);
    const back = dlg2reply(sub);
    assert.equal(back, '```json {.tool}\n{\n  "id": "d1",\n  "name": "tools.write_stdin",\n  "args": {\n    "session_id": 7,\n    "chars": "x"\n  },\n  "result": "ok"\n}\n```\n\nDone.');
    assert.equal(back, reply);
  });
  it('V194/V195: a reply ending in a tool block gains a "." note', () => {
    const sub = reply2dlg(prompt(hist2fmt(STDIN, null)));
    assert.deepEqual(sub.messages.map((m) => [m.msgType, m.content]), [['code', "tools.write_stdin(session_id=7, chars='x')"], ['note', '.']]);
    assert.equal(
      dlg2reply(sub),
      '```json {.tool}\n{\n  "id": "d1",\n  "name": "tools.write_stdin",\n  "args": {\n    "session_id": 7,\n    "chars": "x"\n  },\n  "result": "ok"\n}\n```\n\n.',
    );
  });
  it('V207/V208: bad tool names and argument keys raise', () => {
    const bad = (name: string, args: Record<string, number>) => prompt(hist2fmt([A(toolUse('b1', name, args)), T(toolResult('b1', name, 'x'))], null));
    assert.throws(() => reply2dlg(bad('foo-bar', {})), { message: 'not a dotted Python identifier: foo-bar' });
    assert.throws(() => reply2dlg(bad('f', { ok: 1, 'bad-key': 1 })), { message: 'not a Python identifier: bad-key' });
  });
  it('V209: keywords are identifiers by shape, so `f(class=1)` is accepted (but does not parse back)', () => {
    const sub = reply2dlg(prompt(hist2fmt([A(toolUse('c', 'f', { class: 1 })), T(toolResult('c', 'f', 'r'))], null)));
    assert.deepEqual(sub.messages.map((m) => m.content), ['f(class=1)', '.']);
    assert.equal(toolCall(sub.messages[0]), null);
  });
  it('V210: a code message that is not a keyword-only call cannot implode', () => {
    assert.throws(() => dlg2reply(new Dialog([new Message({ content: '1+1', msgType: 'code' })])), { message: "not a keyword-only tool call: '1+1'" });
  });
  it('V068 / seeds: toolCall reads code messages only, without side effects', () => {
    const code = new Message({ content: "python(code='1+2')", msgType: 'code' });
    assert.deepEqual(toolCall(code), { name: 'python', arguments: { code: '1+2' } });
    assert.deepEqual(code.meta, {});
    assert.equal(toolCall(new Message({ content: "python(code='1')", msgType: 'note' })), null);
    assert.equal(toolCall(new Message({ content: 'x = 1', msgType: 'code' })), null);
  });
  it('seeds: the Check/It is 2 fixture, then editing one argument keeps the id', () => {
    const h = [A(textPart('Check:'), toolUse('x1', 'python', { code: '1+1' })), T(toolResult('x1', 'python', '2')), A(textPart('It is 2.'))];
    const pm = prompt(hist2fmt(h, null));
    const sub = reply2dlg(pm);
    assert.deepEqual(sub.messages.map((m) => m.msgType), ['note', 'code', 'note']);
    assert.equal(sub.messages[1].content, "python(code='1+1')");
    assert.deepEqual(sub.messages[1].output, codeOutput('2'));
    assert.equal(sub.messages[1].meta.tool_id, 'x1');
    assert.equal(dlg2reply(sub), hist2fmt(h, null));
    sub.messages[1].content = "python(code='1+2')";
    const tu = fmt2hist(dlg2reply(sub)).flatMap((m) => m.content).find((p) => p.type === 'tool_use')!;
    assert.deepEqual(tu.type === 'tool_use' && [tu.arguments, tu.id], [{ code: '1+2' }, 'x1']);
  });
  it('seeds: a parallel volley explodes in document order; new calls get fresh ids stored in meta', () => {
    const tus = [2, 3, 4].map((i) => toolUse(`x${i}`, 'simple_add', { a: i, b: 1 }));
    const trs = [2, 3, 4].map((i) => toolResult(`x${i}`, 'simple_add', String(i + 1)));
    const vsub = reply2dlg(prompt(hist2fmt([A(textPart('Adding.'), ...tus), T(...trs)], null)));
    assert.deepEqual(vsub.messages.map((m) => m.msgType), ['note', 'code', 'code', 'code', 'note']);
    assert.deepEqual(fmt2hist(dlg2reply(vsub)), fmt2hist(hist2fmt([A(textPart('Adding.'), ...tus), T(...trs)], null)));
    vsub.mkMessage({ content: 'One more:', msgType: 'note' });
    const nc = vsub.mkMessage({ content: 'simple_add(a=5, b=1)', msgType: 'code', output: codeOutput('6') });
    const r3 = dlg2reply(vsub);
    assert.ok(r3.includes('One more:'));
    const ids = fmt2hist(r3).flatMap((m) => m.content).flatMap((p) => (p.type === 'tool_use' ? [p.id] : []));
    assert.equal(new Set(ids).size, ids.length);
    assert.match(String(nc.meta.tool_id), /^call_[0-9a-f]{16}$/);
    assert.equal(dlg2reply(vsub), r3, 'a second implode is stable');
  });
  it('seeds: prose-only replies are one note', () => {
    const sub1 = reply2dlg(prompt('Just prose.'));
    assert.deepEqual(sub1.messages.map((m) => m.msgType), ['note']);
    assert.equal(dlg2reply(sub1), 'Just prose.');
  });
  it('set arguments cannot be written (json.dumps error)', () => {
    const d = new Dialog([new Message({ content: 'f(s={1})', msgType: 'code' })]);
    assert.throws(() => dlg2reply(d), { message: 'Object of type set is not JSON serializable' });
  });
  it('floats stay floats and big ints exact through explode/implode', () => {
    const reply = '```json {.tool}\n{\n  "id": "n",\n  "name": "f",\n  "args": {\n    "a": 1.0,\n    "b": 1152921504606846976,\n    "c": 1e-07\n  },\n  "result": "r"\n}\n```\n\nok';
    const sub = reply2dlg(prompt(reply));
    assert.equal(sub.messages[0].content, 'f(a=1.0, b=1152921504606846976, c=1e-07)');
    assert.equal(dlg2reply(sub), reply);
    assert.deepEqual(pyToJson(toolCall(sub.messages[0])!.arguments), { a: { [NUM_TAG]: '1.0' }, b: { [NUM_TAG]: '1152921504606846976' }, c: 1e-7 });
  });
});

describe("reply wire style (DECISIONS, 'reply wire format')", () => {
  const h = [A(textPart('Check:'), toolUse('x1', 'python', { code: '1+1' })), T(toolResult('x1', 'python', '2')), A(textPart('It is 2.'))];
  it('a fastllm <details> reply explodes into code messages and implodes byte-identical as <details>', () => {
    const reply = hist2fmt(h, null, false, 'details');
    assert.ok(reply.includes("<details class='tool-usage-details' markdown='1'>"));
    const sub = reply2dlg(prompt(reply));
    assert.equal(sub.meta[REPLY_STYLE_KEY], 'details');
    assert.deepEqual(sub.messages.map((m) => [m.msgType, m.content]), [['note', 'Check:'], ['code', "python(code='1+1')"], ['note', 'It is 2.']]);
    assert.equal(dlg2reply(sub), reply);
    assert.equal(dlg2reply(sub, { style: 'fenced' }), hist2fmt(h, null), 'the style can be chosen');
  });
  it('an unedited Solveit envelope keeps its bytes; an edited one keeps its form, only the field changes (issue 12)', () => {
    const env = "<details class='tool-usage-details'>\n<summary>python(code=1+1)</summary>\n\n```json\n{\n  \"id\": \"s1\",\n  \"call\": {\n    \"function\": \"python\",\n    \"arguments\": {\n      \"code\": \"1+1\"\n    }\n  },\n  \"result\": \"\\u00e92\"\n}\n```\n\n</details>";
    const reply = `Check:\n\n${env}\n\nIt is 2.`;
    const sub = reply2dlg(prompt(reply));
    assert.equal(dlg2reply(sub), reply);
    sub.messages[1].content = "python(code='1+2')";
    const out = dlg2reply(sub);
    // A summary not in the writer's preview form is hand-made: it stays as it was.
    assert.equal(out, reply.replace('"code": "1+1"', '"code": "1+2"').replace('\\u00e92', 'é2'));
    const tu = fmt2hist(out).flatMap((m) => m.content).find((p) => p.type === 'tool_use')!;
    assert.deepEqual(tu.type === 'tool_use' && [tu.id, tu.arguments], ['s1', { code: '1+2' }]);
  });
  it('the blank lines between messages that stay neighbours survive, edited or not (issue 12)', () => {
    const env = (id: string) =>
      `<details class='tool-usage-details'>\n<summary>f()</summary>\n\n\`\`\`json\n{\n  "id": "${id}",\n  "call": {\n    "function": "f",\n    "arguments": {}\n  },\n  "result": "r"\n}\n\`\`\`\n\n</details>`;
    const reply = `\n\nFirst.\n\n\n\n${env('a')}\n\n\n${env('b')}\nLast.\n`;
    const sub = reply2dlg(prompt(reply));
    assert.deepEqual(sub.messages.map((m) => m.msgType), ['note', 'code', 'code', 'note']);
    assert.equal(dlg2reply(sub), reply);
    sub.messages[0].content = 'Changed.';
    assert.equal(dlg2reply(sub), `\n\nChanged.\n\n\n\n${env('a')}\n\n\n${env('b')}\nLast.\n`);
    sub.removeMsgs([sub.messages[2]]);
    assert.equal(dlg2reply(sub), `\n\nChanged.\n\n\n\n${env('a')}\n\nLast.\n`);
  });
  it('a reply with no calls is written as <details> once a call is added', () => {
    const sub = reply2dlg(prompt('Just prose.'));
    assert.equal(sub.meta[REPLY_STYLE_KEY], undefined);
    sub.mkMessage({ content: 'f(x=1)', msgType: 'code', output: codeOutput('2') });
    assert.match(dlg2reply(sub), /^Just prose\.\n\n<details class='tool-usage-details' markdown='1'>/);
    assert.match(dlg2reply(sub, { style: 'fenced' }), /^Just prose\.\n\n```json \{\.tool\}/);
  });
});
