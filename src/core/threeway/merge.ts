// Three-way merge of dialogs by message id (issue 46): what `ours` and `theirs` each changed since `base`,
// applied together. Messages, not lines: adds, deletes, moves and edits of different messages never
// conflict; one message changed differently on both sides keeps both versions (conflict.ts). The result
// holds the very Message objects of the sides, so a message only one side or neither touched is written
// in its exact bytes, and a merge where nothing came in writes that side's file unchanged.

import { JsonObject, jsonEqual, setKey } from '../base/json';
import { Dialog, Message, freshId } from '../model/dialog';
import { markConflict } from './conflict';
import { matchKeys, sameMessage } from './match';

export interface MergeOptions {
  /**
   * Messages of ours that must stay as they are, where they are (a reply streaming into them, a running
   * cell …). What theirs did to one that ours left unchanged waits (`report.waiting`) for the caller to
   * merge once the message is free; one changed on both sides keeps both versions.
   */
  keep?: (m: Message) => boolean;
  /**
   * Sides just read from their files and not changed since (the caller knows): their messages that kept
   * their bytes are the same without comparing what they hold, the most of a big dialog's merge.
   */
  asRead?: readonly Dialog[];
}

/** What came in from theirs, in message counts. */
export interface MergeReport {
  added: number;
  removed: number;
  edited: number;
  moved: number;
  /** Messages changed on both sides (or changed on one, deleted on the other): both versions are kept. */
  conflicts: number;
  /** Top-level notebook metadata keys changed differently on both sides: ours was kept. */
  metaConflicts: string[];
  /** Ids of kept messages (MergeOptions.keep) that theirs edited or deleted and ours did not change: left for later. */
  waiting: string[];
}

export interface MergeResult {
  dialog: Dialog;
  report: MergeReport;
}

