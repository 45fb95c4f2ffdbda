// One Dialog per notebook version: the answer, the panel (state and image pre-pass), find, export and
// validate all read the same one, so a change costs one conversion, not one per view. And a version costs
// what changed: the notebook's change events say which cells changed and where cells were inserted or
// removed, so the next Dialog converts those cells again and keeps every other message (after a reply,
// one cell; its unchanged attachments are not decoded again). A cell is converted again only when what it
// was converted from (its text version, metadata, language and output items, which VS Code replaces
// whenever they change) is no longer the same; when the events are not in yet for the notebook's version,
// every cell is checked that way. Read-only by contract: the messages are shared by the versions (and
// `savedDialog(d)` shares its unchanged ones): whoever needs to change them works on a clone.

import * as vscode from 'vscode';
import { Dialog, Message } from '../../core/model';
import { NOTEBOOK_TYPE, cell2msg, cellLike, notebook2dlg } from './cells';

const cache = new WeakMap<vscode.NotebookDocument, { version: number; metadata: unknown; d: Dialog }>();

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

/** One change event of a dialog: the version it made, the cells inserted and removed (in order) and the cells that changed. */
interface Change {
  version: number;
  splices: { start: number; removed: number; added: readonly vscode.NotebookCell[] }[];
  cells: readonly vscode.NotebookCell[];
}
/** A dialog's change events since its last Dialog was made, at most MAX_CHANGES. */
const changes = new WeakMap<vscode.NotebookDocument, Change[]>();
const MAX_CHANGES = 1000;

/** Follows every dialog's changes for dialogOf. Registered before any other listener that may read a dialog. */
export function followDialogs(): vscode.Disposable {
  return vscode.workspace.onDidChangeNotebookDocument((e) => {
    const nb = e.notebook;
    if (nb.notebookType !== NOTEBOOK_TYPE || !cache.has(nb)) return;
    const list = changes.get(nb) ?? [];
    // A dialog edited long without being read: the next read checks every cell instead (bounded memory).
    if (list.length >= MAX_CHANGES) return void (cache.delete(nb), changes.delete(nb));
    list.push({
      version: nb.version,
      splices: e.contentChanges.map((ch) => ({ start: ch.range.start, removed: ch.removedCells.length, added: ch.addedCells })),
      cells: e.cellChanges.map((ch) => ch.cell),
    });
    changes.set(nb, list);
  });
}

/**
 * The messages of `prev` (made at `since`) with the changes made after it applied, or undefined when they
 * do not reach the notebook's version (an event is not in yet) or do not add up to its cells.
 */
function patched(prev: Dialog, since: number, list: readonly Change[] | undefined, nb: vscode.NotebookDocument, cells: readonly vscode.NotebookCell[]): Message[] | undefined {
  if (list?.[list.length - 1]?.version !== nb.version) return undefined;
  const messages = [...prev.messages];
  const changed = new Set<vscode.NotebookCell>();
  for (const c of list) {
    if (c.version <= since) continue;
    for (const s of c.splices) {
      if (s.start + s.removed > messages.length) return undefined;
      messages.splice(s.start, s.removed, ...s.added.map(cellMessage));
    }
    for (const cell of c.cells) changed.add(cell);
  }
  if (messages.length !== cells.length) return undefined;
  for (const cell of changed) {
    const k = cell.index;
    if (k >= 0) messages[k] = cellMessage(cell);
  }
  return messages;
}

export function dialogOf(nb: vscode.NotebookDocument): Dialog {
  const hit = cache.get(nb);
  if (hit && hit.version === nb.version) return hit.d;
  const list = changes.get(nb);
  changes.delete(nb);
  const cells = nb.getCells();
  const messages = hit && patched(hit.d, hit.version, list, nb, cells);
  // Only runs changed (a cell's run summary is not in its message): the same Dialog, so what was made
  // from it (the saved form, a planned request) holds.
  if (hit && messages && hit.metadata === nb.metadata && messages.length === hit.d.messages.length && messages.every((m, k) => m === hit.d.messages[k])) {
    hit.version = nb.version;
    return hit.d;
  }
  const d = messages ? notebook2dlg({ cells: messages, metadata: nb.metadata }, (m) => m) : notebook2dlg({ cells, metadata: nb.metadata }, cellMessage);
  // A reused message belonged to the previous version's dialog.
  for (const m of d.messages) m.dlg = d;
  cache.set(nb, { version: nb.version, metadata: nb.metadata, d });
  return d;
}
