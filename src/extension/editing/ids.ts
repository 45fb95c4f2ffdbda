// New cells get an 8-hex id through a metadata edit as soon as they appear (never inside the serializer,
// so a save is a pure function of the document). That edit is an undo step of its own, so this
// extension's own commands create cells with their id already set; this listener covers cells VS Code
// inserts itself (the "+ Code" buttons, paste), after giving a "+ Code" cell the dialog's code language
// (insertedCode.ts). A pasted copy of a cell carries the original's id and
// storage origin: it gets a fresh id and loses the origin, since it is not the cell that was read.

import * as vscode from 'vscode';
import { freshId } from '../../core/model';
import { CellState, NOTEBOOK_TYPE, cellLike, cellState, cellType } from '../document/cells';
import { fixInsertedCode } from './insertedCode';
import { BOOKKEEPING } from '../document/origins';
import { queueEdit } from './edits';

/** An id used by no cell of `nb` and not in `taken`. */
export function freshCellId(nb: vscode.NotebookDocument, taken: ReadonlySet<string> = new Set()): string {
  const used = new Set(taken);
  for (const c of nb.getCells()) {
    const id = cellState(c).id;
    if (id) used.add(id);
  }
  return freshId((id) => used.has(id));
}

/** The metadata edits that give `added` cells unique ids; [] when none is needed. */
export function idEdits(nb: vscode.NotebookDocument, added: readonly vscode.NotebookCell[]): vscode.NotebookEdit[] {
  const addedSet = new Set(added);
  const seen = new Set<string>();
  for (const c of nb.getCells()) {
    const id = cellState(c).id;
    if (id && !addedSet.has(c)) seen.add(id);
  }
  const edits: vscode.NotebookEdit[] = [];
  for (const c of added) {
    const s = cellState(c);
    if (s.id && !seen.has(s.id)) {
      seen.add(s.id);
      continue;
    }
    const id = freshCellId(nb, seen);
    seen.add(id);
    const next: CellState = { ...s, id, msgType: cellType(cellLike(c)) };
    // A copy is a new cell: not the read cell its metadata came from.
    const md: { [key: string]: unknown } = { ...c.metadata, dialog: next };
    delete md[BOOKKEEPING];
    edits.push(vscode.NotebookEdit.updateCellMetadata(c.index, md));
  }
  return edits;
}

export function registerCellIds(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeNotebookDocument(async (e) => {
      if (e.notebook.notebookType !== NOTEBOOK_TYPE) return;
      const added = e.contentChanges.flatMap((ch) => ch.addedCells);
      if (!added.length) return;
      // First the language, so the id edit records the cell as code.
      await fixInsertedCode(e.notebook, added);
      // In the dialog's turn of edits: the cells' indices are those VS Code applies the edit to.
      await queueEdit(e.notebook, () => {
        const edits = idEdits(e.notebook, added.filter((c) => c.index >= 0));
        if (!edits.length) return;
        const we = new vscode.WorkspaceEdit();
        we.set(e.notebook.uri, edits);
        return vscode.workspace.applyEdit(we);
      });
    }),
  );
}
