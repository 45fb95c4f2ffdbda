// AI inside a cell (issue 30), the pure part: the ghost-text and Edit-with-AI requests, their history (the
// one a prompt in the cell's place would send, newest kept within the budget) and the answer taken as the
// insertion or the rewrite only.
import { strict as assert } from 'node:assert';
import { Dialog, Message, dlg2chat } from '../../src/core';
import { INLINE_PROMPT_ID, MAX_BEFORE_CHARS, TRUNCATED_MARK, cleanCompletion, cleanRewrite, completionRequest, editRequest, inlinePlan, nearText } from '../../src/core/answer';

const text = (p: { chat: { content: { type: string; text?: string }[] }[] }) => JSON.stringify(p.chat);
const WIDE = { maxContextTokens: 100_000, maxInputTokens: 200_000, replyTokens: 512 };

function dialog(): Message[] {
  const d = new Dialog([
    new Message({ id: 'note0001', msgType: 'note', content: 'We load the sales data with pandas.' }),
    new Message({ id: 'prmt0001', msgType: 'prompt', content: 'How do I read a CSV?', output: 'Use `pd.read_csv`.' }),
    new Message({ id: 'code0001', msgType: 'code', content: 'import pandas as pd' }),
  ]);
  return d.messages;
}

describe('inline requests (ghost text, Edit with AI)', () => {
  it('a completion request marks the cursor in the cell and asks for the insertion only', () => {
    const r = completionRequest({ kind: 'code', language: 'python' }, { before: 'df = pd.read_', after: '\nprint(df)' });
    assert.match(r, /a python code cell/);
    assert.ok(r.includes('<cell>df = pd.read_<CURSOR/>\nprint(df)</cell>'), r);
    assert.match(r, /only the text to insert/);
  });

  it('keeps the text nearest the cursor when the cell is long', () => {
    const before = 'a'.repeat(MAX_BEFORE_CHARS) + 'NEAR';
    const t = nearText({ before: 'FAR' + before, after: 'next' + 'b'.repeat(10_000) });
    assert.ok(t.before.endsWith('NEAR') && !t.before.includes('FAR'));
    assert.ok(t.after.startsWith('next') && t.after.length < 10_000);
    // A surrogate pair is never cut in two.
    const emoji = nearText({ before: '😀'.repeat(MAX_BEFORE_CHARS), after: '' }).before;
    assert.ok(!/^[\udc00-\udfff]/.test(emoji));
  });

  it('an edit request holds the selected text, its place in the cell and the instruction', () => {
    const r = editRequest({ kind: 'note' }, { before: 'Intro. ', selected: 'teh cat sat', after: ' End.' }, 'fix the typo');
    assert.ok(r.includes('<text>teh cat sat</text>'));
    assert.ok(r.includes('<cell>Intro. <CURSOR/> End.</cell>'));
    assert.match(r, /Instruction: fix the typo/);
    // The whole cell: no second copy of it around the text.
    assert.ok(!editRequest({ kind: 'code' }, { before: '', selected: 'x = 1', after: '' }, 'rename').includes('<cell>'));
  });

  it('plans the history a prompt in the cell’s place would send, ending with the request', () => {
    const history = dialog();
    const request = completionRequest({ kind: 'code', language: 'python' }, { before: 'df = ', after: '' });
    const plan = inlinePlan(history, request, WIDE);
    // The same turns dlg2chat gives a prompt there: the note and the old prompt with its reply, then the request.
    const prompt = new Message({ id: INLINE_PROMPT_ID, msgType: 'prompt', content: request });
    const expected = dlg2chat([...history, prompt]);
    expected.pop();
    assert.deepEqual(plan.chat, expected);
    assert.equal(plan.chat[plan.chat.length - 1].role, 'user');
    assert.match(text(plan), /sales data[\s\S]*read a CSV[\s\S]*pd\.read_csv[\s\S]*import pandas[\s\S]*df = <CURSOR\/>/);
    assert.ok(plan.verdicts.every((v) => v.verdict === 'kept'));
  });

  it('keeps the newest messages within maxContextTokens; the request always goes', () => {
    const old = new Message({ id: 'note0000', msgType: 'note', content: 'OLDEST ' + 'lorem ipsum '.repeat(2000) });
    const history = [old, ...dialog()];
    const plan = inlinePlan(history, completionRequest({ kind: 'code' }, { before: 'x', after: '' }), { ...WIDE, maxContextTokens: 400 });
    assert.ok(plan.total <= 400, `${plan.total} tokens`);
    const first = plan.verdicts[0];
    assert.notEqual(first.verdict, 'kept');
    assert.ok(!text(plan).includes('OLDEST'));
    assert.ok(plan.verdicts.slice(1).every((v) => v.verdict === 'kept'), 'the newer messages are kept');
    // A model window smaller than the setting wins.
    const small = inlinePlan(history, 'req', { maxContextTokens: 100_000, maxInputTokens: 5_900, replyTokens: 512 });
    assert.ok(small.budget <= 5_900 - 512 - 5_000 + 1);
    // Nothing fits: the request alone, and the plan says it is over.
    const none = inlinePlan(history, 'req '.repeat(500), { ...WIDE, maxContextTokens: 10 });
    assert.deepEqual(none.messages.map((m) => m.id), [INLINE_PROMPT_ID]);
    assert.ok(none.over);
    assert.ok(TRUNCATED_MARK);
  });

  it('takes the answer as the insertion only', () => {
    assert.equal(cleanCompletion('```python\nread_csv("sales.csv")\n```', { before: 'df = pd.', after: '' }), 'read_csv("sales.csv")');
    // A restated line is dropped; trailing blank lines go when the cursor ends the line.
    assert.equal(cleanCompletion('df = pd.read_csv(f)\n\n', { before: 'x = 1\ndf = pd.', after: '\nprint(df)' }), 'read_csv(f)');
    // Inside a line, what follows the insertion is kept as the model gave it.
    assert.equal(cleanCompletion('a, ', { before: 'f(', after: 'b)' }), 'a, ');
  });

  it('takes the answer as the rewrite only, with the text’s own trailing newline', () => {
    assert.equal(cleanRewrite('```\nThe cat sat.\n```', 'teh cat sat'), 'The cat sat.');
    assert.equal(cleanRewrite('y = 2', 'x = 1\n'), 'y = 2\n');
    assert.equal(cleanRewrite('y = 2\n\n', 'x = 1'), 'y = 2');
    // Fenced text stays fenced.
    assert.equal(cleanRewrite('```py\nb\n```', '```py\na\n```'), '```py\nb\n```');
  });
});
