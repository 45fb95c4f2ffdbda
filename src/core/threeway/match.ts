// Which message of one version of a dialog is which message of another: by id, and id-less cells (whose
// in-memory ids are made up at each read) by content, then by position between matched neighbours.

import { JsonObject, isJsonObject, stringifyCanonical } from '../base/json';
import { Message } from '../model/dialog';
import { cellState, hasState } from '../ipynb/cell';

const prints = new WeakMap<Message, string>();

/** The message's content as one comparable string: everything its cell is written from but its id. */
export function fingerprint(m: Message): string {
  let p = prints.get(m);
  if (p === undefined) {
    const s: JsonObject = cellState(m);
    delete s.id;
    prints.set(m, (p = stringifyCanonical(s)));
  }
  return p;
}

/**
 * Whether two versions of a message hold the same thing (their texts in the file may still differ).
 * `asRead`: messages known to hold what their file said (of a dialog just read), spared the check.
 */
export function sameMessage(a: Message, b: Message, asRead?: ReadonlySet<Message>): boolean {
  if (a === b) return true;
  const ta = a.origin?.text;
  const read = (m: Message) => asRead?.has(m) || unedited(m);
  if (typeof ta === 'string' && ta !== '' && ta === b.origin?.text && a.id === b.id && read(a) && read(b)) return true;
  return fingerprint(a) === fingerprint(b);
}

/** A message read from a file and not changed since (its state is still the one read). */
function unedited(m: Message): boolean {
  const s = m.origin?.state;
  return isJsonObject(s) && hasState(m, s);
}

const idless = (m: Message) => typeof m.origin?.genId === 'string';

function idCounts(msgs: readonly Message[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const m of msgs) n.set(m.id, (n.get(m.id) ?? 0) + 1);
  return n;
}

/** Keys by id: the n-th message holding an id that occurs more than once gets `id#n`. */
function idKeys(msgs: readonly Message[]): string[] {
  const seen = new Map<string, number>();
  return msgs.map((m) => {
    const n = seen.get(m.id) ?? 0;
    seen.set(m.id, n + 1);
    return n ? `${m.id}#${n}` : m.id;
  });
}

/**
 * The match keys of `base` and of `other`: equal keys name the same message. Ids held once on each side
 * first; then each cell of `other` left over (id-less, with a repeated id, or with an id new to base) takes
 * an id-less (or repeated-id) cell of `base` left over with the same content, in order, and the rest pair up
 * by position where a gap between matched neighbours holds as many on both sides.
 */
export function matchKeys(base: readonly Message[], other: readonly Message[], tag: string): { base: string[]; other: string[] } {
  const bk = idKeys(base);
  const ok = idKeys(other);
  const nb = idCounts(base);
  const no = idCounts(other);
  const repeated = (id: string) => (nb.get(id) ?? 0) > 1 || (no.get(id) ?? 0) > 1;
  const loose = (m: Message) => idless(m) || repeated(m.id);
  // An id-less cell that was edited and saved has the id it was given in memory: new to base.
  const looseOther = (m: Message) => loose(m) || !nb.has(m.id);
  const bIndex = new Map<string, number>();
  bk.forEach((k, i) => bIndex.set(k, i));
  const matched = new Int32Array(other.length).fill(-1);
  const taken = new Uint8Array(base.length);
  ok.forEach((k, i) => {
    const j = repeated(other[i].id) ? undefined : bIndex.get(k);
    if (j !== undefined) {
      matched[i] = j;
      taken[j] = 1;
    }
  });
  // By content, keeping the order: a cell takes the first free one with its content after the last taken.
  const free = new Map<string, number[]>();
  base.forEach((m, j) => {
    if (taken[j] || !loose(m)) return;
    const p = fingerprint(m);
    const list = free.get(p);
    if (list) list.push(j);
    else free.set(p, [j]);
  });
  let last = -1;
  other.forEach((m, i) => {
    if (matched[i] >= 0) {
      last = Math.max(last, matched[i]);
      return;
    }
    if (!looseOther(m)) return;
    const list = free.get(fingerprint(m));
    while (list?.length && (list[0] <= last || taken[list[0]])) list.shift();
    if (list?.length) {
      const j = list.shift()!;
      matched[i] = j;
      taken[j] = 1;
      last = j;
    }
  });
  // By position: an edited id-less cell between two matched neighbours.
  let i = 0;
  while (i < other.length) {
    if (matched[i] >= 0) {
      i++;
      continue;
    }
    const from = i;
    while (i < other.length && matched[i] < 0) i++;
    const lo = from > 0 ? matched[from - 1] + 1 : 0;
    const hi = i < other.length ? matched[i] : base.length;
    const gapB: number[] = [];
    for (let j = lo; j < hi; j++) if (!taken[j] && loose(base[j])) gapB.push(j);
    const gapO: number[] = [];
    for (let k = from; k < i; k++) if (looseOther(other[k])) gapO.push(k);
    if (hi >= lo && gapB.length === gapO.length) {
      gapO.forEach((k, n) => {
        matched[k] = gapB[n];
        taken[gapB[n]] = 1;
      });
    }
  }
  const keys = ok.map((k, i) => (matched[i] >= 0 ? bk[matched[i]] : `${tag}:${k}`));
  return { base: bk, other: keys };
}
