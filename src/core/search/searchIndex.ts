// The search index over any SQLite with FTS5 (the host brings the engine as a SqlDb): one row per message
// part in `parts`, FTS5 over their text (BM25 ranking), and per file the stamp it was indexed at so a later
// session re-reads only what changed. A part names its file by the file's row number (`fid`), not its path:
// the path in every part and in the index over them was 4% of the index's size. FTS5 keeps its index only
// (contentless): the text is kept once, in `parts`, packed where the host can pack it (at 10,000 dialogs
// the text stored as it is was three quarters of the file), and snippets are made from it in JavaScript.

import { SearchKind, SearchPart } from './parts';
import { SearchQuery, ftsTiers, isEmptyQuery } from './query';
import { Snippet, headSnippet, regexSnippet, termPattern, termSnippet } from './snippet';

export type SqlValue = string | number | null | Uint8Array;

/** The little of an SQLite connection the index uses. */
export interface SqlDb {
  exec(sql: string, params?: SqlValue[]): void;
  rows(sql: string, params?: SqlValue[]): SqlValue[][];
}

/**
 * How the index keeps a part's text: packed by the host where it has a compressor (node:zlib in the
 * desktop's worker), else as it is (the browser). A row holds a string or the packed bytes.
 */
export interface TextPacker {
  /** `text` packed, or undefined to keep it as it is (short, or packing saves little). */
  pack(text: string): Uint8Array | undefined;
  unpack(packed: Uint8Array): string;
}

/** Bumped when the schema or what a row holds changes: an index of another version is rebuilt. */
export const SEARCH_SCHEMA_VERSION = 3;

// contentless_delete (SQLite 3.43+): a contentless FTS5 table whose rows can be deleted without their text.
const SCHEMA = `
CREATE TABLE files(fid INTEGER PRIMARY KEY, file TEXT NOT NULL UNIQUE, stamp TEXT NOT NULL, broken TEXT);
CREATE TABLE parts(rowid INTEGER PRIMARY KEY, fid INTEGER NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, skipped INTEGER NOT NULL, text NOT NULL);
CREATE INDEX parts_fid ON parts(fid);
CREATE VIRTUAL TABLE parts_fts USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER parts_ad AFTER DELETE ON parts BEGIN DELETE FROM parts_fts WHERE rowid = old.rowid; END;
PRAGMA user_version = ${SEARCH_SCHEMA_VERSION};
`;
export interface SearchHit {
  /** The dialog's key as the host gave it (a workspace-relative path). */
  file: string;
  /** The message's id. */
  id: string;
  kind: SearchKind;
  snippet: Snippet;
  /**
   * Higher is better (BM25, sign flipped) among the hits of one MATCH expression (see ftsTiers: a last word
   * typed whole ranks its exact matches before its longer forms); 0 for the regex form without words.
   */
  score: number;
  /** The message is hidden from the AI. */
  skipped: boolean;
}

export interface SearchOptions {
  limit?: number;
  /** The last word matches as a prefix (results as you type). */
  prefixLast?: boolean;
}

export interface SearchResult {
  hits: SearchHit[];
  /** The regex form read every part's text: slower, and said so. */
  scanned: boolean;
}

/** How many parts the regex form reads at most before it stops. */
const REGEX_SCAN_LIMIT = 2_000_000;

/** How many matches' texts the regex form with words reads at a time, best first, until it has its hits. */
const REGEX_CHUNK = 256;

/** What makes two parts the same row: a part whose key is held already is not written again. */
function partKey(id: string, kind: string, skipped: boolean, text: string): string {
  return `${id}\u0000${kind}\u0000${skipped ? 1 : 0}\u0000${text}`;
}

export class SearchIndex {
  constructor(
    private readonly db: SqlDb,
    private readonly packer?: TextPacker,
  ) {
    const version = Number(db.rows('PRAGMA user_version')[0]?.[0] ?? 0);
    if (version !== SEARCH_SCHEMA_VERSION) this.recreate();
  }

  /** Drops everything and lays the schema anew (another version, or a corrupt index). */
  recreate(): void {
    for (const [type, name] of this.db.rows("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'trigger') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'parts_fts_%'")) {
      this.db.exec(`DROP ${type === 'trigger' ? 'TRIGGER' : 'TABLE'} IF EXISTS "${String(name)}"`);
    }
    this.db.exec(SCHEMA);
  }