/** Indices (into `seq`) of a longest strictly increasing subsequence: what stayed in order. */
export function longestIncreasing(seq: readonly number[]): Set<number> {
  const tails: number[] = [];
  const prev = new Int32Array(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < seq[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const out = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) out.add(i);
  return out;
}

/** Keys whose place among the `common` keys changed from base to `keys`. */
function movedKeys(keys: readonly string[], common: Set<string>, baseAt: Map<string, number>): Set<string> {
  const inCommon = keys.filter((k) => common.has(k));
  const kept = longestIncreasing(inCommon.map((k) => baseAt.get(k)!));
  return new Set(inCommon.filter((_, i) => !kept.has(i)));
}

/** Notebook metadata merged key by key; a key changed differently on both sides keeps ours. */
function mergeMeta(base: JsonObject, ours: JsonObject, theirs: JsonObject, conflicts: string[]): JsonObject {
  if (jsonEqual(ours, base)) return theirs;
  if (jsonEqual(theirs, base) || jsonEqual(ours, theirs)) return ours;
  const out: JsonObject = {};
  const has = (o: JsonObject, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  for (const k of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
    const b = base[k];
    const o = ours[k];
    const t = theirs[k];
    if (jsonEqual(o, b)) {
      if (has(theirs, k)) setKey(out, k, t);
    } else if (jsonEqual(t, b) || jsonEqual(o, t)) {
      if (has(ours, k)) setKey(out, k, o);
    } else {
      conflicts.push(k);
      if (has(ours, k)) setKey(out, k, o);
    }
  }
  return out;
}

/**
 * Merges what `ours` and `theirs` changed since `base`. Ours's messages are left as they are (the result
 * holds them, owned by ours still); theirs's are taken over (a conflict copy is theirs, re-id'd and
 * marked). The result keeps ours's name and the storage origin of the side it is identical to (ours
 * first), else ours's, so an unchanged dialog writes its bytes.
 */
export function mergeDialogs(base: Dialog, ours: Dialog, theirs: Dialog, opts: MergeOptions = {}): MergeResult {
  const keep = opts.keep ?? (() => false);
  const asRead = new Set(opts.asRead?.flatMap((d) => d.messages));
  const same = (a: Message, b: Message) => sameMessage(a, b, asRead);
  const mo = matchKeys(base.messages, ours.messages, 'o');
  const mt = matchKeys(base.messages, theirs.messages, 't');
  const baseAt = new Map<string, number>();
  mo.base.forEach((k, i) => baseAt.set(k, i));
  const O = new Map<string, Message>();
  mo.other.forEach((k, i) => O.set(k, ours.messages[i]));
  const T = new Map<string, Message>();
  mt.other.forEach((k, i) => T.set(k, theirs.messages[i]));
  const B = new Map<string, Message>();
  mo.base.forEach((k, i) => B.set(k, base.messages[i]));
  // Both sides adding a message under one id (the same id-less content gets its own `o:`/`t:` keys).
  for (const k of [...T.keys()]) {
    if (k.startsWith('t:') && O.has('o:' + k.slice(2))) {
      T.set('o:' + k.slice(2), T.get(k)!);
      T.delete(k);
      mt.other[mt.other.indexOf(k)] = 'o:' + k.slice(2);
    }
  }

  const report: MergeReport = { added: 0, removed: 0, edited: 0, moved: 0, conflicts: 0, metaConflicts: [], waiting: [] };
  let taken: Set<string> | undefined; // made for the first conflict
  const fresh = () => {
    taken ??= new Set<string>([...ours.messages, ...theirs.messages, ...base.messages].map((m) => m.id));
    const id = freshId((x) => taken!.has(x));
    taken.add(id);
    return id;
  };
  /** Theirs's version of a message as a conflict cell beside ours (`of` null: ours deleted it). */
  const conflictCopy = (t: Message, of: string | null) => {
    t.id = fresh();
    markConflict(t, { side: 'theirs', of });
    report.conflicts++;
    return t;
  };

  // What each key of the result holds; absent: deleted.
  const content = new Map<string, Message>();
  const besides = new Map<string, Message>(); // ours key → theirs's conflicting version, placed after it
  for (const [k, o] of O) {
    const b = B.get(k);
    const t = T.get(k);
    if (t && (!b || !same(t, b))) {
      // Theirs added or edited it.
      if (same(o, t)) content.set(k, o);
      else if (b && same(o, b) && !keep(o)) {
        content.set(k, t);
        report.edited++;
      } else if (b && same(o, b)) {
        content.set(k, o);
        report.waiting.push(o.id);
      } else {
        content.set(k, o);
        besides.set(k, conflictCopy(t, o.id));
      }
    } else if (!t && b) {
      // Theirs deleted it: gone, unless ours changed it (or must keep it).
      if (same(o, b) && !keep(o)) report.removed++;
      else if (keep(o)) {
        content.set(k, o);
        if (same(o, b)) report.waiting.push(o.id);
      }
      else {
        // Marked on a copy: ours's messages are never changed (the editor's are shared by its views).
        const c = o.clone();
        c.origin = o.origin;
        markConflict(c, { side: 'ours', of: null });
        content.set(k, c);
        report.conflicts++;
      }
    } else content.set(k, o);
  }
  const placed = new Set<string>(); // keys theirs brings that ours does not hold
  for (const [k, t] of T) {
    if (O.has(k)) continue;
    const b = B.get(k);
    if (!b) {
      report.added++;
      content.set(k, t);
      placed.add(k);
    } else if (!same(t, b)) {
      // Ours deleted what theirs edited: theirs's version comes back, marked.
      content.set(k, conflictCopy(t, null));
      placed.add(k);
    }
  }

  // Order: ours's, with theirs's moves and additions placed after their predecessor in theirs.
  const common = new Set(mo.other.filter((k) => B.has(k) && T.has(k)));
  const movedT = movedKeys(mt.other, common, baseAt);
  const movedO = movedKeys(mo.other, common, baseAt);
  for (const k of movedT) {
    if (!movedO.has(k) && !keep(O.get(k)!)) {
      placed.add(k);
      report.moved++;
    }
  }
  const order = mo.other.filter((k) => content.has(k) && !placed.has(k));
  if (placed.size) {
    let prev: string | undefined;
    for (const k of mt.other) {
      if (placed.has(k)) order.splice(prev === undefined ? 0 : order.indexOf(prev) + 1, 0, k);
      else if (!content.has(k)) continue;
      prev = k;
    }
  }
  const messages: Message[] = [];
  for (const k of order) {
    messages.push(content.get(k)!);
    const c = besides.get(k);
    if (c) messages.push(c);
  }

  const meta = mergeMeta(base.meta, ours.meta, theirs.meta, report.metaConflicts);
  const dialog = new Dialog(messages, ours.name, meta);
  const identical = (d: Dialog) => d.messages.length === messages.length && d.messages.every((m, i) => m === messages[i]) && jsonEqual(d.meta, meta);
  const origin = identical(ours) ? ours.origin : identical(theirs) ? theirs.origin : ours.origin;
  if (origin) dialog.origin = origin;
  return { dialog, report };
}

/** "1 message added, 2 edited, 1 conflict": what a report says, '' when nothing came in. */
export function describeMerge(r: MergeReport): string {
  const parts: string[] = [];
  for (const [k, verb] of [[r.added, 'added'], [r.edited, 'edited'], [r.moved, 'moved'], [r.removed, 'removed']] as const) {
    if (k) parts.push(parts.length ? `${k} ${verb}` : `${k} message${k === 1 ? '' : 's'} ${verb}`);
  }
  if (r.conflicts) parts.push(`${r.conflicts} conflict${r.conflicts === 1 ? '' : 's'}`);
  if (r.metaConflicts.length) parts.push(`notebook metadata kept as here where both changed it (${r.metaConflicts.join(', ')})`);
  return parts.join(', ');
}

/**
 * The sides of a later merge of only what theirs did to messages that waited (`MergeReport.waiting`):
 * `ours` as it is now, with those messages as `base` and `theirs` had them (gone where theirs deleted them).
 */
export function waitingSides(ours: Dialog, base: Dialog, theirs: Dialog, ids: readonly string[]): { base: Dialog; theirs: Dialog } {
  const wait = new Set(ids);
  const byId = (d: Dialog) => new Map(d.messages.filter((m) => wait.has(m.id)).map((m) => [m.id, m]));
  const b = byId(base);
  const t = byId(theirs);
  const side = (msgs: Message[]) => new Dialog(msgs, ours.name, ours.meta);
  return {
    base: side(ours.messages.map((m) => (wait.has(m.id) ? (b.get(m.id) ?? m) : m))),
    theirs: side(ours.messages.flatMap((m) => (!wait.has(m.id) ? [m] : t.has(m.id) ? [t.get(m.id)!] : []))),
  };
}
