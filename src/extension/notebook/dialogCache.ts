// One Dialog per notebook version: the answer, the panel (state and image pre-pass), find, export and
// validate all read the same one, so a change costs one conversion, not one per view. And a version costs
// what changed: each cell's message is kept with what it was converted from (its text version, metadata,
// language and output items, which VS Code replaces whenever they change) and reused while they are the
// same, so the notebook's change events, cell by cell, decide what is converted again (after a reply, one
// cell; its unchanged attachments are not decoded again). Read-only by contract: the messages are shared by
// the versions (and `savedDialog(d)` shares its unchanged ones): whoever needs to change them works on a clone.

import * as vscode from 'vscode';
import { Dialog, Message } from '../../core/model';
import { cell2msg, cellLike, notebook2dlg } from './cells';

const cache = new WeakMap<vscode.NotebookDocument, { version: number; d: Dialog }>();

/** What a cell's message was converted from, each by identity (the outputs flattened with their items). */
interface Converted {
  version: number;
  languageId: string;
  metadata: unknown;
  outputs: unknown[];
  msg: Message;
}
const converted = new WeakMap<vscode.NotebookCell, Converted>();

/** Calls `each` with the cell's outputs, each with its metadata, item count, items and their data, in order (false stops it). */
function visitOutputs(outputs: readonly vscode.NotebookCellOutput[], each: (v: unknown) => boolean): boolean {
  for (const o of outputs) {
    if (!(each(o) && each(o.metadata) && each(o.items.length))) return false;
    for (const it of o.items) if (!(each(it) && each(it.data))) return false;
  }
  return true;
}

function same(c: Converted, cell: vscode.NotebookCell): boolean {
  if (c.version !== cell.document.version || c.languageId !== cell.document.languageId || c.metadata !== cell.metadata) return false;
  let k = 0;
  // Compared in place: no list is made for an unchanged cell.
  return visitOutputs(cell.outputs, (v) => k < c.outputs.length && c.outputs[k++] === v) && k === c.outputs.length;
}

/** The cell's message: the one converted before while the cell is unchanged. Read-only, as the dialog's. */
export function cellMessage(cell: vscode.NotebookCell): Message {
  const hit = converted.get(cell);
  if (hit && same(hit, cell)) return hit.msg;
  const outputs: unknown[] = [];
  visitOutputs(cell.outputs, (v) => outputs.push(v) > 0);
  const msg = cell2msg(cellLike(cell));
  converted.set(cell, { version: cell.document.version, languageId: cell.document.languageId, metadata: cell.metadata, outputs, msg });
  return msg;
}

export function dialogOf(nb: vscode.NotebookDocument): Dialog {
  const hit = cache.get(nb);
  if (hit && hit.version === nb.version) return hit.d;
  const d = notebook2dlg({ cells: nb.getCells(), metadata: nb.metadata }, cellMessage);
  // A reused message belonged to the previous version's dialog.
  for (const m of d.messages) m.dlg = d;
  cache.set(nb, { version: nb.version, d });
  return d;
}
