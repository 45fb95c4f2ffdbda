// Run All runs code, never the model (issue 20): Run All / Run Above / Run Below pass prompts over with
// their replies byte-identical and send nothing to the model server; a prompt run alone is still answered;
// Dialog: Answer All Prompts… / Answer Prompts Below… ask first (count, tokens, cost), then answer each in
// order as its own undo step, and a stop ends the rest. Against the local Anthropic mock.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, aiRes, readIpynb, replyUsage } from '../../src/core';
import { mkToolBlock } from '../../src/core/reply';
import { StateMessage } from '../../src/shared/panelProtocol';
import { cellArgs, cellOf, closeAll, execute, freshDialog as fresh, readText, replyText, save, until, useMockProviders, showDialog } from './helpers';

interface AnswerAllResult {
  ok: boolean;
  message: string;
  question?: string;
  answered?: number;
}

/** Replies that a rewrite would change: non-ASCII, trailing spaces, no final newline. */
const OLD1 = 'Old reply — first.  \n\n```python\nx = 1\n```';
const OLD2 = 'Old reply, second: 😀';

/** note, prompt with a reply, code, prompt with a reply, code, prompt without a reply. */
const freshDialog = () =>
  fresh('runall', [
    new Message({ id: 'note0001', msgType: 'note', content: '# Run all' }),
    new Message({ id: 'ask00001', msgType: 'prompt', content: 'First question?', output: OLD1 }),
    new Message({ id: 'code0001', msgType: 'code', content: "print('one')" }),
    new Message({ id: 'ask00002', msgType: 'prompt', content: 'Second question?', output: OLD2 }),
    new Message({ id: 'code0002', msgType: 'code', content: "print('two')" }),
    new Message({ id: 'ask00003', msgType: 'prompt', content: 'Third question?' }),
  ]);

const PROMPTS = ['ask00001', 'ask00002', 'ask00003'];
const replies = (nb: vscode.NotebookDocument) => PROMPTS.map((id) => replyText(cellOf(nb, id)));
const ended = (nb: vscode.NotebookDocument, id: string) => until(() => cellOf(nb, id).executionSummary?.timing?.endTime, `the end of ${id}'s run`, 180000);
/** The saved source of each prompt cell (prompt, separator, reply), as the file has it. */
const promptSources = (text: string) =>
  (JSON.parse(text) as { cells: { id: string; source: string[] }[] }).cells.filter((c) => PROMPTS.includes(c.id)).map((c) => c.source.join(''));
const select = async (nb: vscode.NotebookDocument, id: string) => {
  const k = cellOf(nb, id).index;
  await showDialog(nb, { selections: [new vscode.NotebookRange(k, k + 1)] });
  await until(() => vscode.window.activeNotebookEditor?.notebook === nb && vscode.window.activeNotebookEditor.selections[0]?.start === k, 'the selection');
};

