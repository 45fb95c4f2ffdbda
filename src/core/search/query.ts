// The search box's language: words, "a phrase", -word (not), kind:reply, in:folder/, and /regex/ for exact
// patterns. Everything the user types is quoted before it reaches FTS5, so no input is an FTS syntax error:
// AND, OR, NEAR, `*` and `:` are searched as plain words.

import { SEARCH_KINDS, SearchKind } from './parts';

export interface QueryTerm {
  text: string;
  /** Typed in quotes: the words in this order. */
  phrase: boolean;
  /** Typed with a leading `-`: parts holding it are left out. */
  negated: boolean;
}

export interface SearchQuery {
  terms: QueryTerm[];
  kinds: SearchKind[];
  /** Workspace-relative folder prefixes (`in:`), with `/` separators and no leading `./`. */
  folders: string[];
  /** The `/pattern/flags` form, compiled; `regexError` when it did not compile. */
  regex?: RegExp;
  regexError?: string;
}

/** `kind:` accepts a few names people type for the same thing. */
const KIND_ALIASES: Record<string, SearchKind> = { answer: 'reply', response: 'reply', ai: 'reply', markdown: 'note', md: 'note', out: 'output', outputs: 'output' };

function kindOf(s: string): SearchKind | undefined {
  const k = s.toLowerCase();
  return (SEARCH_KINDS as readonly string[]).includes(k) ? (k as SearchKind) : KIND_ALIASES[k];
}

/** A folder as `in:` compares it: forward slashes, no `./` or leading `/`, a trailing `/`. */
export function normalizeFolder(f: string): string {
  const s = f.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '');
  return s ? s + '/' : '';
}

/** Parses what the user typed. Unknown `kind:` values are searched as words. */
export function parseQuery(input: string): SearchQuery {
  const q: SearchQuery = { terms: [], kinds: [], folders: [] };
  const re = /(-?)"([^"]*)"?|\/((?:\\.|[^/\\])+)\/([a-z]*)(?=\s|$)|(\S+)/g;
  for (let m = re.exec(input); m; m = re.exec(input)) {
    const [, neg, phrase, pattern, flags, word] = m;
    if (phrase !== undefined) {
      if (phrase.trim()) q.terms.push({ text: phrase, phrase: true, negated: neg === '-' });
    } else if (pattern !== undefined) {
      try {
        // Smart case, as VS Code's search: a pattern with no capital letter ignores case.
        const ignoreCase = flags.includes('i') || !/[A-Z]/.test(pattern);
        q.regex = new RegExp(pattern, flags.replace(/[^msu]/g, '') + (ignoreCase ? 'i' : ''));
      } catch (e) {
        q.regexError = e instanceof Error ? e.message : String(e);
      }
    } else if (word !== undefined) {
      const filter = /^(kind|in):(.*)$/i.exec(word);
      const kind = filter && filter[1].toLowerCase() === 'kind' ? filter[2].split(',').map(kindOf) : undefined;
      if (kind && kind.every((k) => k)) q.kinds.push(...(kind as SearchKind[]).filter((k) => !q.kinds.includes(k)));
      else if (filter && filter[1].toLowerCase() === 'in' && normalizeFolder(filter[2])) q.folders.push(normalizeFolder(filter[2]));
      else if (word.startsWith('-') && word.length > 1) q.terms.push({ text: word.slice(1), phrase: false, negated: true });
      else q.terms.push({ text: word, phrase: false, negated: false });
    }
  }
  return q;
}

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * The FTS5 MATCH expression of a query, or null when it has no positive term (FTS5 cannot match "not x"
 * alone). `prefixLast` makes the last positive word a prefix, for results as you type.
 */
export function ftsMatch(q: SearchQuery, opts: { prefixLast?: boolean } = {}): string | null {
  const pos = q.terms.filter((t) => !t.negated);
  if (!pos.length) return null;
  const last = pos[pos.length - 1];
  const positive = pos.map((t) => quote(t.text) + (opts.prefixLast && t === last && !t.phrase ? '*' : '')).join(' ');
  const negatives = q.terms.filter((t) => t.negated).map((t) => ` NOT ${quote(t.text)}`);
  return negatives.length ? `(${positive})${negatives.join('')}` : positive;
}

/**
 * The MATCH expressions a query runs, best first, each asked only while those before it found fewer hits
 * than asked for. With `prefixLast` a last word typed whole is searched as typed first, then its longer
 * forms alone (the prefix without the word): FTS5 merges the doclists of every word a prefix starts before
 * it can rank any, and a word such as `function` has a dozen longer forms over a hundred thousand parts.
 * Null when the query has no positive term.
 */
export function ftsTiers(q: SearchQuery, opts: { prefixLast?: boolean } = {}): string[] | null {
  const exact = ftsMatch(q);
  if (exact === null || !opts.prefixLast) return exact === null ? null : [exact];
  const last = q.terms.filter((t) => !t.negated).pop()!;
  if (last.phrase) return [exact];
  return [exact, `(${ftsMatch(q, { prefixLast: true })}) NOT ${quote(last.text)}`];
}

/** True when the query asks for nothing (empty, or only filters). */
export function isEmptyQuery(q: SearchQuery): boolean {
  return !q.terms.some((t) => !t.negated) && !q.regex;
}
