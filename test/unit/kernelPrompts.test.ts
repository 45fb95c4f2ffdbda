// Prompts that use the dialog's kernel, the pure parts: which references the sent history makes, the
// kernel's values as a typed vars_hist turn, a tool round written into the reply as Solveit writes it,
// and live tools on both wires.
import { strict as assert } from 'node:assert';
import type Anthropic from '@anthropic-ai/sdk';
import { Message, Msg, fmt2hist, textPart, toolUse, varsChat, varsHist } from '../../src/core';
import { replyMarkdown } from '../../src/core/answer';
import { callRef, chatTokens, clientCalls, promptRefs, refsText, toolTurn, unknownToolText, varsNamespace } from '../../src/extension/answer/kernelRefs';
import { anthropicParams } from '../../src/extension/answer/providers/anthropicWire';
import { openaiParams } from '../../src/extension/answer/providers/openaiWire';
import { AnswerRequest } from '../../src/extension/answer/providers/provider';
import type { ToolSchema } from '../../src/extension/kernel/hostTools';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const add: ToolSchema = {
  name: 'add',
  description: 'Add two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
};

describe('prompts using the kernel', () => {
  it('references: $ values and & tools of the prompts sent, not of notes or code', () => {
    const msgs = [
      new Message({ msgType: 'note', content: '$`n` &`nf`' }),
      new Message({ msgType: 'code', content: 'x = 1  # $`c`' }),
      new Message({ msgType: 'prompt', content: 'what is $`x`? use &`[add, m.sub]`' }),
      new Message({ msgType: 'prompt', content: '$`df.shape` and &`add`' }),
    ];
    const refs = promptRefs(msgs);
    assert.deepEqual(refs, { exprs: ['df.shape', 'x'], tools: ['add', 'm.sub'] });
    assert.equal(refsText(refs), '$`df.shape`, $`x`, &`add`, &`m.sub`');
    assert.deepEqual(promptRefs([new Message({ msgType: 'prompt', content: 'plain' })]), { exprs: [], tools: [] });
  });

  it("vars_hist of kernel values: the kernel's type name and str() text, errors typed by their exception", () => {
    const ns = varsNamespace([
      { expr: 'x', type: 'int', text: '42' },
      { expr: 'df', type: 'DataFrame', text: '   a\n0  1' },
      { expr: 'nope', error: "NameError: name 'nope' is not defined" },
      { expr: 'img', type: 'Figure', bytes: PNG },
    ]);
    assert.deepEqual(ns.x, { pyType: 'int', text: '42' });
    assert.ok(ns.img instanceof Uint8Array);
    const [user, ack] = varsHist({ supports_vision: true }, ns);
    assert.equal(
      user[0],
      "<variables>The 'variables' section provides values of: $`x`, $`df`, $`nope`, $`img`" +
        '<variable name="x" type="int">42</variable><variable name="df" type="DataFrame">   a\n0  1</variable>' +
        `<variable name="nope" type="NameError">NameError: name 'nope' is not defined</variable></variables>`,
    );
    assert.match(user[1] as string, /^<media id="img" type="variable"/);
    assert.deepEqual(user[2], PNG);
    assert.equal(ack, 'Understood, I will use these variable values.');
    // A JS string stays a str: only kernel values carry their own type.
    assert.match(varsHist({}, { s: '42' })[0][0] as string, /<variable name="s" type="str">42<\/variable>/);
  });

  it('the vars turn as chat: a user turn with the image as an image part, then the acknowledgement', () => {
    const chat = varsChat(null, varsNamespace([{ expr: 'x', type: 'int', text: '42' }, { expr: 'img', type: 'bytes', bytes: PNG }]));
    assert.deepEqual(
      chat.map((m) => [m.role, m.content.map((p) => p.type)]),
      [
        ['user', ['text', 'text', 'input_image']],
        ['assistant', ['text']],
      ],
    );
    assert.match((chat[0].content[0] as { text: string }).text, /type="int">42</);
    assert.ok(chatTokens(chat) > 800, 'the image counts as one');
    const noVision = varsChat({ supports_vision: false }, { img: PNG });
    assert.match((noVision[0].content[1] as { text: string }).text, /^<media-unavailable id="img" type="variable"/);
  });

  it('a tool round in the reply: the call and its result as a fenced tool block, read back the same', () => {
    const call = toolUse('toolu_01', 'add', { a: 1, b: 2 });
    const round: Msg = { role: 'assistant', content: [textPart('Let me add.'), call, toolUse('srv_1', 'web_search', {}, true)] };
    assert.deepEqual(clientCalls(round.content), [call], 'server tools are the provider’s');
    assert.equal(callRef(call, [{ ref: 'add', schema: add }]), 'add');
    assert.equal(callRef(toolUse('t', 'm_sub', {}), [{ ref: 'm.sub', schema: { ...add, name: 'm_sub' } }]), 'm.sub', 'by the wire name');
    assert.equal(callRef(toolUse('t', 'other', {}), [{ ref: 'add', schema: add }]), undefined);
    const results = toolTurn([call], [{ ok: true, text: '3', printed: '' }]);
    const reply = replyMarkdown([{ role: 'assistant', content: [textPart('Let me add.'), call] }, results, { role: 'assistant', content: [textPart('1 + 2 = 3.')] }], {
      usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
    });
    assert.equal(
      reply,
      'Let me add.\n\n```json {.tool}\n{\n  "id": "toolu_01",\n  "name": "add",\n  "args": {\n    "a": 1,\n    "b": 2\n  },\n  "result": "3"\n}\n```\n\n1 + 2 = 3.\n\n' +
        '```json {.usage}\n{"prompt_tokens": 20, "completion_tokens": 8, "total_tokens": 28}\n```',
    );
    const back = fmt2hist(reply);
    assert.deepEqual(
      back.flatMap((m) => m.content.filter((p) => p.type === 'tool_use' || p.type === 'tool_result')),
      [toolUse('toolu_01', 'add', { a: 1, b: 2 }), { type: 'tool_result', id: 'toolu_01', name: 'add', arguments: {}, server: false, text: '3' }],
    );
    // A raising tool: its error line is the result.
    const err = toolTurn([call], [{ ok: false, text: 'ValueError: nope', printed: '' }]);
    assert.equal((err.content[0] as { text: string }).text, 'ValueError: nope');
  });

  describe('live tools on the wire', () => {
    const used: Msg[] = [
      { role: 'user', content: [textPart('add 1 and 2')] },
      { role: 'assistant', content: [toolUse('toolu_01', 'add', { a: 1, b: 2 }), toolUse('old_1', 'older.fn', {})] },
      { role: 'tool', content: toolTurn([toolUse('toolu_01', 'add', { a: 1, b: 2 }), toolUse('old_1', 'older.fn', {})], [{ ok: true, text: '3', printed: '' }, { ok: true, text: 'x', printed: '' }]).content },
    ];
    const req = (tools?: ToolSchema[]): AnswerRequest => ({ model: 'm', messages: used, maxTokens: 10, tools });

    it('Anthropic: only the offered tools, with their schemas; a past call of any other tool goes as text', () => {
      const p = anthropicParams(req([add]));
      assert.deepEqual(p.tools, [{ name: 'add', description: 'Add two numbers.', input_schema: add.parameters }]);
      assert.equal(p.tool_choice, undefined);
      assert.deepEqual(p.messages[1].content, [
        { type: 'tool_use', id: 'toolu_01', name: 'add', input: { a: 1, b: 2 } },
        { type: 'text', text: '[An earlier call of older.fn, a tool not available now: older.fn({})]' },
      ]);
      assert.deepEqual(p.messages[2].content, [
        { type: 'tool_result', tool_use_id: 'toolu_01', content: '3' },
        { type: 'text', text: '[Result of the earlier older.fn call: x]' },
      ]);
      // The round limit: the tools stay declared (the history's calls of them are tool blocks), none may be called.
      const last = anthropicParams({ ...req([add]), toolChoice: 'none' });
      assert.deepEqual((last.tools as Anthropic.Tool[]).map((t) => t.name), ['add']);
      assert.deepEqual(last.tool_choice, { type: 'none' });
      // No tool offered: no tool declared, every past call as text.
      const none = anthropicParams(req());
      assert.equal(none.tools, undefined);
      assert.ok(none.messages.every((m) => (m.content as Anthropic.ContentBlockParam[]).every((b) => b.type === 'text')));
    });

    it('OpenAI: only the offered tools as functions; other past calls as text after the tool messages', () => {
      const p = openaiParams(req([add]));
      assert.deepEqual(p.tools, [{ type: 'function', function: add }]);
      assert.equal(p.tool_choice, undefined);
      assert.deepEqual(p.messages[1], {
        role: 'assistant',
        content: '[An earlier call of older.fn, a tool not available now: older.fn({})]',
        tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }],
      });
      assert.deepEqual(p.messages[2], { role: 'tool', tool_call_id: 'toolu_01', content: '3' });
      assert.deepEqual(p.messages[3], { role: 'user', content: '[Result of the earlier older.fn call: x]' });
      assert.equal(openaiParams({ ...req([add]), toolChoice: 'none' }).tool_choice, 'none');
      const none = openaiParams(req());
      assert.equal(none.tools, undefined);
      assert.ok(none.messages.every((m) => m.role !== 'tool' && !('tool_calls' in m)));
    });

    it('a call of a tool that was not offered gets an error result naming what may be called', () => {
      assert.equal(unknownToolText('python', ['add']), 'Error: no tool named python is available in this dialog, so the call was not run. The tools you can call are: add.');
      assert.match(unknownToolText('python', []), /No tool can be called now\.$/);
    });
  });
});
