// Lineage: where a fork came from, kept in the fork's own notebook metadata (the parent file is never
// touched), and the family tree of a set of dialogs. Metadata may be hand-edited, so it is read through a
// schema, and the tree tolerates what edits and file moves produce: a parent found by message id when its
// path no longer holds it, a parent shown as missing, a cycle reported and broken instead of looped on.

import * as z from 'zod/mini';
import { JsonObject } from '../base';
import { Dialog, DialogError } from '../model';
import { firstLine } from '../outline';
import { cpCompare } from '../python';
import { normalPath, resolvePath, stemOf } from './paths';

/** The notebook metadata key that holds a fork's lineage. */
export const LINEAGE_KEY = 'dialog_lineage';

export interface Lineage {
  /** The parent file, relative to the fork's folder, '/'-separated. */
  parent: string;
  /** The id of the message the fork was made at (the last message of the parent it kept). */
  parentMsg: string;
  /** That message's index in the parent when the fork was made (the seed's `split@`). */
  split: number;
  /** ISO time of the fork. */
  time: string;
  /** Set when only the first `firstK` and last `lastN` messages up to the split were kept. */
  firstK?: number;
  lastN?: number;
}

const count = z.int().check(z.nonnegative());
const nonEmpty = z.string().check(z.minLength(1));
const storedLineage = z.object({
  parent: nonEmpty,
  parent_msg: nonEmpty,
  split: count,
  time: z.string(),
  first_k: z.optional(count),
  last_n: z.optional(count),
});

/** The lineage as stored in notebook metadata (snake_case keys, as Solveit's own metadata). */
export function lineageMeta(l: Lineage): JsonObject {
  const o: JsonObject = { parent: l.parent, parent_msg: l.parentMsg, split: l.split, time: l.time };
  if (l.firstK !== undefined) o.first_k = l.firstK;
  if (l.lastN !== undefined) o.last_n = l.lastN;
  return o;
}

/** The lineage a dialog records, null when it records none; a DialogError naming the fault when malformed. */
export function dlg2lineage(d: Dialog): Lineage | null {
  if (!Object.prototype.hasOwnProperty.call(d.meta, LINEAGE_KEY)) return null;
  const r = storedLineage.safeParse(d.meta[LINEAGE_KEY]);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new DialogError(`malformed ${LINEAGE_KEY} metadata: ${where}${issue.message}`);
  }
  const s = r.data;
  const l: Lineage = { parent: s.parent, parentMsg: s.parent_msg, split: s.split, time: s.time };
  if (s.first_k !== undefined) l.firstK = s.first_k;
  if (s.last_n !== undefined) l.lastN = s.last_n;
  return l;
}

/** What the family tree needs to know of one dialog file. */
export interface LineageEntry {
  /** '/'-separated, in the same frame as every other entry (e.g. relative to the scanned folder). */
  path: string;
  lineage: Lineage | null;
  /** Why its lineage metadata could not be read: the dialog shows as a root with the reason. */
  problem?: string;
  /** Its message ids, in order. */
  ids: readonly string[];
  /** A fork's: the first line of the message it was split at (its copy of `lineage.parentMsg`). */
  splitLine?: string;
}

export function lineageEntry(path: string, d: Dialog): LineageEntry {
  const ids = d.messages.map((m) => m.id);
  try {
    const lineage = dlg2lineage(d);
    const at = lineage && d.messages.find((m) => m.id === lineage.parentMsg);
    return at ? { path, lineage, ids, splitLine: firstLine(at.content) } : { path, lineage, ids };
  } catch (e) {
    if (!(e instanceof DialogError)) throw e;
    return { path, lineage: null, problem: e.message, ids };
  }
}

export interface ParentLink {
  /** The parent's path; for a missing parent, the path the lineage names. */
  path: string;
  /**
   * How it was found: at the recorded path; else as the dialog holding the split message (the parent was
   * moved or renamed, or deleted while an ancestor of it still holds that message); else not at all.
   */
  foundBy: 'path' | 'message' | 'missing';
}

/** A time to sort by: an unreadable one last. */
const orderable = (t: number) => (Number.isNaN(t) ? Infinity : t);

/** When a dialog came to be: an original (no lineage) before any fork; NaN for an unreadable time. */
const bornAt = (e: LineageEntry) => (e.lineage ? Date.parse(e.lineage.time) : -Infinity);

/**
 * The likeliest parent among the other dialogs holding the split message, none born after the fork: the
 * same file name (moved), then the message at the recorded index, then the oldest (an original before its
 * forks, so the dialog where the message was written wins over copies of it), then path order.
 */
function byMessage(child: LineageEntry, l: Lineage, entries: readonly LineageEntry[]): LineageEntry | undefined {
  const name = stemOf(l.parent);
  const born = Date.parse(l.time);
  const rank = (e: LineageEntry): number[] => [stemOf(e.path) === name ? 0 : 1, e.ids[l.split] === l.parentMsg ? 0 : 1, orderable(bornAt(e))];
  const cands = entries.filter((e) => e.path !== child.path && e.ids.includes(l.parentMsg) && !(bornAt(e) > born));
  const key = new Map(cands.map((e) => [e, rank(e)]));
  // A NaN difference (two originals, two unknown times) falls through to the next key.
  const order = (a: LineageEntry, b: LineageEntry) => {
    const [ka, kb] = [key.get(a)!, key.get(b)!];
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2] || cpCompare(a.path, b.path);
  };
  return cands.sort(order)[0];
}

