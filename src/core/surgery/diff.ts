// `str_diff` (surgery.md "Text edits"): Python difflib's unified diff with 1 line of context, no
// file header lines. The matcher follows difflib's SequenceMatcher (including its "popular line"
// heuristic for 200+ lines) so hunks split where the reference splits them.

import { pySplitlines } from '../python/text';

type Block = [number, number, number];
type Opcode = [string, number, number, number, number];

function matchingBlocks(a: string[], b: string[]): Block[] {
  const b2j = new Map<string, number[]>();
  b.forEach((line, j) => {
    const l = b2j.get(line);
    if (l) l.push(j);
    else b2j.set(line, [j]);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [line, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(line);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): Block => {
    let [bi, bj, bs] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bs) [bi, bj, bs] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    // popular lines are not junk, so the match extends over them
    while (bi > alo && bj > blo && a[bi - 1] === b[bj - 1]) [bi, bj, bs] = [bi - 1, bj - 1, bs + 1];
    while (bi + bs < ahi && bj + bs < bhi && a[bi + bs] === b[bj + bs]) bs++;
    return [bi, bj, bs];
  };
  const found: Block[] = [];
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const x = longest(alo, ahi, blo, bhi);
    const [i, j, k] = x;
    if (k) {
      found.push(x);
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
  }
  found.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  const out: Block[] = [];
  let [i1, j1, k1] = [0, 0, 0];
  for (const [i2, j2, k2] of found) {
    if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
    else {
      if (k1) out.push([i1, j1, k1]);
      [i1, j1, k1] = [i2, j2, k2];
    }
  }
  if (k1) out.push([i1, j1, k1]);
  out.push([a.length, b.length, 0]);
  return out;
}

function opcodes(a: string[], b: string[]): Opcode[] {
  let [i, j] = [0, 0];
  const out: Opcode[] = [];
  for (const [ai, bj, size] of matchingBlocks(a, b)) {
    const tag = i < ai && j < bj ? 'replace' : i < ai ? 'delete' : j < bj ? 'insert' : '';
    if (tag) out.push([tag, i, ai, j, bj]);
    [i, j] = [ai + size, bj + size];
    if (size) out.push(['equal', ai, i, bj, j]);
  }
  return out;
}

function groupedOpcodes(a: string[], b: string[], n: number): Opcode[][] {
  let codes = opcodes(a, b);
  if (!codes.length) codes = [['equal', 0, 1, 0, 1]];
  if (codes[0][0] === 'equal') {
    const [t, i1, i2, j1, j2] = codes[0];
    codes[0] = [t, Math.max(i1, i2 - n), i2, Math.max(j1, j2 - n), j2];
  }
  const last = codes.length - 1;
  if (codes[last][0] === 'equal') {
    const [t, i1, i2, j1, j2] = codes[last];
    codes[last] = [t, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)];
  }
  const groups: Opcode[][] = [];
  let group: Opcode[] = [];
  for (const code of codes) {
    let [t, i1, i2, j1, j2] = code;
    if (t === 'equal' && i2 - i1 > 2 * n) {
      group.push([t, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)]);
      groups.push(group);
      group = [];
      [i1, j1] = [Math.max(i1, i2 - n), Math.max(j1, j2 - n)];
    }
    group.push([t, i1, i2, j1, j2]);
  }
  if (group.length && !(group.length === 1 && group[0][0] === 'equal')) groups.push(group);
  return groups;
}

function range(start: number, stop: number): string {
  const len = stop - start;
  if (len === 1) return `${start + 1}`;
  return `${len ? start + 1 : start},${len}`;
}

/** Unified diff of two line lists with `n` lines of context, without the `---`/`+++` lines. */
export function unifiedDiff(a: string[], b: string[], n = 1): string[] {
  const out: string[] = [];
  for (const g of groupedOpcodes(a, b, n)) {
    const [first, last] = [g[0], g[g.length - 1]];
    out.push(`@@ -${range(first[1], last[2])} +${range(first[3], last[4])} @@`);
    for (const [t, i1, i2, j1, j2] of g) {
      if (t === 'equal') {
        for (const l of a.slice(i1, i2)) out.push(' ' + l);
        continue;
      }
      if (t !== 'insert') for (const l of a.slice(i1, i2)) out.push('-' + l);
      if (t !== 'delete') for (const l of b.slice(j1, j2)) out.push('+' + l);
    }
  }
  return out;
}

/** `str_diff(old, new)`: the diff of the texts' lines (V230, V233, V234); `""` when equal. */
export function strDiff(oldText: string, newText: string): string {
  return unifiedDiff(pySplitlines(oldText), pySplitlines(newText), 1).join('\n');
}
