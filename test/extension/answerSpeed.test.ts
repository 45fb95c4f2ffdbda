// What answering does again (issue 33), in the real VS Code: the dialog model kept cell by cell from what
// changed equals a fresh conversion of the notebook after every kind of edit (text, insert, delete, move,
// metadata, outputs) and reuses the messages of the cells that did not change; a history naming an
// undefined &`tool` is said once per dialog however often its prompts are answered. The kernel part
// needs Debian's jupyter-server and python3-ipykernel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, aiRes, writeIpynb } from '../../src/core';
import { msg2cell, notebookDialog } from '../../src/extension/document/cells';
import { dialogOf } from '../../src/extension/document/dialogCache';
import { cellOf, closeAll, execute, freshDialog, replyText, setCellText, until, useMockProviders, showDialog } from './helpers';

const code = (id: string, content: string) => new Message({ id, msgType: 'code', content });
const prompt = (id: string, content: string) => new Message({ id, msgType: 'prompt', content });
const note = (id: string, content: string) => new Message({ id, msgType: 'note', content });

/** The cached model is the fresh conversion, message by message and as a save writes it. */
function assertFresh(nb: vscode.NotebookDocument, what: string): void {
  const cached = dialogOf(nb);
  const fresh = notebookDialog(nb);
  assert.deepEqual(cached.messages.map((m) => m.id), fresh.messages.map((m) => m.id), `${what}: the messages`);
  assert.equal(writeIpynb(cached), writeIpynb(fresh), `${what}: the saved form`);
  assert.ok(cached.messages.every((m) => m.dlg === cached), `${what}: the messages belong to this version`);
}

async function apply(edit: vscode.WorkspaceEdit, what: string): Promise<void> {
  assert.ok(await vscode.workspace.applyEdit(edit), what);
}

describe('answer speed: the dialog model cell by cell', function () {
  this.timeout(120000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
  afterEach(closeAll);

  it('equals a fresh conversion after each kind of edit, and converts only the cells that changed', async () => {
    const { nb } = await freshDialog('answerSpeed', [note('note0001', '# Notes'), code('code0001', 'x = 1'), prompt('ask00001', 'What is x?'), note('note0002', 'The end.')]);
    assertFresh(nb, 'opened');
    const before = dialogOf(nb).messages;

    await setCellText(cellOf(nb, 'note0002'), 'The very end.');
    assertFresh(nb, 'a text edit');
    const after = dialogOf(nb).messages;
    assert.equal(after[0], before[0], 'an unchanged cell keeps its message');
    assert.notEqual(after[3], before[3], 'the edited one is converted again');

    const ins = new vscode.WorkspaceEdit();
    // With its id: a cell without one gets a new one from every conversion until the extension stamps it.
    ins.set(nb.uri, [vscode.NotebookEdit.insertCells(1, [msg2cell(note('ins00001', 'Inserted'))])]);
    await apply(ins, 'the insert');
    assertFresh(nb, 'an insert');

    const del = new vscode.WorkspaceEdit();
    del.set(nb.uri, [vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(1, 2))]);
    await apply(del, 'the delete');
    assertFresh(nb, 'a delete');

    const meta = new vscode.WorkspaceEdit();
    const c = cellOf(nb, 'code0001');
    meta.set(nb.uri, [vscode.NotebookEdit.updateCellMetadata(c.index, { ...c.metadata, dialog: { ...(c.metadata.dialog as object), pinned: 1 } })]);
    await apply(meta, 'the metadata edit');
    assertFresh(nb, 'a metadata edit');
    assert.equal(dialogOf(nb).messages[1].pinned, 1);

    const k = cellOf(nb, 'note0001').index;
    await showDialog(nb, { selections: [new vscode.NotebookRange(k, k + 1)] });
    await vscode.commands.executeCommand('notebook.cell.moveDown');
    await until(() => cellOf(nb, 'note0001').index === k + 1, 'the move');
    assertFresh(nb, 'a move');

    // Several changes between two reads of the model: each applied in order, none missed.
    const first = new vscode.WorkspaceEdit();
    first.set(nb.uri, [vscode.NotebookEdit.insertCells(0, [msg2cell(note('ins00002', 'First'))])]);
    await apply(first, 'an insert at the top');
    await setCellText(cellOf(nb, 'note0002'), 'The end, again.');
    const swap = new vscode.WorkspaceEdit();
    swap.set(nb.uri, [vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(2, 3), [msg2cell(note('rep00001', 'Replaced'))])]);
    await apply(swap, 'a replace');
    const last = new vscode.WorkspaceEdit();
    last.set(nb.uri, [vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(0, 1))]);
    await apply(last, 'the delete of the top');
    assertFresh(nb, 'an insert, a text edit, a replace and a delete in a row');

    ant.enqueue({ text: ['x is 1.'] });
    await execute(nb, 'ask00001');
    await until(() => replyText(cellOf(nb, 'ask00001')).includes('x is 1.'), 'the reply');
    assertFresh(nb, 'an output change (a reply)');
    assert.match(aiRes(dialogOf(nb).messages.find((m) => m.id === 'ask00001')!), /x is 1\./);
  });
});

describe('answer speed: a missing tool is said once per dialog', function () {
  this.timeout(300000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'], kernel: true });
  afterEach(closeAll);

  it('answering after a prompt naming an undefined &`tool`, twice, warns at most once', async () => {
    const { nb } = await freshDialog('answerSpeed', [code('setx0001', 'x = 1'), prompt('tool0001', 'Use &`nosuchtool`.'), prompt('next0001', 'And now?')]);
    await vscode.commands.executeCommand('notebook.execute', nb.uri); // the code only: the kernel runs
    const notices = () => vscode.commands.executeCommand<string[]>('dialogNotebook.kernelNotices', nb.uri.toString());
    for (const round of [1, 2]) {
      const before = ant.requests.length;
      ant.enqueue({ text: [`Answer ${round}.`] });
      await execute(nb, 'next0001');
      await until(() => replyText(cellOf(nb, 'next0001')).includes(`Answer ${round}.`), `answer ${round}`);
      assert.equal(ant.requests.length, before + 1);
      assert.equal(ant.requests[before].body.tools, undefined, 'the undefined tool is not offered');
    }
    const said = await notices();
    assert.equal(said.filter((s) => s.includes('nosuchtool')).length, 1, said.join('\n'));
  });
});