describe('Run All runs code; Answer All Prompts asks first', function () {
  this.timeout(600000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
  afterEach(closeAll);

  it('Run All runs the code cells only: every reply stays byte-identical and no request reaches the model', async () => {
    const { name, nb } = await freshDialog();
    const before = replies(nb);
    const saved = promptSources(await readText(name));
    const sent = ant.requests.length;
    await vscode.commands.executeCommand('notebook.execute', nb.uri);
    await ended(nb, 'code0002');
    assert.equal(cellOf(nb, 'code0001').executionSummary?.success, true, 'the code ran');
    assert.deepEqual(replies(nb), before);
    for (const id of PROMPTS) assert.equal(cellOf(nb, id).executionSummary?.timing, undefined, `${id} was not run`);
    assert.equal(ant.requests.length, sent, 'no request to the model');
    assert.ok(await save(nb));
    assert.deepEqual(promptSources(await readText(name)), saved, 'the saved prompts and replies, byte for byte');
  });

  it('Run Above and Run Below pass prompts over, even a prompt that is the only code-kind cell above', async () => {
    const { nb } = await fresh('runall', [
      new Message({ id: 'note0001', msgType: 'note', content: '# Run above' }),
      new Message({ id: 'ask00001', msgType: 'prompt', content: 'First question?', output: OLD1 }),
      new Message({ id: 'note0002', msgType: 'note', content: 'Between.' }),
      new Message({ id: 'code0001', msgType: 'code', content: "print('one')" }),
      new Message({ id: 'ask00002', msgType: 'prompt', content: 'Second question?', output: OLD2 }),
      new Message({ id: 'code0002', msgType: 'code', content: "print('two')" }),
      new Message({ id: 'ask00003', msgType: 'prompt', content: 'Third question?' }),
    ]);
    const before = replies(nb);
    const sent = ant.requests.length;
    // Above code0001: the notes and ask00001, which VS Code sends alone (notes do not run).
    await select(nb, 'code0001');
    await vscode.commands.executeCommand('notebook.cell.executeCellsAbove');
    await select(nb, 'ask00002');
    await vscode.commands.executeCommand('notebook.cell.executeCellAndBelow');
    await ended(nb, 'code0002');
    assert.equal(cellOf(nb, 'code0001').executionSummary?.timing, undefined, 'Run Above did not run the focused cell');
    for (const id of PROMPTS) assert.equal(cellOf(nb, id).executionSummary?.timing, undefined, `${id} was not run`);
    assert.deepEqual(replies(nb), before);
    assert.equal(ant.requests.length, sent, 'no request to the model');
  });

  it('a prompt run alone (its ▶, or Shift+Enter, which focuses the next cell first) is still answered', async () => {
    const { nb } = await freshDialog();
    ant.enqueue({ text: ['A new first reply.'] }, { text: ['Again.'] });
    const sent = ant.requests.length;
    await select(nb, 'ask00001');
    await vscode.commands.executeCommand('notebook.cell.execute', cellArgs(nb, 'ask00001'));
    await until(() => replyText(cellOf(nb, 'ask00001')).startsWith('A new first reply.'), 'the new reply');
    await select(nb, 'code0001');
    await vscode.commands.executeCommand('notebook.cell.execute', cellArgs(nb, 'ask00001'));
    await until(() => replyText(cellOf(nb, 'ask00001')).startsWith('Again.'), 'the reply of the Shift+Enter run');
    assert.equal(ant.requests.length, sent + 2);
  });

  it('Answer All Prompts says what it sends and sends nothing when declined', async () => {
    const { nb } = await freshDialog();
    const sent = ant.requests.length;
    const r = await vscode.commands.executeCommand<AnswerAllResult>('dialogNotebook.answerAllPrompts', nb.uri, { confirm: false });
    assert.equal(r.ok, false);
    assert.match(r.question!, /^Answer 3 prompts with anthropic:claude-e2e\?\n3 requests in order, about [\d,]+ input tokens in all/);
    assert.match(r.question!, /The price of anthropic:claude-e2e is not known here: no cost estimate\./);
    await vscode.commands.executeCommand('dialogNotebook.selectModel', 'anthropic:claude-sonnet-4-5');
    try {
      const priced = await vscode.commands.executeCommand<AnswerAllResult>('dialogNotebook.answerPromptsBelow', cellOf(nb, 'ask00002'), { confirm: false });
      assert.match(priced.question!, /^Answer 2 prompts with anthropic:claude-sonnet-4-5\?/);
      assert.match(priced.question!, /Estimated cost: about (< )?\$\d+\.\d\d at anthropic:claude-sonnet-4-5's list price/);
    } finally {
      await vscode.commands.executeCommand('dialogNotebook.selectModel', 'anthropic:claude-e2e');
    }
    assert.equal(ant.requests.length, sent, 'nothing sent');
    assert.deepEqual(replies(nb)[0], OLD1);
  });

  it('Answer All Prompts answers each prompt in order, each one undo step', async () => {
    const { nb } = await freshDialog();
    ant.enqueue({ text: ['New one.'] }, { text: ['New two.'] }, { text: ['New three.'] });
    const sent = ant.requests.length;
    const r = await vscode.commands.executeCommand<AnswerAllResult>('dialogNotebook.answerAllPrompts', nb.uri, { confirm: true });
    assert.equal(r.message, 'Answered 3 of 3 prompts');
    assert.equal(ant.requests.length, sent + 3);
    const now = replies(nb);
    ['New one.', 'New two.', 'New three.'].forEach((t, k) => assert.ok(now[k].startsWith(t) && replyUsage(now[k]) !== null, now[k]));
    // In order: the second request has the first new reply in its history.
    assert.match(JSON.stringify(ant.requests[sent + 1].body), /New one\./);
    await showDialog(nb);
    await vscode.commands.executeCommand('undo');
    await until(() => replyText(cellOf(nb, 'ask00003')) === '', 'the third reply undone');
    assert.ok(replyText(cellOf(nb, 'ask00002')).startsWith('New two.'), 'one undo step undoes one answer');
    await vscode.commands.executeCommand('undo');
    await until(() => replyText(cellOf(nb, 'ask00002')) === OLD2, 'the second old reply back');
  });

  it('Answer Prompts Below starts at the selected cell; stopping one answer ends the rest', async () => {
    const { name, nb } = await freshDialog();
    ant.enqueue({ text: ['Partial'], delayMs: 10, holdOpen: true });
    const sent = ant.requests.length;
    const run = vscode.commands.executeCommand<AnswerAllResult>('dialogNotebook.answerPromptsBelow', cellOf(nb, 'code0001'), { confirm: true });
    await until(() => replyText(cellOf(nb, 'ask00002')).includes('Partial'), 'the partial answer');
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', cellArgs(nb, 'ask00002'));
    const r = await run;
    assert.equal(r.message, 'Answered 0 of 2 prompts');
    assert.equal(ant.requests.length, sent + 1, 'the rest was not sent');
    assert.equal(replyText(cellOf(nb, 'ask00001')), OLD1, 'above the selection: untouched');
    assert.equal(replyText(cellOf(nb, 'ask00003')), '');
    assert.ok(await save(nb));
    assert.equal(aiRes(readIpynb(await readText(name)).messages.find((m) => m.id === 'ask00003')!), '', 'the stopped prompt: no reply saved');
  });

  it('a past call of a tool not offered (Solveit’s python) goes as text, no tool is declared, and the History tab shows that request', async () => {
    const reply = `Let me run it.${mkToolBlock({ id: 'toolu_py1', name: 'python', arguments: { code: 'print(1)' }, text: '1' })}It printed 1.`;
    const { nb } = await fresh('runall', [
      new Message({ id: 'ask00001', msgType: 'prompt', content: 'Run print(1).', output: reply }),
      new Message({ id: 'ask00002', msgType: 'prompt', content: 'What did it print?' }),
    ]);
    ant.enqueue({ text: ['It printed 1.'] });
    await execute(nb, 'ask00002');
    await until(() => replyText(cellOf(nb, 'ask00002')).startsWith('It printed 1.'), 'the answer');
    const body = ant.requests[ant.requests.length - 1].body as { tools?: unknown; tool_choice?: unknown; messages: { role: string; content: { type: string; text?: string }[] }[] };
    assert.equal(body.tools, undefined, 'no tool offered');
    assert.equal(body.tool_choice, undefined);
    assert.ok(body.messages.every((m) => m.content.every((c) => c.type === 'text')), 'no tool blocks');
    assert.match(JSON.stringify(body.messages), /An earlier call of python, a tool not available now: python\(\{\\"code\\":\\"print\(1\)\\"\}\)/);
    // The History tab opens on "What is sent": the same turns.
    const ed = await vscode.window.showNotebookDocument(nb, { viewColumn: vscode.ViewColumn.One });
    ed.selections = [new vscode.NotebookRange(1, 2)];
    const p = await vscode.commands.executeCommand<{ lastState: StateMessage }>('dialogNotebook.showPanel');
    const h = (await until(() => (p.lastState.history?.promptId === 'ask00002' ? p.lastState.history : undefined), 'the preview'))!;
    assert.equal(h.mode, 'chat', 'the default view is what is sent');
    const tab = h.turns.map((t) => ({ role: t.role, text: t.parts.filter((x) => x.kind === 'text').map((x) => x.text).join('') }));
    const sent = body.messages.map((m) => ({ role: m.role, text: m.content.map((c) => c.text ?? '').join('') }));
    assert.deepEqual(tab, sent);
  });
});
