// The one path from the core to the notebook: a changed Message, or a core DialogEdit plan (see
// core/surgery/edit.ts), becomes ONE WorkspaceEdit, so every command is one undo step.
// - A changed message touches as little as possible: metadata only, text + metadata, or the whole cell
//   when its kind, language or outputs change.
// - A plan's edits index the list before the edit; each update becomes a replacement of its cell, and
//   touching ranges are coalesced so VS Code sees disjoint edits.
// - A dialog's edits are made one at a time (queueEdit): VS Code applies a notebook edit's indices to the
//   notebook as it is when the edit arrives, so indices computed while an earlier edit is in flight would
//   land on the wrong cells. A caller that names messages by id plans when its turn comes (applyPlanNow).
// - Another writer's edit on its way shifts ours all the same (VS Code checks no notebook version): a
//   changed message's text goes into its cell's document, and shiftRepair.ts puts right metadata that
//   landed on a neighbour and cells a replacement took one off.

import * as vscode from 'vscode';
import { encodeBase64, isJsonObject, jsonEqual, Json } from '../../core/base';
import { Dialog, Message, withTimeRun } from '../../core/model';
import { DialogEdit, ReplaceEdit, UpdateEdit, patchMessage, planSplices } from '../../core/surgery';
import { cell2msg, cellLike, cellState, cellType, codeLanguage, msg2cell, notebookDialog } from '../document/cells';
import { messageGaps, replaceCells } from './messageSplices';
import { EditIntent, hearing, repairShifted } from './shiftRepair';
import { config } from '../config';

/** The language of new code cells in `nb`: its kernel's (`language_info`, `kernelspec`), else the setting's. */
export function notebookCodeLanguage(nb: vscode.NotebookDocument): string {
  const s = nb.metadata?.dialog as { meta?: unknown } | undefined;
  return codeLanguage({ meta: isJsonObject(s?.meta) ? s.meta : {} }, config.defaultCodeLanguage);
}

const queues = new WeakMap<vscode.NotebookDocument, Promise<unknown>>();

/**
 * Runs `fn` when every edit of `nb` queued before it has been applied (or failed): the notebook it sees
 * holds them all, so the indices it computes are those VS Code applies its edit to.
 */
export function queueEdit<T>(nb: vscode.NotebookDocument, fn: () => T | Thenable<T>): Promise<T> {
  const run = (queues.get(nb) ?? Promise.resolve()).then(fn, fn);
  queues.set(nb, run.catch(() => undefined));
  return run;
}

/** Writes `m` (a changed copy of the cell's message) back into `cell` as one edit. */
export async function applyMessage(cell: vscode.NotebookCell, m: Message): Promise<boolean> {
  return applyMessages(cell.notebook, [[cell, m]]);
}

/**
 * Writes each changed message back into its cell of `nb`, all in ONE WorkspaceEdit (one undo step).
 * Per cell: metadata only, text + metadata, or the whole cell when its kind, language or outputs change.
 */
export function applyMessages(nb: vscode.NotebookDocument, changes: readonly (readonly [vscode.NotebookCell, Message])[]): Promise<boolean> {
  return queueEdit(nb, () => applyMessagesNow(nb, changes));
}

async function applyMessagesNow(nb: vscode.NotebookDocument, changes: readonly (readonly [vscode.NotebookCell, Message])[]): Promise<boolean> {
  // An edit to a closed notebook would open it again, without an editor, for auto save to write.
  if (!writable(nb, changes.map(([c]) => c))) return false;
  return applyRepaired(nb, messagesEdit(nb, changes));
}

/**
 * The edit writing each changed message into its cell. Per cell: its text (an edit of the cell's document,
 * which finds the cell wherever it stands by the time VS Code applies it) and its metadata, or the whole
 * cell when its kind, language or outputs change.
 */
