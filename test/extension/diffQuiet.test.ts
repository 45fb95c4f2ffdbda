// Issue 47.1: Source Control and the Timeline compare two versions of a dialog with VS Code's notebook
// diff, which shows every difference in cell and notebook metadata that is not transient. Our storage
// bookkeeping (which read a cell came from, the file's text around the cells) differs between any two
// reads, so it must be transient: one word changed in one reply, saved, is one output change and nothing
// else. Saving still finds that bookkeeping (VS Code leaves transient metadata out of a save): the file
// changes by that word only.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DialogSerializer } from '../../src/extension/document/serializer';
import { cell2msg, cellLike, cellReply } from '../../src/extension/document/cells';
import { applyMessage } from '../../src/extension/editing/edits';
import { closeAll, copyOf, openDialog, readText, save, setCellText, NOTEBOOK_TYPE } from './helpers';

interface ProviderInfo {
  viewType: string;
  options: { transientCellMetadata: Record<string, boolean | undefined>; transientDocumentMetadata: Record<string, boolean | undefined> };
}

/** `md` without the keys VS Code treats as transient: what its notebook diff compares. */
const compared = (md: { [key: string]: unknown } | undefined, transient: Record<string, boolean | undefined>) =>
  Object.fromEntries(Object.entries(md ?? {}).filter(([k]) => !transient[k]));

const text = (o: vscode.NotebookCellOutput) => o.items.map((i) => `${i.mime}:${new TextDecoder().decode(i.data)}`).join('|');

describe("VS Code's notebook diff of two versions of a dialog", function () {
  this.timeout(60000);
  afterEach(closeAll);

  it('one word changed in one reply and saved: the file changes by that word, the diff shows that one output only', async () => {
    const file = await copyOf('basic.ipynb');
    const before = await readText(file);
    const nb = await openDialog(file);
    const prompt = nb.cellAt(2);
    const reply = cellReply(prompt);
    assert.match(reply, /It is \*\*42\*\*/);
    // As Edit Reply applies an edited reply: the prompt's message with its new reply, one WorkspaceEdit.
    const m = cell2msg(cellLike(prompt));
    m.output = reply.replace('It is', 'It was');
    assert.ok(await applyMessage(prompt, m), 'the reply edited');
    assert.ok(await save(nb), 'saved');
    const after = await readText(file);
    assert.equal(after, before.replace('It is **42**', 'It was **42**'), 'the file changed by that word only');

    const providers = await vscode.commands.executeCommand<ProviderInfo[]>('vscode.resolveNotebookContentProviders');
    const ours = providers.find((p) => p.viewType === NOTEBOOK_TYPE);
    assert.ok(ours, 'our serializer is registered');
    const { transientCellMetadata: cellT, transientDocumentMetadata: docT } = ours.options;
    const ser = new DialogSerializer();
    const a = ser.deserializeNotebook(new TextEncoder().encode(before));
    const b = ser.deserializeNotebook(new TextEncoder().encode(after));
    assert.deepEqual(compared(b.metadata, docT), compared(a.metadata, docT), 'no "Notebook Metadata changed"');
    assert.equal(b.cells.length, a.cells.length);
    const changed: string[] = [];
    a.cells.forEach((c, i) => {
      const d = b.cells[i];
      if (JSON.stringify(compared(c.metadata, cellT)) !== JSON.stringify(compared(d.metadata, cellT))) changed.push(`cell ${i}: metadata`);
      if (c.value !== d.value) changed.push(`cell ${i}: source`);
      if ((c.outputs ?? []).map(text).join() !== (d.outputs ?? []).map(text).join()) changed.push(`cell ${i}: outputs`);
    });
    assert.deepEqual(changed, ['cell 2: outputs']);
  });

  // The bookkeeping comes from the open notebook being saved, also with another copy of the same dialog
  // (same ids, another read) open beside it, as a Source Control diff opens the committed version.
  it('a non-canonical dialog saved beside an open copy of itself keeps its bytes', async () => {
    const file = await copyOf('edge_formatting.ipynb');
    const twin = await copyOf('edge_formatting.ipynb');
    const before = await readText(file);
    const nb = await openDialog(file);
    await openDialog(twin);
    const cell = nb.cellAt(nb.cellCount - 1);
    const text = cell.document.getText();
    await setCellText(cell, text + ' edited');
    await setCellText(cell, text);
    assert.ok(await save(nb), 'saved');
    assert.equal(await readText(file), before);
  });
});
