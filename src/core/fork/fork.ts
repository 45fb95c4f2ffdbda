// Forking a dialog (seed 004 `fork(alias, child, last_n, first_k)`): a new dialog holding the history up to
// and including one message, or only the first k and last n of it, that then evolves on its own. The
// fork records its lineage in its own metadata; the parent is only read.

import * as z from 'zod/mini';
import { Json, jsonClone, setKey } from '../base';
import { CellOrigin, Dialog, DialogError, Message } from '../model';
import { cpCompare } from '../python';
import { LINEAGE_KEY, Lineage, lineageMeta } from './lineage';
import { dirPath, relativePath, stemOf } from './paths';

export interface ForkOptions {
  /** The parent's file and the fork's, '/'-separated and in one frame (both absolute, say). */
  parentPath: string;
  forkPath: string;
  /** ISO time of the fork (the core has no clock). */
  time: string;
  /** With `lastN` > 0, keep only the first `firstK` (default 1, as the seed) and the last `lastN` messages. */
  firstK?: number;
  lastN?: number;
  /** Clear the reply of the prompt forked at, to ask it again ("Fork and Rerun"). */
  clearReply?: boolean;
}

const count = z.int().check(z.nonnegative());
const isoTime = z.iso.datetime({ offset: true });

function checkOptions(o: ForkOptions): void {
  for (const [name, v] of [['first_k', o.firstK], ['last_n', o.lastN]] as const) {
    if (v !== undefined && !count.safeParse(v).success) throw new DialogError(`cannot fork: ${name} must be a whole number ≥ 0, got ${v}`);
  }
  if (o.firstK !== undefined && !o.lastN) throw new DialogError('cannot fork: first_k needs last_n > 0 (without last_n the whole history is kept)');
  if (!isoTime.safeParse(o.time).success) throw new DialogError(`cannot fork: time must be an ISO date-time, got '${o.time}'`);
}

/** The indices of the parent's messages a fork at `split` keeps: all up to it, or the first k and last n. */
export function keptIndices(split: number, o: Pick<ForkOptions, 'firstK' | 'lastN'>): number[] {
  const n = split + 1;
  const lastN = o.lastN ?? 0;
  const firstK = lastN ? (o.firstK ?? 1) : n;
  return [...Array(n).keys()].filter((i) => i < firstK || i >= n - lastN);
}

function duplicateIds(d: Dialog): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const m of d.messages) (seen.has(m.id) ? dups : seen).add(m.id);
  return [...dups].sort(cpCompare);
}

/**
 * A copy of `m` that the fork's file writes as the parent's file wrote it: the storage hints also hold what
 * the model cannot (unreadable attachments, a second reply separator, unknown cell keys …), so nothing of
 * a kept cell is lost.
 */
function carry(m: Message): Message {
  const c = m.clone();
  if (m.origin) c.origin = jsonClone(m.origin as unknown as Json) as unknown as CellOrigin;
  return c;
}

/**
 * Forks `parent` at message `at` (exact id or unique prefix). Refuses, changing nothing, when the dialog
 * has duplicate ids (lineage names the split by id), `at` is not in it, or an option is out of range.
 */
export function forkDialog(parent: Dialog, at: string, o: ForkOptions): Dialog {
  checkOptions(o);
  const dups = duplicateIds(parent);
  if (dups.length) throw new DialogError(`cannot fork: duplicate message id(s): ${dups.join(', ')}; a fork records its split by message id`);
  let split: number;
  try {
    split = parent.indexOf(parent.msg(at));
  } catch (e) {
    throw new DialogError(`cannot fork: ${(e as Error).message}`);
  }
  const msgs = keptIndices(split, o).map((i) => carry(parent.messages[i]));
  const last = msgs[msgs.length - 1];
  if (o.clearReply) {
    if (last.msgType !== 'prompt') throw new DialogError(`cannot clear the reply of ${last.id}: it is a ${last.msgType}, not a prompt`);
    last.output = [];
  }
  const lineage: Lineage = { parent: relativePath(o.forkPath, o.parentPath), parentMsg: last.id, split, time: o.time };
  if (o.lastN) Object.assign(lineage, { firstK: o.firstK ?? 1, lastN: o.lastN });
  const meta = jsonClone(parent.meta);
  setKey(meta, LINEAGE_KEY, lineageMeta(lineage));
  return new Dialog(msgs, stemOf(o.forkPath), meta);
}

/**
 * Where the split message sits in the parent and in the fork, for comparing the branches from there on:
 * found by id, else (an id-less cell gets a new id on every read) by the recorded index and options.
 * -1 when the parent no longer has that many messages.
 */
export function forkPoint(parentIds: readonly string[], forkIds: readonly string[], l: Lineage): { parent: number; fork: number } {
  const inParent = parentIds.indexOf(l.parentMsg);
  const inFork = forkIds.indexOf(l.parentMsg);
  return {
    parent: inParent >= 0 ? inParent : l.split < parentIds.length ? l.split : -1,
    fork: inFork >= 0 ? inFork : Math.min(keptIndices(l.split, l).length, forkIds.length) - 1,
  };
}

/** A free name beside the parent for its next fork: `name.fork-N.ipynb` (a fork of a fork stays flat). */
export function defaultForkPath(parentPath: string, siblingNames: Iterable<string>): string {
  const taken = new Set(siblingNames);
  const base = stemOf(parentPath).replace(/\.fork-\d+$/, '');
  let n = 1;
  while (taken.has(`${base}.fork-${n}.ipynb`)) n++;
  return `${dirPath(parentPath)}${base}.fork-${n}.ipynb`;
}
