// A hit's snippet: one line of text around the match, with the matched ranges to highlight.

import type { SearchQuery } from './query';

/** The markers put around each match while a snippet is made (control characters no dialog text holds there). */
export const HIT_OPEN = '\u0002';
export const HIT_CLOSE = '\u0003';

export interface Snippet {
  text: string;
  /** [start, end) offsets into `text` of each match. */
  ranges: [number, number][];
}

/** A marked snippet from the index made one line, its markers turned into ranges. */
export function shapeSnippet(marked: string): Snippet {
  const flat = marked.replace(/\s+/g, ' ').trim();
  let text = '';
  const ranges: [number, number][] = [];
  let open = -1;
  for (const ch of flat) {
    if (ch === HIT_OPEN) open = text.length;
    else if (ch === HIT_CLOSE) {
      if (open >= 0 && text.length > open) ranges.push([open, text.length]);
      open = -1;
    } else text += ch;
  }
  return { text, ranges };
}

/** A snippet around a regex's first match in `text` (the regex form searches outside the index). */
export function regexSnippet(text: string, re: RegExp, width = 100): Snippet | null {
  const m = new RegExp(re.source, re.flags.replace('g', '')).exec(text);
  if (!m) return null;
  const from = Math.max(0, m.index - Math.floor(width / 2));
  const to = Math.min(text.length, m.index + m[0].length + Math.floor(width / 2));
  const marked = (from > 0 ? '…' : '') + text.slice(from, m.index) + HIT_OPEN + text.slice(m.index, m.index + m[0].length) + HIT_CLOSE + text.slice(m.index + m[0].length, to) + (to < text.length ? '…' : '');
  return shapeSnippet(marked);
}

/**
 * What FTS5's unicode61 tokenizer counts as a word's characters, near enough for a snippet, in text folded
 * by foldText: digits, letters, and the letters and marks of every script past Latin-1's signs, without the
 * blocks of punctuation, spaces and symbols or surrogates (an emoji parts words). Ranges over folded text,
 * not a case-insensitive regex of Unicode properties (\p{L}): that cost V8 about a quarter of a second the
 * first time in a thread (a session's first query), then as much as this.
 */
const WORD = '0-9a-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u1fff\\u2c00-\\u2dff\\u3040-\\ud7ff\\uf900-\\ufdff\\ufe70-\\ufefe\\uff10-\\uffdc';
const WORD_CHAR = `[${WORD}]`;
const NOT_WORD_CHAR = `[^${WORD}]`;
const WORD_CHAR_RE = new RegExp(WORD_CHAR);

function isWordChar(text: string, at: number): boolean {
  return WORD_CHAR_RE.test(text[at]);
}

/**
 * `text` in lower case with the diacritics of Latin letters dropped, one UTF-16 unit for one, so offsets
 * into it are offsets into `text`: what FTS5's unicode61 with `remove_diacritics` does to the words it
 * indexes (`Crème` is `creme`).
 */
