// Message search (issue 53): building the FTS5 index of a workspace of dialogs and querying it, beside
// `grep -rlF` over the same files in the same run (ripgrep is not on this machine: grep is the peer here).
// The workspace is the corpus copied SEARCH_BENCH_COPIES times (default 5) into a temporary folder.
// Then the window's side of a build: the event loop's delay while a build runs in the search worker (as the
// desktop extension does, dist/searchWorker.js) beside the same build in this thread, a file at a time.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const core = require('../dist/core.js');
const sqlite = require('../dist/lazy/sqlite.js');
const shared = join(root, '..', 'shared', 'corpus');
const copies = Number(process.env.SEARCH_BENCH_COPIES ?? 5);

const sources = [];
for (const set of ['public', 'synthetic', 'perf']) {
  for (const f of readdirSync(join(shared, set)).filter((f) => f.endsWith('.ipynb'))) sources.push({ name: `${set}/${f}`, text: readFileSync(join(shared, set, f), 'utf8') });
}
const ws = mkdtempSync(join(tmpdir(), 'dialog-search-bench-'));
let bytes = 0;
const files = [];
for (let c = 0; c < copies; c++) {
  for (const s of sources) {
    const rel = `copy${c}/${s.name}`;
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), s.text);
    bytes += s.text.length;
    files.push(rel);
  }
}

const sqlite3 = await sqlite.default({ wasmBinary: readFileSync(join(root, 'dist', 'sqlite3.wasm')) });
const db = new sqlite3.oo1.DB(':memory:');
const db2 = new sqlite3.oo1.DB(':memory:');
const sql = { exec: (s, p) => void db.exec({ sql: s, bind: p }), rows: (s, p) => db.selectArrays(s, p) };
const index = new core.SearchIndex(sql);
let textChars = 0;
let skipped = 0;
const t0 = performance.now();
index.transaction(() => {
  for (const rel of files) {
    try {
      const parts = core.dialogParts(core.readIpynb(readFileSync(join(ws, rel), 'utf8'), rel));
      for (const p of parts) textChars += p.text.length;
      index.put(rel, 'stamp', parts);
    } catch {
      skipped++;
    }
  }
});
const buildMs = performance.now() - t0;
const dbBytes = sqlite3.capi.sqlite3_js_db_export(db.pointer).length;

// Queries: three words from the middle of replies, as a person remembers them.
const queries = [];
for (const s of sources) {
  let d;
  try {
    d = core.readIpynb(s.text);
  } catch {
    continue;
  }
  for (const m of d.messages) {
    const words = core.aiRes(m).match(/\b[a-z]{6,}\b/g);
    if (words && words.length > 40 && queries.length < 40) queries.push(words.slice(20, 23).join(' '));
  }
}
const engine = [];
for (const q of queries) {
  const t = performance.now();
  index.search(core.parseQuery(q), { limit: 50, prefixLast: true });
  engine.push(performance.now() - t);
}
const grep = [];
for (const q of queries.slice(0, 10)) {
  const t = performance.now();
  try {
    execFileSync('grep', ['-rlF', q.split(' ')[0], ws], { stdio: ['ignore', 'ignore', 'ignore'] });
  } catch {
    /* no match is exit 1 */
  }
  grep.push(performance.now() - t);
}

/** The event loop's delay (p99, max, in ms) while `build` runs. */
async function loopDelay(build) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const t = performance.now();
  await build();
  h.disable();
  return { ms: performance.now() - t, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
}
const texts = files.map((rel) => [rel, readFileSync(join(ws, rel), 'utf8')]);
const wasm = readFileSync(join(root, 'dist', 'sqlite3.wasm'));
const inPlace = await loopDelay(async () => {
  const own = new core.SearchIndex({ exec: (s, p) => void db2.exec({ sql: s, bind: p }), rows: (s, p) => db2.selectArrays(s, p) });
  for (const [rel, text] of texts) {
    try {
      const parts = core.dialogParts(core.readIpynb(text, rel));
      own.transaction(() => own.put(rel, 'stamp', parts));
    } catch {
      /* counted above */
    }
    await new Promise((r) => setImmediate(r));
  }
});
const worker = new Worker(join(root, 'dist', 'searchWorker.js'));
let seq = 0;
const pending = new Map();
worker.on('message', (m) => pending.get(m.id)(m));
const call = (method, ...args) => new Promise((r) => { const id = seq++; pending.set(id, r); worker.postMessage({ id, method, args }); });
await call('open', wasm);
const inWorker = await loopDelay(async () => {
  for (const [rel, text] of texts) await call('putText', rel, 'stamp', text);
});
await worker.terminate();
rmSync(ws, { recursive: true, force: true });
const pct = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];
const f = (n) => n.toFixed(1);
console.log('\n### Message search (bench/search.mjs)\n');
console.log(`${files.length} dialogs (${(bytes / 1e6).toFixed(0)} MB of .ipynb, ${(textChars / 1e6).toFixed(1)} M characters of text indexed, ${skipped} skipped), sqlite-wasm ${sqlite3.version.libVersion}\n`);
console.log('| what | time | peer |');
console.log('| --- | --- | --- |');
console.log(`| first index build | ${(buildMs / 1000).toFixed(1)} s (${f((buildMs / files.length))} ms a dialog) | |`);
console.log(`| index size | ${(dbBytes / 1e6).toFixed(1)} MB = ${(dbBytes / textChars).toFixed(2)}× the text | |`);
console.log(`| query (3 words, 50 hits, ${queries.length} queries) | p50 ${f(pct(engine, 0.5))} ms, p95 ${f(pct(engine, 0.95))} ms | grep -rlF one word: p50 ${f(pct(grep, 0.5))} ms (${(pct(grep, 0.5) / pct(engine, 0.5)).toFixed(0)}× slower) |`);
console.log(`| the window's event loop while a build runs (extension host; target p99 < 50 ms) | in the search worker: p99 ${f(inWorker.p99)} ms, max ${f(inWorker.max)} ms (build ${(inWorker.ms / 1000).toFixed(1)} s) | in this thread, a file at a time: p99 ${f(inPlace.p99)} ms, max ${f(inPlace.max)} ms (build ${(inPlace.ms / 1000).toFixed(1)} s) |`);
