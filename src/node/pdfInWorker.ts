// A PDF's text for read_url on the desktop, read in a worker thread (pdfWorker.ts, dist/lazy/pdf.js) that
// ends with the answer: see pdfWorker.ts for why not in the extension host itself.

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

type Reply = { ok: true; result: { text: string; pages: number } } | { ok: false; message: string };

/** The PDF `bytes`' text and page count, from a worker started for it; rejects with pdf.js's error. */
export function pdfInWorker(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const worker = new Worker(join(__dirname, 'lazy', 'pdf.js'));
  return new Promise<{ text: string; pages: number }>((resolve, reject) => {
    worker.once('message', (m: Reply) => (m.ok ? resolve(m.result) : reject(new Error(m.message))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PDF reader stopped (exit code ${code})`)));
    worker.postMessage(bytes);
  }).finally(() => void worker.terminate());
}