  /** Runs `fn` in one transaction (a build writes many files per commit). */
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN');
    try {
      const r = fn();
      this.db.exec('COMMIT');
      return r;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /**
   * Merges FTS5's index into one segment. A build of thousands of dialogs leaves it in many, each of which
   * a query looks every word up in: after a big build, this makes queries several times cheaper.
   */
  optimize(): void {
    this.db.exec("INSERT INTO parts_fts(parts_fts) VALUES ('optimize')");
    // The old segments' pages are given back to the file system where the file allows it (auto_vacuum).
    this.db.exec('PRAGMA incremental_vacuum');
  }

  /** Every indexed file with the stamp it was indexed at. */
  stamps(): Map<string, string> {
    return new Map(this.db.rows('SELECT file, stamp FROM files').map(([f, s]) => [String(f), String(s)]));
  }

  /** The stamp `file` was indexed at (undefined: not indexed). */
  stamp(file: string): string | undefined {
    const r = this.db.rows('SELECT stamp FROM files WHERE file = ?', [file])[0];
    return r ? String(r[0]) : undefined;
  }

  /** The files that could not be read as dialogs, with why. */
  broken(): { file: string; reason: string }[] {
    return this.db.rows('SELECT file, broken FROM files WHERE broken IS NOT NULL ORDER BY file').map(([file, reason]) => ({ file: String(file), reason: String(reason) }));
  }

  /**
   * Replaces what the index holds of `file`. Parts the index already holds unchanged stay as they are: a
   * saved edit of one cell of a 2,000-cell dialog re-tokenizes that cell, not the dialog.
   */
  put(file: string, stamp: string, parts: readonly SearchPart[]): void {
    const fid = this.fileRow(file, stamp, null);
    const held = new Map<string, number[]>();
    for (const [rowid, id, kind, skipped, text] of this.db.rows('SELECT rowid, id, kind, skipped, text FROM parts WHERE fid = ?', [fid])) {
      const key = partKey(String(id), String(kind), Number(skipped) !== 0, this.text(text));
      held.set(key, [...(held.get(key) ?? []), Number(rowid)]);
    }
    for (const p of parts) {
      const same = held.get(partKey(p.id, p.kind, p.skipped, p.text));
      if (same?.length) same.pop();
      else this.insert(fid, p);
    }
    for (const rowids of held.values()) for (const rowid of rowids) this.db.exec('DELETE FROM parts WHERE rowid = ?', [rowid]);
  }

  /**
   * Replaces the parts of the messages `ids` of `file` with `parts` (theirs now; none: gone), while the
   * index holds `file` as it was at `expect`: an open dialog's edit re-indexes the messages it changed, not
   * the dialog. False, and nothing done, when the index holds another version of `file`.
   */
  putMessages(file: string, expect: string, stamp: string, ids: readonly string[], parts: readonly SearchPart[]): boolean {
    if (this.stamp(file) !== expect) return false;
    const fid = this.fileRow(file, stamp, null);
    for (const id of ids) this.db.exec('DELETE FROM parts WHERE fid = ? AND id = ?', [fid, id]);
    for (const p of parts) this.insert(fid, p);
    return true;
  }

  /** Adds one part: its row (the text packed where the host can) and its words to FTS5's index. */
  private insert(fid: number, p: SearchPart): void {
    this.db.exec('INSERT INTO parts(fid, id, kind, skipped, text) VALUES (?, ?, ?, ?, ?)', [fid, p.id, p.kind, p.skipped ? 1 : 0, this.packer?.pack(p.text) ?? p.text]);
    this.db.exec('INSERT INTO parts_fts(rowid, text) VALUES (last_insert_rowid(), ?)', [p.text]);
  }

  /** A part's text as its row holds it: as it is, or packed. */
  private text(v: SqlValue): string {
    if (!(v instanceof Uint8Array)) return String(v);
    if (!this.packer) throw new Error('the search index holds packed text and this host cannot unpack it');
    return this.packer.unpack(v);
  }

  /** Records `file` as unreadable at `stamp` (counted, listed, not searched). */
  putBroken(file: string, stamp: string, reason: string): void {
    this.db.exec('DELETE FROM parts WHERE fid = ?', [this.fileRow(file, stamp, reason)]);
  }

  /** Forgets `file` (deleted, renamed away, or no longer a dialog). */
  remove(file: string): void {
    this.db.exec('DELETE FROM parts WHERE fid = (SELECT fid FROM files WHERE file = ?)', [file]);
    this.db.exec('DELETE FROM files WHERE file = ?', [file]);
  }

  /** `file`'s row with its new stamp (made if missing, keeping its number if not): its number. */
  private fileRow(file: string, stamp: string, broken: string | null): number {
    const [[fid]] = this.db.rows('INSERT INTO files(file, stamp, broken) VALUES (?, ?, ?) ON CONFLICT(file) DO UPDATE SET stamp = excluded.stamp, broken = excluded.broken RETURNING fid', [file, stamp, broken]);
    return Number(fid);
  }

  /** The best hits for `q`, best first. */
  search(q: SearchQuery, opts: SearchOptions = {}): SearchResult {
    const limit = Math.max(1, Math.min(opts.limit ?? 50, 1000));
    if (isEmptyQuery(q)) return { hits: [], scanned: false };
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (q.kinds.length) {
      where.push(`p.kind IN (${q.kinds.map(() => '?').join(', ')})`);
      params.push(...q.kinds);
    }
    if (q.folders.length) {
      where.push(`(${q.folders.map(() => "f.file LIKE ? ESCAPE '\\'").join(' OR ')})`);
      params.push(...q.folders.map((f) => f.replace(/[\\%_]/g, (c) => '\\' + c) + '%'));
    }
    const tiers = ftsTiers(q, { prefixLast: opts.prefixLast });
    if (tiers === null) return this.scan(q, where, params, limit);
    if (q.regex) return this.regexMatches(tiers, q.regex, where, params, limit);
    const ranked: [rowid: number, rank: number][] = [];
    for (const match of tiers) {
      if (ranked.length < limit) ranked.push(...this.rank(match, where, params, limit - ranked.length));
    }
    const rows = this.partRows(ranked.map(([rowid]) => rowid));
    const terms = termPattern(q, { prefixLast: opts.prefixLast });
    const hits: SearchHit[] = [];
    for (const [rowid, rank] of ranked) {
      const r = rows.get(rowid);
      if (!r) continue;
      const text = this.text(r[4]);
      hits.push({ ...this.hitOf(r), snippet: (terms && termSnippet(text, terms)) ?? headSnippet(text), score: -rank });
    }
    return { hits, scanned: false };
  }

  /**
   * The best `limit` parts (all: -1) matching `match` and the filters, best first, with their BM25 rank (lower
   * is better). Ranked by SQLite's sorter, which keeps the best `limit` only, and not by FTS5's `ORDER BY rank`
   * (its hidden column), which keeps every match with its positions; nothing else is read until these are chosen.
   */
  private rank(match: string, where: string[], params: SqlValue[], limit: number): [number, number][] {
    const joins = where.length ? ' JOIN parts p ON p.rowid = parts_fts.rowid JOIN files f ON f.fid = p.fid' : '';
    const sql = `SELECT parts_fts.rowid, bm25(parts_fts) AS score FROM parts_fts${joins} WHERE parts_fts MATCH ?${where.map((w) => ' AND ' + w).join('')} ORDER BY score LIMIT ?`;
    return this.db.rows(sql, [match, ...params, limit]).map(([rowid, rank]) => [Number(rowid), Number(rank)]);
  }

  /** The rows of these parts, by row number: file, id, kind, skipped, text. */
  private partRows(rowids: number[]): Map<number, SqlValue[]> {
    if (!rowids.length) return new Map();
    const sql = 'SELECT p.rowid, f.file, p.id, p.kind, p.skipped, p.text FROM parts p JOIN files f ON f.fid = p.fid WHERE p.rowid IN (SELECT value FROM json_each(?))';
    return new Map(this.db.rows(sql, [JSON.stringify(rowids)]).map(([rowid, ...r]) => [Number(rowid), r]));
  }

  private hitOf(r: SqlValue[]): Pick<SearchHit, 'file' | 'id' | 'kind' | 'skipped'> {
    return { file: String(r[0]), id: String(r[1]), kind: String(r[2]) as SearchKind, skipped: Number(r[3]) !== 0 };
  }

  /** The regex form with words: the words' matches, best first, read a chunk at a time and tested. */
  private regexMatches(tiers: string[], re: RegExp, where: string[], params: SqlValue[], limit: number): SearchResult {
    const hits: SearchHit[] = [];
    for (const match of tiers) {
      const ranked = this.rank(match, where, params, -1);
      for (let k = 0; k < ranked.length && hits.length < limit; k += REGEX_CHUNK) {
        const chunk = ranked.slice(k, k + REGEX_CHUNK);
        const rows = this.partRows(chunk.map(([rowid]) => rowid));
        for (const [rowid, rank] of chunk) {
          const r = rows.get(rowid);
          const snippet = r && regexSnippet(this.text(r[4]), re);
          if (snippet && hits.length < limit) hits.push({ ...this.hitOf(r), snippet, score: -rank });
        }
      }
    }
    return { hits, scanned: true };
  }

  /** The regex form without words: every part's text read and tested. */
  private scan(q: SearchQuery, where: string[], params: SqlValue[], limit: number): SearchResult {
    const re = q.regex;
    if (!re) return { hits: [], scanned: false };
    const negs = q.terms.filter((t) => t.negated).map((t) => t.text.toLowerCase());
    const sql = `SELECT f.file, p.id, p.kind, p.skipped, p.text FROM parts p JOIN files f ON f.fid = p.fid${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY f.file, p.rowid LIMIT ${REGEX_SCAN_LIMIT}`;
    const hits: SearchHit[] = [];
    for (const r of this.db.rows(sql, params)) {
      const text = this.text(r[4]);
      if (negs.some((n) => text.toLowerCase().includes(n))) continue;
      const snippet = regexSnippet(text, re);
      if (!snippet) continue;
      hits.push({ ...this.hitOf(r), snippet, score: 0 });
      if (hits.length >= limit) break;
    }
    return { hits, scanned: true };
  }
}
