// A streamed answer gathered into canonical messages and written as Solveit's reply markdown.
import { strict as assert } from 'node:assert';
import { INTERRUPTED, Message, aiOutput, fmt2hist, hist2fmt, textPart, toolUse } from '../../src/core';
import { ReplyBuilder, replyMarkdown, usageBlock } from '../../src/core/answer';

const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };

describe('answer: ReplyBuilder and replyMarkdown', () => {
  it('joins deltas into one text part; the reply is hist2fmt of it plus the usage block', () => {
    const b = new ReplyBuilder();
    for (const text of ['Hel', 'lo ', 'world.']) b.add({ type: 'text', text });
    b.add({ type: 'usage', usage });
    b.add({ type: 'retry', retry: 1, of: 8, delayMs: 1000, message: 'ignored' });
    b.add({ type: 'end', reason: 'stop' });
    assert.deepEqual(b.messages(), [{ role: 'assistant', content: [textPart('Hello world.')] }]);
    assert.equal(b.markdown(), `Hello world.\n\n${usageBlock(usage)}`);
    assert.deepEqual(fmt2hist(b.markdown()), [{ role: 'assistant', content: [textPart('Hello world.')] }], 'the usage block never reaches the history');
  });

  it('keeps the order of thinking, text and tool calls; a call without result is a pending row', () => {
    const b = new ReplyBuilder();
    b.add({ type: 'thinking', text: 'Let me ' });
    b.add({ type: 'thinking', text: 'think.' });
    b.add({ type: 'text', text: 'Calling.' });
    b.add({ type: 'tool_use', id: 'toolu_1', name: 'python', arguments: { code: '1+1' } });
    b.add({ type: 'text', text: 'After.' });
    const msgs = b.messages();
    assert.deepEqual(msgs[0].content.map((p) => p.type), ['thinking', 'text', 'tool_use', 'text']);
    assert.equal(b.markdown(), hist2fmt(msgs));
    assert.equal(b.markdown(), 'Calling.\n\nAfter.\n\n- ⏳ `python(code="1+1")` ⏳');
    assert.match(b.markdown({ showthink: true }), /^<!--think_start-->[\s\S]*Let me think\.[\s\S]*<!--think_end-->\n\nCalling\./);
  });

  it('a stopped answer keeps what arrived, then the interrupted marker that ai_fmt understands', () => {
    const b = new ReplyBuilder();
    b.add({ type: 'text', text: 'Partial answ' });
    b.add({ type: 'usage', usage });
    b.add({ type: 'end', reason: 'aborted' });
    const reply = b.markdown();
    assert.equal(reply, `Partial answ\n\n${usageBlock(usage)}\n${INTERRUPTED}`);
    const m = new Message({ msgType: 'prompt', content: 'q', output: reply });
    assert.ok(!aiOutput(m).endsWith(INTERRUPTED), 'the history drops the marker');
    const empty = new ReplyBuilder();
    empty.add({ type: 'end', reason: 'aborted' });
    assert.equal(empty.markdown(), INTERRUPTED);
    assert.deepEqual(empty.messages(), []);
  });

  it('replyMarkdown takes the tool block style and truncation of hist2fmt', () => {
    const msgs = [
      { role: 'assistant' as const, content: [toolUse('c1', 'f', { x: 1 })] },
      { role: 'tool' as const, content: [{ type: 'tool_result' as const, id: 'c1', name: 'f', arguments: {}, server: false, text: 'r'.repeat(30) }] },
      { role: 'assistant' as const, content: [textPart('done')] },
    ];
    assert.equal(replyMarkdown(msgs), hist2fmt(msgs));
    assert.equal(replyMarkdown(msgs, { style: 'details', mx: 20 }), hist2fmt(msgs, 20, false, 'details'));
    assert.equal(replyMarkdown([], { usage }), usageBlock(usage));
  });
});
