// Text helpers for storage: Solveit's lists of lines, on the hot path.

import { hasRareLineBreak, pySplitlines } from '../python/text';

/** Python `splitlines(keepends=True)`; `''` gives `[]` (how Solveit writes sources and text mimes). */
export function splitLines(s: string): string[] {
  if (s === '') return [];
  if (hasRareLineBreak(s)) return pySplitlines(s, true);
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const k = s.indexOf('\n', start);
    if (k < 0) break;
    out.push(s.slice(start, k + 1));
    start = k + 1;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/** Joins a list of strings; anything else is returned unchanged. */
export function joinLines<T>(v: T): T | string {
  if (!Array.isArray(v)) return v;
  for (const x of v) if (typeof x !== 'string') return v;
  return v.join('');
}
