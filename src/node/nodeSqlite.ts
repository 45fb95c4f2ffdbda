// node:sqlite (the SQLite built into Node 22.13+) on a file as the search index's SqlDb: the index lives on
// disk with a small page cache, so a 10,000-dialog index costs the process tens of MB, not its size, and
// every commit is already saved. Used where the running Node has the module and its SQLite holds FTS5
// and is 3.43+ (checked at run time); elsewhere (the CLI's Node 20, VS Code builds whose Node lacks it,
// the browser) the index is sqlite-wasm in memory (node/wasmSqlite.ts).

import { rmSync } from 'node:fs';
import type { SqlDb, SqlValue } from '../core';

/** The little of node:sqlite used here (its types are not in the @types/node of Node 20). */
interface Statement {
  run(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): Record<string, SqlValue>[] | SqlValue[][];
  setReturnArrays?(on: boolean): void;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
type DatabaseSync = new (file: string) => Database;

export interface FileSqlite extends SqlDb {
  /** Which engine, for the log: "node:sqlite 3.50.4". */
  readonly engine: string;
  close(): void;
}

/** Page cache per connection: what the index holds in memory however big it is. */
const CACHE_KB = 16_000;

let loaded: DatabaseSync | null | undefined;

/** The oldest SQLite the index's schema runs on: FTS5's contentless_delete came in 3.43. */
const MIN_SQLITE = [3, 43];

/** node:sqlite's DatabaseSync, if this Node has it and its SQLite is built with FTS5 and new enough; else undefined. */
export function nodeSqlite(): DatabaseSync | undefined {
  if (loaded === undefined) {
    loaded = null;
    try {
      // getBuiltinModule (Node 20.16+) returns undefined where the module is missing, and keeps bundlers
      // from trying to resolve it; Node 22.5–22.12 throws without --experimental-sqlite.
      const get = (process as { getBuiltinModule?: (id: string) => { DatabaseSync?: DatabaseSync } | undefined }).getBuiltinModule;
      const DB = get?.('node:sqlite')?.DatabaseSync;
      if (DB) {
        const probe = new DB(':memory:');
        try {
          const options = rows(statement(probe, 'PRAGMA compile_options'), []).map((r) => String(r[0]));
          const [major, minor] = String(rows(statement(probe, 'SELECT sqlite_version()'), [])[0][0]).split('.').map(Number);
          const recent = major > MIN_SQLITE[0] || (major === MIN_SQLITE[0] && minor >= MIN_SQLITE[1]);
          if (options.includes('ENABLE_FTS5') && recent) loaded = DB;
        } finally {
          probe.close();
        }
      }
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

/** A statement whose rows come as arrays where the Node can (22.16+, 24). */
function statement(db: Database, sql: string): Statement {
  const stmt = db.prepare(sql);
  stmt.setReturnArrays?.(true);
  return stmt;
}

function rows(stmt: Statement, params: SqlValue[]): SqlValue[][] {
  const out = stmt.all(...params);
  // Else the row objects' values, in column order.
  return stmt.setReturnArrays ? (out as SqlValue[][]) : (out as Record<string, SqlValue>[]).map((r) => Object.values(r));
}

/** Opens the index file `file` (created if missing); throws when it is not a readable SQLite database. */
function openFile(DB: DatabaseSync, file: string): FileSqlite {
  const db = new DB(file);
  const prepared = new Map<string, Statement>();
  const prepare = (sql: string) => {
    let stmt = prepared.get(sql);
    if (!stmt) prepared.set(sql, (stmt = statement(db, sql)));
    return stmt;
  };
  try {
    // WAL: a commit appends to the log instead of rewriting pages and syncing twice; NORMAL syncs at
    // checkpoints only (a crash may lose the last commits, never the file: the stamps tell what to re-read).
    // auto_vacuum (taken by a new file only): pages freed by merging FTS5's segments are given back.
    db.exec(`PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -${CACHE_KB}; PRAGMA temp_store = MEMORY;`);
    // A file that is not a database, or a damaged schema, fails here.
    rows(statement(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"), []);
  } catch (e) {
    db.close();
    throw e;
  }
  const [[version]] = rows(statement(db, 'SELECT sqlite_version()'), []);
  return {
    engine: `node:sqlite ${String(version)}`,
    exec: (sql, params) => {
      if (params) return void prepare(sql).run(...params);
      // Schema changes (a rebuild) leave statements of the old tables behind.
      if (/^\s*(CREATE|DROP)\b/i.test(sql)) prepared.clear();
      db.exec(sql);
    },
    rows: (sql, params) => rows(prepare(sql), params ?? []),
    close: () => {
      prepared.clear();
      db.close();
    },
  };
}

/** Removes an index file with its write-ahead log. */
export function removeIndexFile(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

/** The index file `file` opened with node:sqlite (created if missing), or undefined where this Node cannot. */
export function openNodeSqliteFile(file: string): FileSqlite | undefined {
  const DB = nodeSqlite();
  return DB && openFile(DB, file);
}
