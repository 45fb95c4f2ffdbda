// The search index over any SQLite with FTS5 (the host brings the engine as a SqlDb): one row per message
// part in `parts`, FTS5 over their text (BM25 ranking, snippet()), and per file the stamp it was indexed at
// so a later session re-reads only what changed. A part names its file by the file's row number (`fid`),
// not its path: the path in every part and in the index over them was 4% of the index's size.

import { SearchKind, SearchPart } from './parts';
import { SearchQuery, ftsMatch, isEmptyQuery } from './query';
import { HIT_CLOSE, HIT_OPEN, Snippet, regexSnippet, shapeSnippet } from './snippet';

export type SqlValue = string | number | null;

/** The little of an SQLite connection the index uses. */
export interface SqlDb {
  exec(sql: string, params?: SqlValue[]): void;
  rows(sql: string, params?: SqlValue[]): SqlValue[][];
}

/** Bumped when the schema or what a row holds changes: an index of another version is rebuilt. */
export const SEARCH_SCHEMA_VERSION = 2;

const SCHEMA = `
CREATE TABLE files(fid INTEGER PRIMARY KEY, file TEXT NOT NULL UNIQUE, stamp TEXT NOT NULL, broken TEXT);
CREATE TABLE parts(rowid INTEGER PRIMARY KEY, fid INTEGER NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, skipped INTEGER NOT NULL, text TEXT NOT NULL);
CREATE INDEX parts_fid ON parts(fid);
CREATE VIRTUAL TABLE parts_fts USING fts5(text, content='parts', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER parts_ai AFTER INSERT ON parts BEGIN INSERT INTO parts_fts(rowid, text) VALUES (new.rowid, new.text); END;
CREATE TRIGGER parts_ad AFTER DELETE ON parts BEGIN INSERT INTO parts_fts(parts_fts, rowid, text) VALUES ('delete', old.rowid, old.text); END;
PRAGMA user_version = ${SEARCH_SCHEMA_VERSION};
`;
export interface SearchHit {
  /** The dialog's key as the host gave it (a workspace-relative path). */
  file: string;
  /** The message's id. */
  id: string;
  kind: SearchKind;
  snippet: Snippet;
  /** Higher is better (BM25, sign flipped); 0 for the regex form without words. */
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

/** What makes two parts the same row: a part whose key is held already is not written again. */
function partKey(id: string, kind: string, skipped: boolean, text: string): string {
  return `${id}\u0000${kind}\u0000${skipped ? 1 : 0}\u0000${text}`;
}

export class SearchIndex {
  constructor(private readonly db: SqlDb) {
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
      const key = partKey(String(id), String(kind), Number(skipped) !== 0, String(text));
      held.set(key, [...(held.get(key) ?? []), Number(rowid)]);
    }
    for (const p of parts) {
      const same = held.get(partKey(p.id, p.kind, p.skipped, p.text));
      if (same?.length) same.pop();
      else this.db.exec('INSERT INTO parts(fid, id, kind, skipped, text) VALUES (?, ?, ?, ?, ?)', [fid, p.id, p.kind, p.skipped ? 1 : 0, p.text]);
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
    for (const p of parts) this.db.exec('INSERT INTO parts(fid, id, kind, skipped, text) VALUES (?, ?, ?, ?, ?)', [fid, p.id, p.kind, p.skipped ? 1 : 0, p.text]);
    return true;
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
    const match = ftsMatch(q, { prefixLast: opts.prefixLast });
    if (match === null) return this.scan(q, where, params, limit);
    const snippet = `snippet(parts_fts, 0, '${HIT_OPEN}', '${HIT_CLOSE}', '…', 16)`;
    const filters = where.map((w) => ' AND ' + w).join('');
    // `ORDER BY rank LIMIT`: FTS5 ranks the matches (BM25) itself and the snippet, which re-reads its part's
    // text, is made for the rows returned only; the regex form reads every match's text, tests it and makes
    // its own snippet (no FTS5 snippet() for every match).
    const sql = q.regex
      ? `SELECT f.file, p.id, p.kind, p.skipped, NULL, parts_fts.rank, p.text FROM parts_fts JOIN parts p ON p.rowid = parts_fts.rowid JOIN files f ON f.fid = p.fid WHERE parts_fts MATCH ?${filters} ORDER BY parts_fts.rank`
      : `SELECT f.file, p.id, p.kind, p.skipped, ${snippet}, parts_fts.rank FROM parts_fts JOIN parts p ON p.rowid = parts_fts.rowid JOIN files f ON f.fid = p.fid WHERE parts_fts MATCH ?${filters} ORDER BY parts_fts.rank LIMIT ?`;
    const hits: SearchHit[] = [];
    for (const r of this.db.rows(sql, q.regex ? [match, ...params] : [match, ...params, limit])) {
      const snippet = q.regex ? regexSnippet(String(r[6]), q.regex) : shapeSnippet(String(r[4]));
      if (!snippet) continue;
      hits.push({ file: String(r[0]), id: String(r[1]), kind: String(r[2]) as SearchKind, skipped: Number(r[3]) !== 0, snippet, score: -Number(r[5]) });
      if (hits.length >= limit) break;
    }
    return { hits, scanned: !!q.regex };
  }

  /** The regex form without words: every part's text read and tested. */
  private scan(q: SearchQuery, where: string[], params: SqlValue[], limit: number): SearchResult {
    const re = q.regex;
    if (!re) return { hits: [], scanned: false };
    const negs = q.terms.filter((t) => t.negated).map((t) => t.text.toLowerCase());
    const sql = `SELECT f.file, p.id, p.kind, p.skipped, p.text FROM parts p JOIN files f ON f.fid = p.fid${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY f.file, p.rowid LIMIT ${REGEX_SCAN_LIMIT}`;
    const hits: SearchHit[] = [];
    for (const r of this.db.rows(sql, params)) {
      const text = String(r[4]);
      if (negs.some((n) => text.toLowerCase().includes(n))) continue;
      const snippet = regexSnippet(text, re);
      if (!snippet) continue;
      hits.push({ file: String(r[0]), id: String(r[1]), kind: String(r[2]) as SearchKind, skipped: Number(r[3]) !== 0, snippet, score: 0 });
      if (hits.length >= limit) break;
    }
    return { hits, scanned: true };
  }
}