export function foldText(text: string): string {
  let lower = text.toLowerCase();
  // The few letters whose lower case is longer (İ) are kept as they are.
  if (lower.length !== text.length) lower = Array.from(text, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
  return lower.replace(/[\u00c0-\u024f\u1e00-\u1eff]/g, (c) => c.normalize('NFD')[0]);
}

/** The query's positive terms as one regex, one group a term (see termPattern). */
export interface TermPattern {
  re: RegExp;
  terms: number;
}

/**
 * The regex that finds the query's positive terms in a part's text as the index matched them: whole words
 * (the last one as a prefix with `prefixLast`), a term of several words (a phrase, or `read_csv`) with any
 * separators between them, case ignored. Null when the query has no such term.
 */
export function termPattern(q: SearchQuery, opts: { prefixLast?: boolean } = {}): TermPattern | null {
  const pos = q.terms.filter((t) => !t.negated);
  const last = pos[pos.length - 1];
  const alts = pos.flatMap((t) => {
    // Words are word characters only: nothing in them to escape.
    const words = foldText(t.text).match(new RegExp(`${WORD_CHAR}+`, 'g'));
    if (!words) return [];
    const prefix = opts.prefixLast && t === last && !t.phrase ? `${WORD_CHAR}*` : '';
    return [`(${words.join(`${NOT_WORD_CHAR}+`)}${prefix})`];
  });
  // The word boundary before a match is tested in termSnippet: a lookbehind here makes the search slow.
  return alts.length ? { re: new RegExp(`(?:${alts.join('|')})(?!${WORD_CHAR})`, 'g'), terms: alts.length } : null;
}

/**
 * A snippet of `text` around its matches of `pattern`: the window of about `width` characters that shows
 * the most different terms, widened to whole words, every match in it marked, diacritics ignored as the
 * index ignores them. Made in JavaScript from the stored text of the rows returned only (the index keeps
 * no text of its own to make FTS5's `snippet()` from). Null when no term is found in it.
 */
export function termSnippet(original: string, pattern: TermPattern, width = 120): Snippet | null {
  const { re } = pattern;
  // Searched folded, cut from the text as written: the two have the same offsets.
  const text = foldText(original);
  const lead = Math.floor(width / 4);
  const found: { at: number; term: number }[] = [];
  let best = { shown: 0, from: 0 };
  /** The next match that starts a word. */
  const next = (): RegExpExecArray | null => {
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m.index === 0 || !isWordChar(text, m.index - 1)) return m;
      re.lastIndex = m.index + 1;
    }
    return null;
  };
  re.lastIndex = 0;
  for (let m = next(); m && found.length < 1000 && best.shown < pattern.terms; m = next()) {
    let term = 1;
    while (m[term] === undefined) term++;
    found.push({ at: m.index, term });
    const end = m.index + m[0].length;
    // The windows that open `lead` characters before a match and reach this one: how many terms each shows.
    for (let k = found.length - 1; k >= 0 && Math.max(0, found[k].at - lead) + width >= end; k--) {
      const from = Math.max(0, found[k].at - lead);
      const shown = new Set<number>();
      for (let j = found.length - 1; j >= 0 && found[j].at >= from; j--) shown.add(found[j].term);
      if (shown.size > best.shown) best = { shown: shown.size, from };
    }
  }
  if (!found.length) return null;
  let from = best.from;
  let to = Math.min(text.length, from + width);
  for (let n = 0; from > 0 && isWordChar(text, from - 1) && n < 20; n++) from--;
  for (let n = 0; to < text.length && isWordChar(text, to) && n < 20; n++) to++;
  // Every match in the window marked (the search above stopped at the first window showing every term).
  let marked = from > 0 ? '…' : '';
  let at = from;
  re.lastIndex = from;
  for (let m = next(); m && m.index + m[0].length <= to; m = next()) {
    marked += original.slice(at, m.index) + HIT_OPEN + original.slice(m.index, m.index + m[0].length) + HIT_CLOSE;
    at = m.index + m[0].length;
  }
  return shapeSnippet(marked + original.slice(at, to) + (to < text.length ? '…' : ''));
}

/** The head of `text` with nothing marked: for a hit whose words termSnippet does not find where FTS5 did. */
export function headSnippet(text: string, width = 120): Snippet {
  return shapeSnippet(text.length > width ? text.slice(0, width) + '…' : text);
}

/** The snippet with its matches between `open` and `close` (`**` for the model and for data). */
export function markSnippet(s: Snippet, open = '**', close = '**'): string {
  let out = '';
  let at = 0;
  for (const [a, b] of s.ranges) {
    out += s.text.slice(at, a) + open + s.text.slice(a, b) + close;
    at = b;
  }
  return out + s.text.slice(at);
}

/**
 * The words a hit matched, one for each word typed, in the order typed: the snippet's own word where it
 * shows one (the whole word a prefix matched), else the word as typed. The quick pick's row label: VS Code
 * highlights in a label what the typed text matches, and lets an extension give no ranges of its own.
 */
export function matchedWords(s: Snippet, q: SearchQuery): string {
  const found = s.ranges.map(([a, b]) => s.text.slice(a, b));
  return q.terms
    .filter((t) => !t.negated)
    .map((t) => {
      const want = t.text.toLowerCase();
      return found.find((w) => w.toLowerCase() === want) ?? found.find((w) => w.toLowerCase().startsWith(want)) ?? t.text;
    })
    .join(' ');
}
