// A prompt shows the images its request holds as thumbnails above its reply (the reply output's
// metadata). A paste or drop adds an attachment and its `attachment:` reference in one edit, an Undo or a
// deleted reference takes one away: none of these can set outputs, so after each the thumbnails are
// brought in line with the text, the reply itself untouched.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, PROMPT_LANG, cell2msg, cellLike, promptOutputs, shownThumbnails, thumbnailsOf } from '../document/cells';
import type { DialogController } from './controller';

/** Typing settles before the cell is looked at again. */
const SETTLE_MS = 250;

export function syncPromptThumbnails(controller: DialogController): vscode.Disposable {
  const pending = new Map<vscode.NotebookCell, ReturnType<typeof setTimeout>>();
  const sync = (cell: vscode.NotebookCell) => {
    pending.delete(cell);
    if (cell.index < 0 || cell.document.languageId !== PROMPT_LANG) return;
    // No reference and no thumbnail: nothing to compare (and no attachment to decode on every pause in typing).
    if (!cell.document.getText().includes('attachment:') && !shownThumbnails(cell)) return;
    const m = cell2msg(cellLike(cell));
    // Names, cell id and sizes: a pasted copy of a prompt gets an id of its own (ids.ts), and its output
    // must name it, or the renderer would ask for the images of the cell it was copied from.
    if (JSON.stringify(thumbnailsOf(m)) === JSON.stringify(shownThumbnails(cell))) return;
    void controller.showOutputs(cell, promptOutputs(m));
  };
  const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
    if (e.notebook.notebookType !== NOTEBOOK_TYPE) return;
    for (const c of e.cellChanges) {
      if (!c.metadata && !c.document) continue;
      clearTimeout(pending.get(c.cell));
      pending.set(c.cell, setTimeout(() => sync(c.cell), SETTLE_MS));
    }
  });
  return new vscode.Disposable(() => {
    sub.dispose();
    pending.forEach(clearTimeout);
  });
}
