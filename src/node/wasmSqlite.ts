// SQLite compiled to WebAssembly (@sqlite.org/sqlite-wasm, FTS5 built in) as the search index's SqlDb: one
// in-memory database, saved and loaded whole as the bytes of an SQLite file. It runs on any Node the
// extension meets (VS Code's Electron, code-server, the CLI's Node 20), where node:sqlite may be missing.

import type { BindingSpec, PreparedStatement, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqlDb, SqlValue } from '../core';

export interface WasmSqlite extends SqlDb {
  /** The database as the bytes of an SQLite file. */
  save(): Uint8Array;
  close(): void;
}

let engine: Promise<Sqlite3Static> | undefined;

/** Loads the engine once; `wasmBinary` is the sqlite3.wasm bytes where the bundle cannot find them itself. */
export function loadSqlite(wasmBinary?: Uint8Array): Promise<Sqlite3Static> {
  engine ??= import('@sqlite.org/sqlite-wasm').then((m) =>
    (m.default as unknown as (opts?: object) => Promise<Sqlite3Static>)({
      // With the bytes given, the file is never fetched; naming it keeps the engine from resolving its URL
      // against the bundle's location, which a web worker's blob URL cannot be.
      ...(wasmBinary ? { wasmBinary, locateFile: (f: string) => f } : {}),
      print: () => undefined,
      printErr: () => undefined,
    }),
  );
  return engine;
}

/** A database: empty, or the SQLite file `bytes` (throws when they are not one). */
export function openWasmSqlite(sqlite3: Sqlite3Static, bytes?: Uint8Array): WasmSqlite {
  const db = new sqlite3.oo1.DB(':memory:');
  if (bytes?.length) {
    const p = sqlite3.wasm.allocFromTypedArray(bytes);
    const rc = sqlite3.capi.sqlite3_deserialize(db.pointer!, 'main', p, bytes.length, bytes.length,
      sqlite3.capi.SQLITE_DESERIALIZE_FREEONCLOSE | sqlite3.capi.SQLITE_DESERIALIZE_RESIZEABLE);
    if (rc) {
      db.close();
      throw new Error(`not an SQLite database (sqlite3_deserialize: ${rc})`);
    }
    // A damaged file deserializes; reading it is what tells.
    const ok = db.selectValue('PRAGMA quick_check');
    if (ok !== 'ok') {
      db.close();
      throw new Error(`damaged index: ${String(ok)}`);
    }
  }
  // Statements with parameters are prepared once and reused: indexing a dialog runs the same insert for
  // each of its parts, and preparing it anew each time was a third of a big dialog's re-index.
  const prepared = new Map<string, PreparedStatement>();
  const run = <T>(sql: string, params: SqlValue[], each: (s: PreparedStatement) => T): T[] => {
    let stmt = prepared.get(sql);
    if (!stmt) prepared.set(sql, (stmt = db.prepare(sql)));
    const out: T[] = [];
    try {
      if (params.length) stmt.bind(params as BindingSpec);
      while (stmt.step()) out.push(each(stmt));
    } finally {
      stmt.reset(true);
    }
    return out;
  };
  const finalize = () => {
    for (const s of prepared.values()) s.finalize();
    prepared.clear();
  };
  return {
    exec: (sql, params) => {
      if (!params) {
        // Schema changes (a rebuild) leave prepared statements of the old tables behind.
        if (/^\s*(CREATE|DROP)\b/i.test(sql)) finalize();
        db.exec(sql);
      } else run(sql, params, () => undefined);
    },
    rows: (sql, params) => run(sql, params ?? [], (s) => s.get([]) as SqlValue[]),
    save: () => sqlite3.capi.sqlite3_js_db_export(db.pointer!),
    close: () => {
      finalize();
      db.close();
    },
  };
}
