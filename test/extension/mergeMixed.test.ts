// Merging messages of different types (issue 12, item 9): a prompt and the code cell below become one
// note with "## AI Prompt" headings and combined metadata only when the user says so; declined, the
// dialog is unchanged and the result says why. Same-type merges ask nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAll, copyOf, dialogState, openDialog, until } from './helpers';

interface Result {
  ok: boolean;
  message: string;
}

const run = (...args: unknown[]) => vscode.commands.executeCommand<Result>('dialogNotebook.mergeCells', ...args);

async function select(nb: vscode.NotebookDocument, start: number, end: number): Promise<void> {
  const ed = await vscode.window.showNotebookDocument(nb);
  ed.selections = [new vscode.NotebookRange(start, end)];
  await until(() => ed.selection.start === start && ed.selection.end === end, 'the selection');
}

describe('merge of different types (issue 12)', function () {
  this.timeout(120000);
  afterEach(closeAll);

  it('declined: a prompt and a code cell stay as they were, and the result names the types', async () => {
    const nb = await openDialog('basic.ipynb');
    const before = nb.getCells().map((c) => [c.document.getText(), dialogState(c).msgType]);
    await select(nb, 1, 3); // code `x = 21`, then the prompt "What is x*2?"
    const r = await run(undefined, false);
    assert.equal(r.ok, false);
    assert.match(r.message, /different types \(code, prompt\)/);
    assert.deepEqual(nb.getCells().map((c) => [c.document.getText(), dialogState(c).msgType]), before);
    assert.equal(nb.isDirty, false);
  });

  it('accepted: they merge into one note', async () => {
    const nb = await openDialog(await copyOf('basic.ipynb')); // a copy: an edit left behind would change other suites' basic.ipynb
    const n = nb.cellCount;
    await select(nb, 1, 3);
    const r = await run(undefined, true);
    assert.equal(r.ok, true, r.message);
    assert.equal(nb.cellCount, n - 1);
    assert.equal(nb.cellAt(1).kind, vscode.NotebookCellKind.Markup);
    assert.match(nb.cellAt(1).document.getText(), /## AI Prompt/);
  });
});
