// What the search index does, as calls a worker can answer: the desktop runs them in a worker thread
// (node/searchWorker.ts), so parsing and indexing a big dialog never holds up the extension host; the
// browser build, whose extension host is itself a web worker, runs them in place. No `vscode` here.

import { DialogReadError, readIpynb } from '../../core/ipynb';
import { SearchIndex, SearchOptions, SearchPart, SearchQuery, SearchResult, dialogParts } from '../../core/search';
import { loadSqlite, openWasmSqlite, WasmSqlite } from '../../node/wasmSqlite';

export class IndexCalls {
  private db?: WasmSqlite;
  private index?: SearchIndex;

  /** Opens the index saved as `saved`; a damaged one is replaced by an empty index, and why is returned. */
  async open(wasm: Uint8Array, saved?: Uint8Array): Promise<string | undefined> {
    const sqlite3 = await loadSqlite(wasm);
    try {
      this.db = openWasmSqlite(sqlite3, saved);
      this.index = new SearchIndex(this.db);
      return undefined;
    } catch (e) {
      this.db = openWasmSqlite(sqlite3);
      this.index = new SearchIndex(this.db);
      return e instanceof Error ? e.message : String(e);
    }
  }

  /** Every indexed file with the stamp it was indexed at. */
  stamps(): [string, string][] {
    return [...this.opened().stamps()];
  }

  stamp(file: string): string | undefined {
    return this.opened().stamp(file);
  }

  broken(): { file: string; reason: string }[] {
    return this.opened().broken();
  }

  /** Indexes a file's text as a dialog, or records why it cannot be read as one. */
  putText(file: string, stamp: string, text: string): void {
    const index = this.opened();
    let parts: SearchPart[];
    try {
      parts = dialogParts(readIpynb(text, file));
    } catch (e) {
      return index.putBroken(file, stamp, e instanceof DialogReadError ? e.message : `unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
    index.transaction(() => index.put(file, stamp, parts));
  }

  putParts(file: string, stamp: string, parts: SearchPart[]): void {
    const index = this.opened();
    index.transaction(() => index.put(file, stamp, parts));
  }

  putBroken(file: string, stamp: string, reason: string): void {
    this.opened().putBroken(file, stamp, reason);
  }

  remove(files: string[]): void {
    const index = this.opened();
    index.transaction(() => files.forEach((f) => index.remove(f)));
  }

  search(q: SearchQuery, opts: SearchOptions): SearchResult {
    return this.opened().search(q, opts);
  }

  /** How many bytes the index's SQLite file is (the log says it after a build; the scale bench compares it with the text). */
  size(): number {
    this.opened();
    const [[pages, pageSize]] = this.db!.rows('SELECT page_count, page_size FROM pragma_page_count, pragma_page_size');
    return Number(pages) * Number(pageSize);
  }

  /** The index as the bytes of an SQLite file. */
  save(): Uint8Array {
    if (!this.db) throw new Error('the search index is not open');
    return this.db.save();
  }

  close(): void {
    this.db?.close();
    this.db = this.index = undefined;
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