/** Entries keyed by their normalised path (the key parent paths resolve to). */
function byPathOf(entries: readonly LineageEntry[]): Map<string, LineageEntry> {
  return new Map(entries.map((e) => [normalPath(e.path), { ...e, path: normalPath(e.path) }]));
}

function linkOf(child: LineageEntry, byPath: ReadonlyMap<string, LineageEntry>): ParentLink | null {
  const l = child.lineage;
  if (!l) return null;
  const at = resolvePath(child.path, l.parent);
  if (byPath.has(at)) return { path: at, foundBy: 'path' };
  const hit = byMessage(child, l, [...byPath.values()]);
  return hit ? { path: hit.path, foundBy: 'message' } : { path: at, foundBy: 'missing' };
}

/** The parent of `child` among `entries` (null when it records no lineage). */
export function findParent(child: LineageEntry, entries: readonly LineageEntry[]): ParentLink | null {
  return linkOf({ ...child, path: normalPath(child.path) }, byPathOf(entries));
}

export interface LineageNode {
  path: string;
  /** No dialog at this path: a parent that was deleted, or lies outside the scanned folder. */
  missing: boolean;
  lineage: Lineage | null;
  problem?: string;
  /** null for a missing parent. */
  msgCount: number | null;
  /** See LineageEntry.splitLine. */
  splitLine?: string;
  /** How this node's parent was found (absent on roots). */
  foundBy?: 'path' | 'message';
  /** The loop of parent links this dialog closes, from it back to it: its own parent link is dropped. */
  cycle?: string[];
  children: LineageNode[];
}

export interface LineageTree {
  roots: LineageNode[];
  /** Every loop of parent links found in (hand-edited) lineage, as in `LineageNode.cycle`. */
  cycles: string[][];
}

/** Follows parent links from every entry once; each loop is cut at its smallest path, which becomes a root. */
function findCycles(links: Map<string, ParentLink>, paths: readonly string[]): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  for (const start of paths) {
    const chain: string[] = [];
    let cur: string | undefined = start;
    while (cur !== undefined && !state.has(cur)) {
      state.set(cur, 'open');
      chain.push(cur);
      const link = links.get(cur);
      cur = link && link.foundBy !== 'missing' ? link.path : undefined;
    }
    if (cur !== undefined && state.get(cur) === 'open') {
      const loop = chain.slice(chain.indexOf(cur));
      const k = loop.indexOf([...loop].sort(cpCompare)[0]);
      const from = [...loop.slice(k), ...loop.slice(0, k)];
      cycles.push([...from, from[0]]);
      links.delete(from[0]);
    }
    for (const p of chain) state.set(p, 'done');
  }
  return cycles;
}

/**
 * The family tree of the dialogs that have lineage and of their parents, present or missing. Roots and
 * children are in path order and fork-time order respectively; every dialog appears once.
 */
export function buildLineageTree(entries: readonly LineageEntry[]): LineageTree {
  const byPath = byPathOf(entries);
  const paths = [...byPath.keys()].sort(cpCompare);
  const links = new Map<string, ParentLink>();
  for (const p of paths) {
    const link = linkOf(byPath.get(p)!, byPath);
    if (link) links.set(p, link);
  }
  const cycles = findCycles(links, paths);

  const nodes = new Map<string, LineageNode>();
  const node = (path: string): LineageNode => {
    let n = nodes.get(path);
    if (!n) {
      const e = byPath.get(path);
      n = e
        ? { path, missing: false, lineage: e.lineage, msgCount: e.ids.length, children: [] }
        : { path, missing: true, lineage: null, msgCount: null, children: [] };
      if (e?.problem) n.problem = e.problem;
      if (e?.splitLine !== undefined) n.splitLine = e.splitLine;
      nodes.set(path, n);
    }
    return n;
  };
  for (const e of byPath.values()) if (e.lineage || e.problem) node(e.path);
  for (const c of cycles) node(c[0]).cycle = c;
  const attached = new Set<string>();
  for (const [child, link] of links) {
    const n = node(child);
    n.foundBy = link.foundBy === 'message' ? 'message' : 'path';
    node(link.path).children.push(n);
    attached.add(child);
  }
  const time = (n: LineageNode) => orderable(Date.parse(n.lineage?.time ?? ''));
  const byTime = (a: LineageNode, b: LineageNode) => time(a) - time(b) || cpCompare(a.path, b.path);
  for (const n of nodes.values()) n.children.sort(byTime);
  const roots = [...nodes.values()].filter((n) => !attached.has(n.path)).sort((a, b) => cpCompare(a.path, b.path));
  return { roots, cycles };
}
