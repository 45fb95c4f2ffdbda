// A hit's snippet: one line of text around the match, with the matched ranges to highlight.

import type { SearchQuery } from './query';

/** The markers the index's `snippet()` puts around each match (control characters no dialog text holds there). */
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