function messagesEdit(nb: vscode.NotebookDocument, changes: readonly (readonly [vscode.NotebookCell, Message])[], more: vscode.NotebookEdit[] = []): MessagesEdit {
  const lang = notebookCodeLanguage(nb);
  const edit = new vscode.WorkspaceEdit();
  const cellEdits: vscode.NotebookEdit[] = [...more];
  const targets: [vscode.NotebookCell, { [key: string]: unknown }][] = [];
  for (const [cell, m] of changes) {
    const data = msg2cell(m, lang);
    const old = cellLike(cell);
    const sameType = cellType(old) === m.msgType;
    if (sameType && jsonEqual(outputsJson(data.outputs ?? []), outputsJson(cell.outputs))) {
      if (data.value !== old.value) {
        const doc = cell.document;
        edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), data.value);
      }
      // Always, though unchanged: with it the text edit is part of the notebook's one undo step.
      cellEdits.push(vscode.NotebookEdit.updateCellMetadata(cell.index, data.metadata ?? {}));
      targets.push([cell, data.metadata ?? {}]);
    } else {
      if (sameType) data.languageId = old.languageId;
      // One cell for one: the indices of the other edits stay valid.
      cellEdits.push(vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(cell.index, cell.index + 1), [data]));
    }
  }
  if (cellEdits.length) edit.set(nb.uri, cellEdits);
  // What the cell edits remove and insert, read off them against the notebook as it is now.
  const splices = cellEdits.filter((e) => e.newCellMetadata === undefined);
  const removes = new Set(splices.flatMap((e) => nb.getCells(e.range)));
  const inserts = new Set(splices.flatMap((e) => e.newCells.flatMap((d) => cellState(d).id ?? [])));
  return { edit, empty: !cellEdits.length && !edit.size, intent: { removes, inserts, targets: new Map(targets) } };
}

/** A WorkspaceEdit writing messages into cells, and what it means (to put it right if another edit shifts it). */
export interface MessagesEdit {
  edit: vscode.WorkspaceEdit;
  empty: boolean;
  intent: EditIntent;
}

/** Each cell of `nb` with its metadata: what `repairShifted` compares with after an edit. */
const cellsNow = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => [c, c.metadata] as const);

/**
 * Applies `made`, planned against `nb` as it is now (no await between), and puts right what another
 * writer's edit on its way shifted (repairShifted). False when VS Code refused the edit.
 */
export async function applyRepaired(nb: vscode.NotebookDocument, made: MessagesEdit): Promise<boolean> {
  const before = cellsNow(nb);
  const [ok, heard] = await hearing(nb, () => vscode.workspace.applyEdit(made.edit));
  if (ok) await repairShifted(nb, before, made.intent, heard);
  return ok;
}

/**
 * The edit turning the cells of `nb`, standing for `before`, into `after` (messages mostly the same objects):
 * a message that took the place of one with its id is written into that cell (messagesEdit); the rest of
 * each run between kept cells is replaced. `changed`: messages of `before` changed in place.
 */
export function messageListEdit(nb: vscode.NotebookDocument, before: readonly Message[], after: readonly Message[], changed: ReadonlySet<Message>, more: vscode.NotebookEdit[] = []): MessagesEdit {
  const lang = notebookCodeLanguage(nb);
  const pairs: [vscode.NotebookCell, Message][] = [];
  const splices = messageGaps(before, after, changed).flatMap((g) => {
    if (g.b1 - g.b0 === 1 && g.a1 - g.a0 === 1 && before[g.b0].id === after[g.a0].id) return void pairs.push([nb.cellAt(g.b0), after[g.a0]]), [];
    return replaceCells(g.b0, g.b1, after.slice(g.a0, g.a1).map((m) => msg2cell(m, lang)));
  });
  return messagesEdit(nb, pairs, [...splices, ...more]);
}

/** Whether `cells` of `nb` may be edited: the dialog is still open and each cell still in it. */
export function writable(nb: vscode.NotebookDocument, cells: readonly vscode.NotebookCell[] = []): boolean {
  return !nb.isClosed && cells.every((c) => c.notebook === nb && c.index >= 0);
}

