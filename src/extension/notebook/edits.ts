// The one path from the core to the notebook: a changed Message, or a core DialogEdit plan (see
// core/surgery/edit.ts), becomes ONE WorkspaceEdit, so every command is one undo step.
// - A changed message touches as little as possible: metadata only, text + metadata, or the whole cell
//   when its kind, language or outputs change.
// - A plan's edits index the list before the edit; each update becomes a replacement of its cell, and
//   touching ranges are coalesced so VS Code sees disjoint edits.

import * as vscode from 'vscode';
import { encodeBase64, isJsonObject, jsonEqual, Json } from '../../core/base';
import { Dialog, Message, withTimeRun } from '../../core/model';
import { DialogEdit, patchMessage, planSplices } from '../../core/surgery';
import { cell2msg, cellLike, cellState, cellType, codeLanguage, msg2cell, notebookDialog } from './cells';
import { replaceCells } from './messageSplices';
import { config } from '../config';

/** The language of new code cells in `nb`: its kernel's (`language_info`, `kernelspec`), else the setting's. */
export function notebookCodeLanguage(nb: vscode.NotebookDocument): string {
  const s = nb.metadata?.dialog as { meta?: unknown } | undefined;
  return codeLanguage({ meta: isJsonObject(s?.meta) ? s.meta : {} }, config.defaultCodeLanguage);
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
  // An edit to a closed notebook would open it again, without an editor, for auto save to write.
  if (!writable(nb, changes.map(([c]) => c))) return false;
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

/** Whether `cells` of `nb` may be edited: the dialog is still open and each cell still in it. */
export function writable(nb: vscode.NotebookDocument, cells: readonly vscode.NotebookCell[] = []): boolean {
  return !nb.isClosed && cells.every((c) => c.notebook === nb && c.index >= 0);
}

/**
 * Stamps the cell's `time_run` (when it ran) in its metadata, touching nothing else. For code cells, whose
 * outputs arrive through the execution rather than an edit, so the stamp is an edit of its own.
 */
export async function stampTimeRun(cell: vscode.NotebookCell, at: Date): Promise<boolean> {
  if (!writable(cell.notebook, [cell])) return false;
  const s = cellState(cell);
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, dialog: { ...s, meta: withTimeRun(s.meta ?? {}, at) } })]);
  return vscode.workspace.applyEdit(edit);
}

/** Outputs as comparable JSON: mime, bytes and metadata of every item. */
function outputsJson(outs: readonly vscode.NotebookCellOutput[]): Json {
  return outs.map((o) => ({
    meta: JSON.parse(JSON.stringify(o.metadata ?? {})) as Json,
    items: o.items.map((i) => [i.mime, encodeBase64(i.data)]),
  }));
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

/** The WorkspaceEdit performing `plan` on `nb`. */
export function dialogEdit2workspace(nb: vscode.NotebookDocument, plan: DialogEdit<unknown>): vscode.WorkspaceEdit {
  const lang = notebookCodeLanguage(nb);
  const edit = new vscode.WorkspaceEdit();
  edit.set(
    nb.uri,
    planSplices(plan, (e) => updatedMessage(nb.cellAt(e.index), e.set)).flatMap((s) =>
      replaceCells(s.start, s.end, s.msgs.map((m) => msg2cell(m, lang))),
    ),
  );
  return edit;
}

/**
 * Applies a plan made against `snap` as one edit; refuses (returns a reason) when the notebook changed
 * since the snapshot, so a stale plan never lands half-way.
 */
export async function applyDialogEdit(snap: DialogSnapshot, plan: DialogEdit<unknown>): Promise<string | null> {
  if (snap.nb.isClosed) return 'the dialog was closed while the command ran';
  if (snap.nb.version !== snap.version) return 'the dialog changed while the command ran; try again';
  if (!plan.edits.length) return null;
  const ok = await vscode.workspace.applyEdit(dialogEdit2workspace(snap.nb, plan));
  if (ok) applied.fire(snap.nb);
  return ok ? null : 'VS Code refused the edit';
}

const applied = new vscode.EventEmitter<vscode.NotebookDocument>();
/** A surgery edit landed: views show it now rather than after their debounce of typing. */
export const onDidApplyDialogEdit = applied.event;

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
