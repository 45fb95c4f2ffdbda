// The shape every surgery operation produces, so a host can turn one operation into one atomic edit
// (the VS Code adapter: one WorkspaceEdit of notebook cell edits).
//
//   DialogEdit = { edits: MsgEdit[] }, where MsgEdit is one of
//   * { kind: 'replace', start, deleteCount, insert: Message[] }
//       remove `deleteCount` messages at `start` and put `insert` there;
//   * { kind: 'update', index, id, set: MessagePatch }
//       change fields of the message at `index` in place (its id and position stay).
//
// Like TextEdits (and like VS Code's notebook edits inside one WorkspaceEdit), every index refers to
// the message list BEFORE the operation; ranges never overlap, are sorted by start, and an update
// never targets a message inside a replaced range. Moved messages appear as a deletion plus an
// insertion of the same Message object. Operations plan against a Dialog without touching it
// (`plan*` functions are pure); `applyEdit` then performs the plan, and the plain-named operations
// (`moveMsgs`, `splitMsg` …) do both. Arguments are checked while planning, so a failing operation
// throws a DialogError and changes nothing.

import { Json, JsonObject } from '../base/json';
import { Attachment, Dialog, DialogError, Message, Output, freshId } from '../model/dialog';

/** The fields an in-place update may set. `msgType` is applied before `output`. */
export interface MessagePatch {
  content?: string;
  msgType?: string;
  output?: Output[] | string;
  meta?: JsonObject;
  skipped?: Json;
  pinned?: Json;
  attachments?: Attachment[];
  /** Host attributes to set (merged into `extra`). */
  extra?: Record<string, unknown>;
}

export interface ReplaceEdit {
  kind: 'replace';
  start: number;
  deleteCount: number;
  insert: Message[];
}

export interface UpdateEdit {
  kind: 'update';
  index: number;
  id: string;
  set: MessagePatch;
}

export type MsgEdit = ReplaceEdit | UpdateEdit;

/** A planned change plus what the operation returns (the moved, new or removed messages …). */
export interface DialogEdit<T = Message[]> {
  edits: MsgEdit[];
  result: T;
}

/** Performs a planned edit on `d` and returns the plan's result. */
export function applyEdit<T>(d: Dialog, plan: DialogEdit<T>): T {
  const msgs = d.messages;
  // Updates first: their indices are pre-edit positions, and replaces at or before them would shift them.
  for (const e of plan.edits) {
    if (e.kind !== 'update') continue;
    const m = msgs[e.index];
    if (!m || m.id !== e.id) throw new DialogError(`stale edit: no message ${e.id} at ${e.index}`);
    patchMessage(m, e.set);
  }
  const replaces = plan.edits.filter((e): e is ReplaceEdit => e.kind === 'replace');
  if (!replaces.length) return plan.result;
  // One pass over the list (a splice per edit is quadratic when many scattered messages move), written
  // back into the same array, which hosts may hold.
  const out: Message[] = [];
  const inserted = new Set<Message>();
  const removed: Message[] = [];
  let at = 0;
  for (const e of replaces) {
    for (let k = at; k < e.start; k++) out.push(msgs[k]);
    for (let k = e.start; k < e.start + e.deleteCount; k++) removed.push(msgs[k]);
    for (const m of e.insert) {
      out.push(m);
      inserted.add(m);
    }
    at = e.start + e.deleteCount;
  }
  for (let k = at; k < msgs.length; k++) out.push(msgs[k]);
  msgs.length = out.length;
  for (let k = 0; k < out.length; k++) msgs[k] = out[k];
  for (const m of removed) if (m.dlg === d && !inserted.has(m)) m.dlg = null;
  for (const m of inserted) m.dlg = d;
  return plan.result;
}

/** Sets the patch's fields on `m` (type before output, because a type change resets the output). */
export function patchMessage(m: Message, p: MessagePatch): void {
  if (p.msgType !== undefined) m.msgType = p.msgType;
  if (p.content !== undefined) m.content = p.content;
  if (p.output !== undefined) m.output = p.output;
  if (p.meta !== undefined) m.meta = p.meta;
  if (p.skipped !== undefined) m.skipped = p.skipped;
  if (p.pinned !== undefined) m.pinned = p.pinned;
  if (p.attachments !== undefined) m.attachments = p.attachments;
  if (p.extra !== undefined) Object.assign(m.extra, p.extra);
}

