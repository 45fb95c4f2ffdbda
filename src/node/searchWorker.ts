// The search index in a worker thread (the desktop): the extension host posts calls and awaits their
// answers, so parsing and indexing thousands of dialogs never stalls the window's extension host.
// The worker's code is node/searchWorkerMain.ts, bundled as dist/searchWorker.js beside the extension.

import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { IndexClient } from '../extension/search/indexCalls';

export function searchIndexWorker(): IndexClient {
  const worker = new Worker(join(__dirname, 'searchWorker.js'));
  // An idle worker does not keep the extension host's process alive.
  worker.unref();
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 0;
  let dead: Error | undefined;
  const failAll = (e: Error) => {
    dead = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p?.reject(new Error(m.error));
    else p?.resolve(m.result);
  });
  worker.on('error', (e) => failAll(new Error(`the search worker failed: ${e.message}`)));
  worker.on('exit', (code) => failAll(new Error(`the search worker exited (${code})`)));
  return {
    call: (method, ...args) =>
      new Promise((resolve, reject) => {
        if (dead) return reject(dead);
        const id = next++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ id, method, args });
      }),
    dispose: () => void worker.terminate(),
  };
}
