// The search worker's entry (dist/searchWorker.js, see node/searchWorker.ts): answers each call of the
// extension host in order, one at a time.

import { parentPort } from 'node:worker_threads';
import { IndexCalls, IndexMethod } from '../extension/search/indexCalls';
import { openNodeSqliteFile, removeIndexFile } from './nodeSqlite';
import { zlibTextPacker } from './textPacker';

// The index on disk where this Node has node:sqlite with FTS5; sqlite-wasm in memory where not; either way
// the stored text packed with node:zlib.
const calls = new IndexCalls({ open: openNodeSqliteFile, remove: removeIndexFile }, zlibTextPacker);
let queue: Promise<unknown> = Promise.resolve();
parentPort!.on('message', ({ id, method, args }: { id: number; method: IndexMethod; args: unknown[] }) => {
  queue = queue.then(async () => {
    try {
      const result = await (calls[method] as (...a: unknown[]) => unknown)(...args);
      parentPort!.postMessage({ id, result });
    } catch (e) {
      parentPort!.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
    }
  });
});