/**
 * Builds sorted, non-overlapping replace edits for a list of `n` messages from the original indices
 * to delete and the messages to insert before original index p (p = n appends).
 */
export function spliceEdits(n: number, deletes: Iterable<number>, inserts: Map<number, Message[]>): ReplaceEdit[] {
  const del = new Set(deletes);
  const out: ReplaceEdit[] = [];
  let cur: ReplaceEdit | null = null;
  for (let p = 0; p <= n; p++) {
    const ins = inserts.get(p);
    if (ins?.length) {
      cur ??= { kind: 'replace', start: p, deleteCount: 0, insert: [] };
      for (const m of ins) cur.insert.push(m);
    }
    if (p < n && del.has(p)) {
      cur ??= { kind: 'replace', start: p, deleteCount: 0, insert: [] };
      cur.deleteCount++;
    } else if (cur) {
      out.push(cur);
      cur = null;
    }
  }
  return out;
}

/** A run `[start, end)` of the message list before an edit, replaced by `msgs`. */
export interface MsgSplice {
  start: number;
  end: number;
  msgs: Message[];
}

/**
 * A plan as splices of the list before it, sorted and disjoint, for hosts that replace ranges (VS Code's
 * notebook edits): an update replaces its message by `updated(edit)`, and touching ranges are merged.
 */
export function planSplices(plan: DialogEdit<unknown>, updated: (e: UpdateEdit) => Message): MsgSplice[] {
  const raw: MsgSplice[] = plan.edits.map((e) =>
    e.kind === 'replace' ? { start: e.start, end: e.start + e.deleteCount, msgs: e.insert } : { start: e.index, end: e.index + 1, msgs: [updated(e)] },
  );
  // An insertion before index p sorts before a replacement starting at p.
  raw.sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start));
  const out: MsgSplice[] = [];
  for (const s of raw) {
    const prev = out[out.length - 1];
    if (prev && prev.end >= s.start) {
      prev.end = Math.max(prev.end, s.end);
      prev.msgs = prev.msgs.concat(s.msgs);
    } else out.push({ ...s, msgs: s.msgs.slice() });
  }
  return out;
}

/** A message reference: an id (exact or unique prefix) or a Message of the dialog. */
export type MsgRef = string | Message;

/** Resolves one reference against `d` (exact id, else unique prefix); throws DialogError. */
export function resolveMsg(d: Dialog, ref: MsgRef): Message {
  if (typeof ref === 'string') return d.msg(ref);
  const k = indexIn(d, ref);
  if (k < 0) throw new DialogError(`no message id: '${ref.id}'`);
  return d.messages[k];
}

/** Resolves every reference (all checked before anything is used); duplicates are an error. */
export function resolveMsgs(d: Dialog, refs: MsgRef[] | string, what = 'message'): Message[] {
  const list = typeof refs === 'string' ? splitIds(refs) : refs;
  if (!list.length) throw new DialogError(`no ${what} ids given`);
  // Exact ids and message objects through maps built once; prefixes fall back to `d.msg`.
  const byId = new Map<string, Message>();
  const pos = new Set<Message>(d.messages);
  for (const m of d.messages) if (!byId.has(m.id)) byId.set(m.id, m);
  const msgs = list.map((r) => (typeof r === 'string' ? byId.get(r) : pos.has(r) ? r : undefined) ?? resolveMsg(d, r));
  const seen = new Set<Message>();
  for (const m of msgs) {
    if (seen.has(m)) throw new DialogError(`message ${m.id} given twice`);
    seen.add(m);
  }
  return msgs;
}

/** `"a, b,c"` → `["a", "b", "c"]`. */
export function splitIds(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x);
}

/** Original index of each message (by object identity, falling back to id). */
export function indexIn(d: Dialog, m: Message): number {
  const k = d.messages.indexOf(m);
  return k >= 0 ? k : d.indexOf(m.id);
}

/** `indexIn` for many messages, with one pass over the dialog. */
export function indicesIn(d: Dialog, msgs: readonly Message[]): number[] {
  const pos = new Map<Message, number>();
  d.messages.forEach((m, k) => pos.set(m, k));
  return msgs.map((m) => pos.get(m) ?? indexIn(d, m));
}

/** A fresh 8-hex id that is neither in `d` nor in `taken`. */
export function freshIdFor(d: Dialog, taken: Set<string>): string {
  const id = freshId((k) => taken.has(k) || d.indexOf(k) >= 0);
  taken.add(id);
  return id;
}
