// Issue 51: VS Code applies a notebook edit's indices to the notebook as it is when the edit reaches the
// window and checks no version. A cell another writer inserted or removed a moment before shifts ours:
// its metadata lands on the neighbour (the cell just inserted, too), a replacement takes the wrong cells.
// The edit is put right after it lands: every message stands once, with its own id, nothing of the other
// writer's is lost.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message } from '../../src/core/model';
import { cell2msg, cellLike, cellState, msg2cell } from '../../src/extension/document/cells';
import { applyMessage, applyRepaired, messageListEdit } from '../../src/extension/editing/edits';
import { dialogOf } from '../../src/extension/document/dialogCache';
import { closeAll, freshDialog } from './helpers';

const note = (id: string, content: string) => new Message({ id, msgType: 'note', content });
const ids = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => cellState(c).id);
const texts = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => c.document.getText());

/** Inserts a note at `at` as another writer does: sent now, applied before whatever is sent after it. */
function insertElsewhere(nb: vscode.NotebookDocument, at: number, id: string): Thenable<boolean> {
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(at, [msg2cell(note(id, `theirs ${id}`), 'python')])]);
  return vscode.workspace.applyEdit(edit);
}

describe('edits shifted by another writer’s edit on its way (issue 51)', function () {
  this.timeout(60000);
  afterEach(closeAll);

  it('a message written while a cell is inserted just above it: the new cell keeps its own id, the message gets its metadata', async () => {
    const { nb } = await freshDialog('shifted', [0, 1, 2, 3, 4].map((k) => note(`m${k}`, `Message ${k}`)));
    const target = nb.cellAt(3);
    const m = cell2msg(cellLike(target));
    m.content = 'Message 3, edited';
    m.pinned = 1;
    const theirs = insertElsewhere(nb, 3, 'x1');
    assert.ok(await applyMessage(target, m), 'our edit applied');
    assert.ok(await theirs, 'theirs applied');
    assert.deepEqual(ids(nb), ['m0', 'm1', 'm2', 'x1', 'm3', 'm4']);
    assert.deepEqual(texts(nb), ['Message 0', 'Message 1', 'Message 2', 'theirs x1', 'Message 3, edited', 'Message 4']);
    assert.equal(cellState(nb.cellAt(4)).pinned, 1, 'the edited message is pinned');
    assert.notEqual(cellState(nb.cellAt(3)).pinned, 1, 'the inserted note is not');
  });

  it('messages replaced while a cell is inserted above them: the replacement takes the cells it was planned for, the inserted one stays', async () => {
    const { nb } = await freshDialog('shifted', [0, 1, 2, 3, 4].map((k) => note(`m${k}`, `Message ${k}`)));
    const before = dialogOf(nb).messages;
    // m2 and m3 replaced by a new message between them (a merge's splice): a run replaced, not a text edit.
    const after = [before[0], before[1], note('n1', 'New 1'), before[4]];
    const made = messageListEdit(nb, before, after, new Set());
    const theirs = insertElsewhere(nb, 1, 'x1');
    assert.ok(await applyRepaired(nb, made), 'our edit applied');
    assert.ok(await theirs, 'theirs applied');
    assert.deepEqual(ids(nb), ['m0', 'x1', 'm1', 'n1', 'm4']);
    assert.deepEqual(texts(nb), ['Message 0', 'theirs x1', 'Message 1', 'New 1', 'Message 4']);
  });

  it('messages replaced while a cell above them is deleted: the replacement takes the cells it was planned for, no other', async () => {
    const { nb } = await freshDialog('shifted', [0, 1, 2, 3, 4, 5].map((k) => note(`m${k}`, `Message ${k}`)));
    const before = dialogOf(nb).messages;
    const after = [before[0], before[1], before[2], note('n1', 'New 1'), before[5]];
    const made = messageListEdit(nb, before, after, new Set());
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(1, 2))]);
    const theirs = vscode.workspace.applyEdit(edit);
    assert.ok(await applyRepaired(nb, made), 'our edit applied');
    assert.ok(await theirs, 'theirs applied');
    assert.deepEqual(ids(nb), ['m0', 'm2', 'n1', 'm5']);
    assert.deepEqual(texts(nb), ['Message 0', 'Message 2', 'New 1', 'Message 5']);
  });
});
