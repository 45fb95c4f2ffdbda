// Turning a changed Message back into one undoable WorkspaceEdit on its cell, touching as little as
// possible: metadata only, text + metadata, or the whole cell when its kind, language or outputs change.

import * as vscode from 'vscode';
import { jsonEqual, Json } from '../../core/base';
import { Message } from '../../core/model';
import { NOTEBOOK_TYPE, cellLike, cellType, msg2cell } from './cells';

/**
 * The dialog cell a command was invoked on: a NotebookCell (menus), a cell document uri (the status
 * bar), else the active cell of the active dialog editor. Cells of other notebooks (Jupyter) are never
 * returned, so no command of this extension edits them.
 */
export function resolveCell(arg?: unknown): vscode.NotebookCell | undefined {
  if (arg && typeof arg === 'object' && 'notebook' in arg && 'index' in arg) {
    const cell = arg as vscode.NotebookCell;
    return cell.notebook.notebookType === NOTEBOOK_TYPE ? cell : undefined;
  }
  const uri = typeof arg === 'string' ? vscode.Uri.parse(arg) : arg instanceof vscode.Uri ? arg : undefined;
  if (uri) {
    const key = uri.toString();
    for (const nb of vscode.workspace.notebookDocuments) {
      if (nb.notebookType !== NOTEBOOK_TYPE) continue;
      const hit = nb.getCells().find((c) => c.document.uri.toString() === key);
      if (hit) return hit;
    }
    return undefined;
  }
  const ed = vscode.window.activeNotebookEditor;
  if (!ed || ed.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
  const sel = ed.selection;
  return sel && !sel.isEmpty ? ed.notebook.cellAt(sel.start) : undefined;
}

/** The code-cell language already used in `nb`, so new code cells match it. */
export function notebookCodeLanguage(nb: vscode.NotebookDocument): string {
  const code = nb.getCells().find((c) => cellType(cellLike(c)) === 'code');
  return code ? code.document.languageId : vscode.workspace.getConfiguration('dialogNotebook').get<string>('defaultCodeLanguage') || 'python';
}

/** Writes `m` (a changed copy of the cell's message) back into `cell` as one edit. */
export async function applyMessage(cell: vscode.NotebookCell, m: Message): Promise<boolean> {
  return applyMessages(cell.notebook, [[cell, m]]);
}

/**
 * Writes each changed message back into its cell of `nb`, all in ONE WorkspaceEdit (one undo step).
 * Per cell: metadata only, text + metadata, or the whole cell when its kind, language or outputs change.
 */
export async function applyMessages(nb: vscode.NotebookDocument, changes: readonly (readonly [vscode.NotebookCell, Message])[]): Promise<boolean> {
  const lang = notebookCodeLanguage(nb);
  const edit = new vscode.WorkspaceEdit();
  const cellEdits: vscode.NotebookEdit[] = [];
  for (const [cell, m] of changes) {
    const data = msg2cell(m, lang);
    const old = cellLike(cell);
    const sameType = cellType(old) === m.msgType;
    if (sameType && jsonEqual(outputsJson(data.outputs ?? []), outputsJson(cell.outputs))) {
      if (data.value !== old.value) {
        const doc = cell.document;
        edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), data.value);
      }
      cellEdits.push(vscode.NotebookEdit.updateCellMetadata(cell.index, data.metadata ?? {}));
    } else {
      if (sameType) data.languageId = old.languageId;
      // One cell for one: the indices of the other edits stay valid.
      cellEdits.push(vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(cell.index, cell.index + 1), [data]));
    }
  }
  edit.set(nb.uri, cellEdits);
  return vscode.workspace.applyEdit(edit);
}

/** Outputs as comparable JSON: mime, bytes and metadata of every item. */
function outputsJson(outs: readonly vscode.NotebookCellOutput[]): Json {
  return outs.map((o) => ({
    meta: JSON.parse(JSON.stringify(o.metadata ?? {})) as Json,
    items: o.items.map((i) => [i.mime, Buffer.from(i.data).toString('base64')]),
  }));
}