/**
 * Stamps the cell's `time_run` (when it ran) in its metadata, touching nothing else. For code cells, whose
 * outputs arrive through the execution rather than an edit, so the stamp is an edit of its own.
 */
export function stampTimeRun(cell: vscode.NotebookCell, at: Date): Promise<boolean> {
  return queueEdit(cell.notebook, () => {
    if (!writable(cell.notebook, [cell])) return false;
    const s = cellState(cell);
    const edit = new vscode.WorkspaceEdit();
    edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, dialog: { ...s, meta: withTimeRun(s.meta ?? {}, at) } })]);
    return vscode.workspace.applyEdit(edit);
  });
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

/**
 * The WorkspaceEdit performing `plan` on `nb`. An update apart from the plan's replacements is written into
 * its cell (messagesEdit: its text finds the cell wherever it stands); the rest replace ranges of cells.
 */
export function dialogEdit2workspace(nb: vscode.NotebookDocument, plan: DialogEdit<unknown>): MessagesEdit {
  const lang = notebookCodeLanguage(nb);
  const replaces = plan.edits.filter((e): e is ReplaceEdit => e.kind === 'replace');
  // Touching a replacement (planSplices would merge them): replaced with it.
  const apart = (e: UpdateEdit) => replaces.every((r) => r.start > e.index + 1 || r.start + r.deleteCount < e.index);
  const updates = plan.edits.filter((e): e is UpdateEdit => e.kind === 'update' && apart(e));
  const rest = { ...plan, edits: plan.edits.filter((e) => e.kind === 'replace' || !updates.includes(e)) };
  const splices = planSplices(rest, (e) => updatedMessage(nb.cellAt(e.index), e.set)).flatMap((s) => replaceCells(s.start, s.end, s.msgs.map((m) => msg2cell(m, lang))));
  return messagesEdit(
    nb,
    updates.map((e) => [nb.cellAt(e.index), updatedMessage(nb.cellAt(e.index), e.set)] as const),
    splices,
  );
}

/**
 * Applies a plan made against `snap` as one edit; refuses (returns a reason) when the notebook changed
 * since the snapshot, so a stale plan never lands half-way.
 */
export function applyDialogEdit(snap: DialogSnapshot, plan: DialogEdit<unknown>): Promise<string | null> {
  return queueEdit(snap.nb, () => {
    if (snap.nb.isClosed) return 'the dialog was closed while the command ran';
    if (snap.nb.version !== snap.version) return 'the dialog changed while the command ran; try again';
    return applyPlan(snap.nb, plan);
  });
}

async function applyPlan(nb: vscode.NotebookDocument, plan: DialogEdit<unknown>): Promise<string | null> {
  if (!plan.edits.length) return null;
  if (!(await applyRepaired(nb, dialogEdit2workspace(nb, plan)))) return 'VS Code refused the edit';
  applied.fire(nb);
  return null;
}

/**
 * Plans with `make` on the dialog as it is when the edit's turn comes (so a message named by id is found
 * where it is then, and one gone by then fails the plan), and applies the plan's edit as one edit.
 * `why`: the reason the edit did not land (the plan's own failure is the caller's to read).
 */
export function applyPlanNow<P extends { edit?: DialogEdit<unknown> }>(
  nb: vscode.NotebookDocument,
  make: (snap: DialogSnapshot) => P,
  snapshot: (nb: vscode.NotebookDocument) => DialogSnapshot = snapshotDialog,
): Promise<{ planned: P; why: string | null }> {
  return queueEdit(nb, async () => {
    if (nb.isClosed) return { planned: make(snapshot(nb)), why: 'the dialog was closed' };
    const planned = make(snapshot(nb));
    return { planned, why: planned.edit ? await applyPlan(nb, planned.edit) : null };
  });
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
