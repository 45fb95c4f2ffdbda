// Python string semantics the model needs: `\s`, `str.strip`, `str.splitlines`.
// JS `\s` differs from Python's (JS adds U+FEFF, lacks U+001C–U+001F and U+0085), so patterns that must
// match like the reference build their classes from PY_WS.

/** The members of Python's `\s` (str patterns), for use inside a regex character class. */
export const PY_WS = '\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const IS_WS = new RegExp(`[${PY_WS}]`);

// Index scans rather than `[ws]+$`, which backtracks quadratically over long inner whitespace runs.
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && IS_WS.test(s[end - 1])) end--;
  return s.slice(0, end);
}

export function pyStrip(s: string): string {
  let start = 0;
  while (start < s.length && IS_WS.test(s[start])) start++;
  return pyRstrip(s.slice(start));
}

// Python's line boundaries (`str.splitlines`): `\r\n` as one, else any single one of these or `\n`.
const BREAKS_BUT_LF = '\\r\\v\\f\\x1c-\\x1e\\x85\\u2028\\u2029';
const LINE_BREAK = new RegExp(`\\r\\n|[\\n${BREAKS_BUT_LF}]`, 'g');
const TRAILING_BREAK = new RegExp(`(?:\\r\\n|[\\n${BREAKS_BUT_LF}])$`);
const RARE_BREAK = new RegExp(`[${BREAKS_BUT_LF}]`);

/** `line` without the one line boundary it ends with (a `pySplitlines(s, true)` line as `pySplitlines(s)` gives it). */
export function chompLine(line: string): string {
  return line.replace(TRAILING_BREAK, '');
}

/** Whether `s` ends with a line boundary. */
export function endsWithLineBreak(s: string): boolean {
  return TRAILING_BREAK.test(s);
}

/** Whether `s` holds a line boundary other than `\n`: most text has none, so line splitting can take a fast path. */
export function hasRareLineBreak(s: string): boolean {
  return RARE_BREAK.test(s);
}

/** Python's `str.splitlines(keepends)`. */
export function pySplitlines(s: string, keepends = false): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of s.matchAll(LINE_BREAK)) {
    const end = m.index + m[0].length;
    out.push(s.slice(start, keepends ? end : m.index));
    start = end;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/** Length in code points (the spec's unit for every length). */
export function cpLen(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) n++;
    else {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      n++;
    }
  }
  return n;
}

/** The first `n` code points of `s`. */
export function cpSlice(s: string, n: number): string {
  if (n <= 0) return '';
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return s.slice(0, i);
}

/** Code-point order (Python's `sorted` on str; JS compares UTF-16 units, which differs around surrogates). */
export function cpCompare(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
}

/** fastcore `truncstr(s, n)`: longer than `n` code points → the first n−1 plus `…`. */
export function truncstr(s: string, n: number): string {
  return cpLen(s) > n ? cpSlice(s, n - 1) + '…' : s;
}
