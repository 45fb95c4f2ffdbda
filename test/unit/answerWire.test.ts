// The canonical chat of real dialogs as each provider's request: the rules each API enforces hold.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { Dialog, Message, Msg, hist2fmt, readIpynb, textPart, toolResult, toolUse, truthy } from '../../src/core';
import { contextPlan } from '../../src/core/answer';
import { anthropicParams } from '../../src/extension/answer/providers/anthropicWire';
import { TOOL_IMAGES, openaiParams } from '../../src/extension/answer/providers/openaiWire';
import { AnswerRequest } from '../../src/extension/answer/providers/provider';
import { lmTurns } from '../../src/extension/answer/providers/vscodeLmWire';
import { corpusFiles } from './corpus';

/** Requests for the last prompt of every readable corpus dialog whose history dlg2chat can build. */
function requests(): { stem: string; req: AnswerRequest }[] {
  const out: { stem: string; req: AnswerRequest }[] = [];
  for (const f of corpusFiles(['public', 'synthetic'])) {
    let d: Dialog;
    try {
      d = readIpynb(readFileSync(f.path, 'utf8'), f.stem);
      const prompts = d.messages.filter((m) => m.msgType === 'prompt' && !truthy(m.skipped));
      if (!prompts.length) continue;
      const plan = contextPlan(d, prompts[prompts.length - 1].id, { maxInputTokens: 1e9, replyTokens: 4096 });
      out.push({ stem: f.stem, req: { model: 'm', system: 'sys', messages: plan.chat, maxTokens: 4096 } });
    } catch {
      continue; // unreadable, or a history dlg2chat refuses: tested elsewhere
    }
  }
  return out;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('answer: wire conversion of corpus dialogs', () => {
  const all = requests();
  const withTools = (msgs: readonly Msg[]) => msgs.some((m) => m.content.some((p) => p.type === 'tool_use'));

  it('covers dialogs with tool calls and with images', () => {
    assert.ok(all.length >= 40, `${all.length}`);
    assert.ok(all.filter((r) => withTools(r.req.messages)).length >= 10);
    assert.ok(all.some((r) => r.req.messages.some((m) => m.content.some((p) => p.type === 'input_image'))));
  });

  it('Anthropic: user first and last, roles alternate, results answer the calls just made, tools declared, no blank text', () => {
    for (const { stem, req } of all) {
      const p = anthropicParams(req);
      assert.equal(p.system, 'sys');
      assert.equal(p.messages[0].role, 'user', stem);
      assert.equal(p.messages[p.messages.length - 1].role, 'user', stem);
      const declared = new Set((p.tools ?? []).map((t) => (t as Anthropic.Tool).name));
      p.messages.forEach((m, k) => {
        if (k) assert.notEqual(m.role, p.messages[k - 1].role, `${stem}: turn ${k}`);
        const blocks = m.content as Anthropic.ContentBlockParam[];
        assert.ok(blocks.length, `${stem}: turn ${k} empty`);
        const calls = k ? (p.messages[k - 1].content as Anthropic.ContentBlockParam[]).filter((b) => b.type === 'tool_use').map((b) => (b as Anthropic.ToolUseBlockParam).id) : [];
        let seenOther = false;
        for (const b of blocks) {
          if (b.type === 'text') assert.ok(b.text.trim(), `${stem}: blank text`);
          if (b.type === 'tool_use') {
            assert.match(b.name, NAME);
            assert.match(b.id, NAME);
            assert.ok(declared.has(b.name), `${stem}: ${b.name} declared`);
          }
          if (b.type === 'tool_result') {
            assert.ok(!seenOther, `${stem}: results come first in their turn`);
            assert.ok(calls.includes(b.tool_use_id), `${stem}: result ${b.tool_use_id} answers a call of the turn before`);
          } else seenOther = true;
          if (b.type === 'image') assert.ok(b.source.type === 'base64' || (b.source.type === 'url' && /^https?:/.test(b.source.url)), stem);
        }
        const answered = blocks.filter((b) => b.type === 'tool_result').map((b) => (b as Anthropic.ToolResultBlockParam).tool_use_id);
        assert.deepEqual(calls.filter((id) => !answered.includes(id)), [], `${stem}: every call answered in the next turn`);
      });
      // No tool is offered: the history's calls went as text, none of them as a tool block.
      assert.equal(p.tools, undefined, stem);
      assert.equal(p.tool_choice, undefined, stem);
    }
  });

  it('OpenAI: every tool message answers a call of the assistant message before it; images as data URLs', () => {
    for (const { stem, req } of all) {
      const p = openaiParams(req);
      assert.deepEqual(p.messages[0], { role: 'system', content: 'sys' });
      assert.equal(p.messages[p.messages.length - 1].role, 'user', stem);
      let open: string[] = [];
      for (const m of p.messages) {
        if (m.role === 'tool') {
          assert.ok(open.includes(m.tool_call_id), `${stem}: ${m.tool_call_id}`);
          open = open.filter((id) => id !== m.tool_call_id);
          continue;
        }
        assert.deepEqual(open, [], `${stem}: every call answered before the next message`);
        if (m.role === 'assistant') open = (m.tool_calls ?? []).map((c) => c.id);
        if (m.role === 'user' && Array.isArray(m.content)) {
          for (const c of m.content as OpenAI.Chat.ChatCompletionContentPart[]) if (c.type === 'image_url') assert.match(c.image_url.url, /^data:image\/|^https?:/);
        }
      }
      assert.equal(p.tools, undefined, stem);
      assert.ok(p.messages.every((m) => m.role !== 'tool' && !(m.role === 'assistant' && m.tool_calls)), `${stem}: past calls as text`);
    }
  });

  it('VS Code LM: alternating text turns opening with the system prompt, replies in reply markdown', () => {
    for (const { stem, req } of all) {
      const turns = lmTurns(req);
      assert.equal(turns[0].role, 'user');
      assert.ok(turns[0].text.startsWith('sys\n\n'), stem);
      assert.equal(turns[turns.length - 1].role, 'user', stem);
      turns.forEach((t, k) => k && assert.notEqual(t.role, turns[k - 1].role, stem));
    }
  });
});

describe('answer: wire conversion details', () => {
  const req = (messages: Msg[], tools?: AnswerRequest['tools']): AnswerRequest => ({ model: 'm', messages, maxTokens: 10, tools });
  const png = 'data:image/png;base64,iVBORw0KGgo=';

  it('dotted tool names and foreign ids are made acceptable, the same way on both sides', () => {
    const msgs: Msg[] = [
      { role: 'user', content: [textPart('go')] },
      { role: 'assistant', content: [toolUse('call.1', 'tools.write_stdin', { chars: 'x' })] },
      { role: 'tool', content: [toolResult('call.1', 'tools.write_stdin', 'done')] },
      { role: 'assistant', content: [textPart('.')] },
      { role: 'user', content: [textPart('again')] },
    ];
    const offered = [{ name: 'tools_write_stdin', description: 'Write.', parameters: { type: 'object' } }];
    const a = anthropicParams(req(msgs, offered));
    assert.deepEqual(a.messages[1].content, [{ type: 'tool_use', id: 'call_1', name: 'tools_write_stdin', input: { chars: 'x' } }]);
    assert.deepEqual((a.messages[2].content as Anthropic.ContentBlockParam[])[0], { type: 'tool_result', tool_use_id: 'call_1', content: 'done' });
    assert.deepEqual(a.tools, [{ name: 'tools_write_stdin', description: 'Write.', input_schema: { type: 'object' } }]);
    const o = openaiParams(req(msgs, offered));
    assert.deepEqual(o.messages[1], { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'tools_write_stdin', arguments: '{"chars":"x"}' } }] });
    assert.deepEqual(o.messages[2], { role: 'tool', tool_call_id: 'call_1', content: 'done' });
  });

  it('images go as image parts; media the API does not take are named, not sent', () => {
    const msgs: Msg[] = [{ role: 'user', content: [textPart('look'), { type: 'input_image', text: png, mime: 'image/png' }, { type: 'input_audio', text: 'data:audio/wav;base64,UklGRg==', mime: 'audio/wav' }] }];
    const a = anthropicParams(req(msgs)).messages[0].content as Anthropic.ContentBlockParam[];
    assert.deepEqual(a[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
    assert.match((a[2] as Anthropic.TextBlockParam).text, /^<media-unavailable mime="audio\/wav">/);
    const o = openaiParams(req(msgs)).messages[0].content as OpenAI.Chat.ChatCompletionContentPart[];
    assert.deepEqual(o[1], { type: 'image_url', image_url: { url: png } });
    assert.equal(o[2].type, 'text');
    assert.equal(openaiParams(req([{ role: 'user', content: [textPart('a'), textPart('b')] }])).messages[0].content, 'a\nb', 'text only: a plain string');
  });

  it("a tool's images: beside its result to Anthropic, in a user turn after the results to OpenAI-compatible servers", () => {
    const msgs: Msg[] = [
      { role: 'user', content: [textPart('look at it')] },
      { role: 'assistant', content: [toolUse('c1', 'read_url', { url: 'https://h.example/p.png' }), toolUse('c2', 'read_url', { url: 'https://h.example/' })] },
      { role: 'tool', content: [toolResult('c1', 'read_url', '[An image]'), toolResult('c2', 'read_url', '# Page'), { type: 'input_image', text: png, mime: 'image/png' }] },
    ];
    const offered = [{ name: 'read_url', description: 'Read.', parameters: { type: 'object' } }];
    const a = anthropicParams(req(msgs, offered)).messages[2].content as Anthropic.ContentBlockParam[];
    assert.deepEqual(a.map((b) => b.type), ['tool_result', 'tool_result', 'image']);
    const o = openaiParams(req(msgs, offered)).messages;
    assert.deepEqual(o.slice(2).map((m) => m.role), ['tool', 'tool', 'user']);
    assert.deepEqual(o[4].content, [{ type: 'text', text: TOOL_IMAGES }, { type: 'image_url', image_url: { url: png } }]);
    assert.equal(openaiParams(req(msgs.slice(0, 2).concat([{ role: 'tool', content: [toolResult('c1', 'read_url', 'a'), toolResult('c2', 'read_url', 'b')] }]), offered)).messages.length, 4, 'no images, no extra turn');
  });

  it('a #ai text file goes as a text block on every wire', () => {
    const d = new Dialog([new Message({ id: 'p1', msgType: 'prompt', content: 'Explain ![](helper.py#ai)' })]);
    const files = new Map([['helper.py', new TextEncoder().encode('def helper():\n    return 42\n')]]);
    const plan = contextPlan(d, 'p1', { maxInputTokens: 1e6, replyTokens: 10 }, { hist: { files } });
    const file = '<file path="helper.py">def helper():\n    return 42\n</file>';
    assert.deepEqual(plan.chat[0].content, [textPart(file), textPart('Explain ![](helper.py#ai)')]);
    assert.deepEqual(anthropicParams(req(plan.chat)).messages[0].content, [{ type: 'text', text: file }, { type: 'text', text: 'Explain ![](helper.py#ai)' }]);
    assert.equal(openaiParams(req(plan.chat)).messages[0].content, `${file}\nExplain ![](helper.py#ai)`);
    assert.equal(lmTurns(req(plan.chat))[0].text, `${file}\nExplain ![](helper.py#ai)`);
  });

  it('VS Code LM: tool turns are written back as the reply they came from', () => {
    const reply: Msg[] = [
      { role: 'assistant', content: [textPart('Running.'), toolUse('c1', 'python', { code: '1+1' })] },
      { role: 'tool', content: [toolResult('c1', 'python', '2')] },
      { role: 'assistant', content: [textPart('It is 2.')] },
    ];
    const turns = lmTurns(req([{ role: 'user', content: [textPart('q')] }, ...reply, { role: 'user', content: [textPart('next')] }]));
    assert.deepEqual(turns, [
      { role: 'user', text: 'q' },
      { role: 'assistant', text: hist2fmt(reply, null) },
      { role: 'user', text: 'next' },
    ]);
  });
});

describe('answer: thinking on the wire (issue 21)', () => {
  const req: AnswerRequest = { model: 'm', messages: [{ role: 'user', content: [textPart('Think.')] }], maxTokens: 4096 };
  const thinking = { budgetTokens: 8000, effort: 'high' as const };

  it('Anthropic: thinking enabled with its budget, max_tokens raised so the budget fits', () => {
    const p = anthropicParams({ ...req, thinking });
    assert.deepEqual(p.thinking, { type: 'enabled', budget_tokens: 8000 });
    assert.equal(p.max_tokens, 12096);
    const off = anthropicParams(req);
    assert.equal(off.thinking, undefined);
    assert.equal(off.max_tokens, 4096);
  });

  it('OpenAI-compatible: reasoning_effort, only when thinking', () => {
    assert.equal(openaiParams({ ...req, thinking }).reasoning_effort, 'high');
    assert.equal(openaiParams(req).reasoning_effort, undefined);
  });
});
