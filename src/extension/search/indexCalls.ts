// What the search index does, as calls a worker can answer: the desktop runs them in a worker thread
// (node/searchWorker.ts), so parsing and indexing a big dialog never holds up the extension host; the
// browser build, whose extension host is itself a web worker, runs them in place. No `vscode` here.

import { DialogReadError, readIpynb } from '../../core/ipynb';
import { SearchIndex, SearchOptions, SearchPart, SearchQuery, SearchResult, SqlDb, TextPacker, dialogParts } from '../../core/search';
import { loadSqlite, openWasmSqlite } from '../../node/wasmSqlite';

/** A connection the index runs on: sqlite-wasm's can also give itself as bytes. */
type Db = SqlDb & { close(): void; save?(): Uint8Array };

/** An engine that keeps the index in a file (the desktop worker's node:sqlite); see node/nodeSqlite.ts. */
export interface FileEngine {
  /** The database in `file`, created if missing; undefined where this runtime has no such engine. */
  open(file: string): (Db & { engine: string }) | undefined;
  /** Deletes the file and what the engine keeps beside it. */
  remove(file: string): void;
}

/** What SQLite says of a file that is not, or no longer, a sound database. */
const DAMAGED = /database disk image is malformed|file is not a database|SQLITE_CORRUPT|SQLITE_NOTADB|vtable constructor failed/i;

/** A file's text as its parts, or why it is not a dialog. */
function partsOf(file: string, text: string): SearchPart[] | string {
  try {
    return dialogParts(readIpynb(text, file));
  } catch (e) {
    return e instanceof DialogReadError ? e.message : `unreadable: ${e instanceof Error ? e.message : String(e)}`;
  }
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class IndexCalls {
  private db?: Db;
  private index?: SearchIndex;
  /** The index's file, when it is kept in one. */
  private file?: string;

  /** `packer`: how the host packs the stored text (none: kept as it is). */
  constructor(
    private readonly fileEngine?: FileEngine,
    private readonly packer?: TextPacker,
  ) {}

  /**
   * Opens the index kept in the file `file` where this runtime has an engine for files: the engine's name,
   * and why, if the file was damaged and replaced by an empty index. Undefined: no such engine here.
   */
  openFile(file: string): { engine: string; damaged?: string } | undefined {
    const engine = this.fileEngine;
    if (!engine) return undefined;
    this.close();
    try {
      const db = engine.open(file);
      if (!db) return undefined;
      this.use(db);
      this.file = file;
      return { engine: db.engine };
    } catch (e) {
      this.close();
      engine.remove(file);
      const db = engine.open(file)!;
      this.use(db);
      this.file = file;
      return { engine: db.engine, damaged: message(e) };
    }
  }

  /** Opens the index saved as `saved` in memory; a damaged one is replaced by an empty index, and why is returned. */
  async open(wasm: Uint8Array, saved?: Uint8Array): Promise<string | undefined> {
    const sqlite3 = await loadSqlite(wasm);
    this.close();
    try {
      this.use(openWasmSqlite(sqlite3, saved));
      return undefined;
    } catch (e) {
      this.close();
      this.use(openWasmSqlite(sqlite3));
      return message(e);
    }
  }

  private use(db: Db): void {
    this.db = db;
    try {
      this.index = new SearchIndex(db, this.packer);
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** Every indexed file with the stamp it was indexed at. */
  stamps(): [string, string][] {
    // Asked first by a sync: a damaged index answers empty once emptied, and all is read into it again.
    return this.guard(() => [...this.opened().stamps()], true);
  }

  stamp(file: string): string | undefined {
    return this.guard(() => this.opened().stamp(file), true);
  }

  broken(): { file: string; reason: string }[] {
    return this.guard(() => this.opened().broken(), true);
  }

  /** Indexes a file's text as a dialog, or records why it cannot be read as one. */
  putText(file: string, stamp: string, text: string): void {
    this.putTexts([[file, stamp, text]]);
  }

  /** Indexes many files in one transaction (a build: one commit for many dialogs, not one each). */
  putTexts(files: [file: string, stamp: string, text: string][]): void {
    const index = this.opened();
    this.guard(() =>
      index.transaction(() => {
        for (const [file, stamp, text] of files) {
          const parts = partsOf(file, text);
          if (typeof parts === 'string') index.putBroken(file, stamp, parts);
          else index.put(file, stamp, parts);
        }
      }),
    );
  }

  putParts(file: string, stamp: string, parts: SearchPart[]): void {
    const index = this.opened();
    this.guard(() => index.transaction(() => index.put(file, stamp, parts)));
  }

  /** See SearchIndex.putMessages: false when the index holds another version of `file`. */
  putMessages(file: string, expect: string, stamp: string, ids: string[], parts: SearchPart[]): boolean {
    const index = this.opened();
    return this.guard(() => index.transaction(() => index.putMessages(file, expect, stamp, ids, parts)));
  }

  putBroken(file: string, stamp: string, reason: string): void {
    const index = this.opened();
    this.guard(() => index.putBroken(file, stamp, reason));
  }

  remove(files: string[]): void {
    const index = this.opened();
    this.guard(() => index.transaction(() => files.forEach((f) => index.remove(f))));
  }

  /** After a big build: FTS5's index merged into one segment (see SearchIndex.optimize). */
  optimize(): void {
    const index = this.opened();
    this.guard(() => index.optimize());
  }

  search(q: SearchQuery, opts: SearchOptions): SearchResult {
    const index = this.opened();
    return this.guard(() => index.search(q, opts));
  }

  /** How many bytes the index's SQLite file is (the log says it after a build; the scale bench compares it with the text). */
  size(): number {
    this.opened();
    const [[pages, pageSize]] = this.db!.rows('SELECT page_count, page_size FROM pragma_page_count, pragma_page_size');
    return Number(pages) * Number(pageSize);
  }

  /** The index as the bytes of an SQLite file to store; undefined when it is kept in its file already. */
  save(): Uint8Array | undefined {
    if (!this.db) throw new Error('the search index is not open');
    return this.db.save?.();
  }

  close(): void {
    this.db?.close();
    this.db = this.index = this.file = undefined;
  }

  /**
   * Runs `fn`; when SQLite finds the index file damaged, the file is replaced by an empty index and `fn` is
   * asked again (`again`, a question) or the error says "damaged index" (the host then syncs), never a crash.
   */
  private guard<T>(fn: () => T, again = false): T {
    try {
      return fn();
    } catch (e) {
      const file = this.file;
      if (!file || !this.fileEngine || !DAMAGED.test(message(e))) throw e;
      this.close();
      this.fileEngine.remove(file);
      this.openFile(file);
      if (again) return fn();
      throw new Error(`damaged index, emptied to be rebuilt: ${message(e)}`, { cause: e });
    }
  }

  private opened(): SearchIndex {
    if (!this.index) throw new Error('the search index is not open');
    return this.index;
  }
}

export type IndexMethod = Exclude<keyof IndexCalls, 'constructor'>;

/** The index as the extension host reaches it: each call answered later, in a worker or in place. */
export interface IndexClient {
  call<M extends IndexMethod>(method: M, ...args: Parameters<IndexCalls[M]>): Promise<Awaited<ReturnType<IndexCalls[M]>>>;
  dispose(): void;
}

/** The index in this thread (the browser build). */
export function inPlaceIndex(): IndexClient {
  const calls = new IndexCalls();
  return {
    call: async (method, ...args) => (calls[method] as (...a: unknown[]) => unknown)(...args) as never,
    dispose: () => calls.close(),
  };
}
