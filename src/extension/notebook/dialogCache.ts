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

function outputParts(cell: vscode.NotebookCell): unknown[] {
  const parts: unknown[] = [];
  for (const o of cell.outputs) {
    parts.push(o, o.metadata, o.items.length);
    for (const it of o.items) parts.push(it, it.data);
  }
  return parts;
}

function same(c: Converted, cell: vscode.NotebookCell, outputs: unknown[]): boolean {
  if (c.version !== cell.document.version || c.languageId !== cell.document.languageId || c.metadata !== cell.metadata || c.outputs.length !== outputs.length) return false;
  for (let k = 0; k < outputs.length; k++) if (c.outputs[k] !== outputs[k]) return false;
  return true;
}

/** The cell's message: the one converted before while the cell is unchanged. Read-only, as the dialog's. */
export function cellMessage(cell: vscode.NotebookCell): Message {
  const outputs = outputParts(cell);
  const hit = converted.get(cell);
  if (hit && same(hit, cell, outputs)) return hit.msg;
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
