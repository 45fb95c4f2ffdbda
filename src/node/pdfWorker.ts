// The worker thread that reads a PDF's text for read_url (dist/lazy/pdf.js, started by pdfInWorker.ts).
// pdf.js wants a `navigator` it can fill in, which VS Code's extension host forbids (its `navigator` is a
// getter that reports an error); a worker has Node's own globals, and keeps the parse off the host's thread.

import { parentPort } from 'node:worker_threads';
import { pdfToText } from './pdfText';

parentPort?.once('message', (bytes: Uint8Array) => {
  pdfToText(bytes).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (e: unknown) => parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
});
