// A core DialogEdit (see src/core/surgeryEdit.ts) as notebook cell edits in ONE WorkspaceEdit, so
// every surgery command is one undo step. Both shapes index the list before the edit; each update
// becomes a replacement of its cell, and touching ranges are coalesced so VS Code sees disjoint edits.

import * as vscode from 'vscode';
import { Dialog, Message } from '../../core/model';
import { DialogEdit, patchMessage } from '../../core/surgery';
import { cell2msg, cellLike, cellState, msg2cell, notebookDialog } from './cells';
import { notebookCodeLanguage } from './edits';

interface CellSplice {
  start: number;
  end: number;
  cells: Message[];
}

/** The dialog of `nb` together with the document version it was read at. */
export interface DialogSnapshot {
  nb: vscode.NotebookDocument;
  d: Dialog;
  version: number;
}

export function snapshotDialog(nb: vscode.NotebookDocument): DialogSnapshot {
  return { nb, d: notebookDialog(nb), version: nb.version };
}

/** The message an update produces: the cell's message with the patch applied (`undefined` extras removed). */
function updatedMessage(cell: vscode.NotebookCell, set: Parameters<typeof patchMessage>[1]): Message {
  const m = cell2msg(cellLike(cell));
  patchMessage(m, set);
  for (const k of Object.keys(m.extra)) if (m.extra[k] === undefined) delete m.extra[k];
  return m;
}

/** The cell splices of a plan, sorted and coalesced. */
function splices(nb: vscode.NotebookDocument, plan: DialogEdit<unknown>): CellSplice[] {
  const raw: CellSplice[] = plan.edits.map((e) =>
    e.kind === 'replace'
      ? { start: e.start, end: e.start + e.deleteCount, cells: e.insert }
      : { start: e.index, end: e.index + 1, cells: [updatedMessage(nb.cellAt(e.index), e.set)] },
  );
  // An insertion before index p sorts before a replacement starting at p.
  raw.sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start));
  const out: CellSplice[] = [];
  for (const s of raw) {
    const prev = out[out.length - 1];
    if (prev && prev.end >= s.start) {
      prev.end = Math.max(prev.end, s.end);
      prev.cells = prev.cells.concat(s.cells);
    } else out.push({ ...s, cells: s.cells.slice() });
  }
  return out;
}

/** The WorkspaceEdit performing `plan` on `nb`. */
export function dialogEdit2workspace(nb: vscode.NotebookDocument, plan: DialogEdit<unknown>): vscode.WorkspaceEdit {
  const lang = notebookCodeLanguage(nb);
  const edit = new vscode.WorkspaceEdit();
  edit.set(
    nb.uri,
    splices(nb, plan).map((s) => vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(s.start, s.end), s.cells.map((m) => msg2cell(m, lang)))),
  );
  return edit;
}

/**
 * Applies a plan made against `snap` as one edit; refuses (returns a reason) when the notebook changed
 * since the snapshot, so a stale plan never lands half-way.
 */
export async function applyDialogEdit(snap: DialogSnapshot, plan: DialogEdit<unknown>): Promise<string | null> {
  if (snap.nb.version !== snap.version) return 'the dialog changed while the command ran; try again';
  if (!plan.edits.length) return null;
  const ok = await vscode.workspace.applyEdit(dialogEdit2workspace(snap.nb, plan));
  return ok ? null : 'VS Code refused the edit';
}

/** Where the messages of a plan's result sit after it was applied (indices in the new list). */
export function resultIndices(snap: DialogSnapshot, msgs: readonly Message[]): number[] {
  const ids = new Set(msgs.map((m) => m.id));
  const out: number[] = [];
  snap.nb.getCells().forEach((c, k) => {
    const id = cellState(c).id;
    if (id && ids.has(id)) out.push(k);
  });
  return out;
}
