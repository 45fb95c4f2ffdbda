// Message search at the issue's scale (issue 53): a generated workspace of 10,000 dialogs, ~1 GB
// (bench/searchWorkspace.mjs; SEARCH_SCALE_DIALOGS and SEARCH_SCALE_MB make it smaller while developing),
// indexed the way the desktop extension does it: this thread reads the files in batches and hands each
// batch's texts to the search worker (dist/searchWorker.js), reading the next batch while it indexes. The
// worker's engine is what this Node gives it: node:sqlite on a file (Node 22.13+ with FTS5), else
// sqlite-wasm in memory. Measured in the same run: the first build, the event loop's delay meanwhile, the
// process's memory growth with the index open, the index's size beside the text it holds, queries beside
// grep over the same files (no ripgrep on this machine), the re-index of a changed 2,000-cell dialog, and
// saving the index (in memory) or opening it again in a new worker (on disk).
import { readFileSync, writeFileSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir, loadavg, availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { searchWorkspace } from './searchWorkspace.mjs';
import { generateDialog } from './generateDialog.mjs';

const require = createRequire(import.meta.url);
const pct = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];
const f = (n) => n.toFixed(1);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const core = require('../dist/core.js');
const corpus = join(root, '..', 'shared', 'corpus', 'public');
const dialogs = Number(process.env.SEARCH_SCALE_DIALOGS ?? 10000);
// Files and characters a batch, as SearchService.sync hands them over (SEARCH_SCALE_BATCH="files,chars" to try others).
const [batchFiles, batchChars] = (process.env.SEARCH_SCALE_BATCH ?? '8,500000').split(',').map(Number);
const mb = Number(process.env.SEARCH_SCALE_MB ?? 1000);

let t = performance.now();
const ws = searchWorkspace(core, corpus, { dialogs, mb });
const generatedS = (performance.now() - t) / 1000;

const gc = () => globalThis.gc?.();
const rss = () => (gc(), process.memoryUsage().rss);
const rssBefore = rss();

function searchWorker() {
  const worker = new Worker(join(root, 'dist', 'searchWorker.js'));
  let seq = 0;
  const pending = new Map();
  worker.on('message', (m) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(m.result);
  });
  const call = (method, ...args) => new Promise((resolve, reject) => { const id = seq++; pending.set(id, { resolve, reject }); worker.postMessage({ id, method, args }); });
  return { worker, call };
}
const tmp = mkdtempSync(join(tmpdir(), 'dialog-search-index-'));
const indexFile = join(tmp, 'search-index.db');
let { worker, call } = searchWorker();
const onDisk = await call('openFile', indexFile);
if (!onDisk) await call('open', readFileSync(join(root, 'dist', 'sqlite3.wasm')));
const engine = onDisk ? `${onDisk.engine}, a file on disk` : 'sqlite-wasm in memory';

// The first build, as SearchService.sync runs it: 8 files (or 0.5 M characters) a batch, one transaction
// each, the next batch read while the worker indexes this one.
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const cpu0 = process.cpuUsage();
// This thread's own share (Node 23.9+): what the extension host's thread would spend.
const ownCpu0 = process.threadCpuUsage?.();
const load0 = loadavg()[0];
t = performance.now();
let indexing = Promise.resolve();
for (let k = 0; k < ws.files.length; ) {
  const batch = [];
  for (let chars = 0; k < ws.files.length && batch.length < batchFiles && chars < batchChars; k++) {
    const text = await readFile(join(ws.dir, ws.files[k]), 'utf8');
    batch.push([ws.files[k], 'stamp', text]);
    chars += text.length;
  }
  await indexing;
  indexing = call('putTexts', batch);
}
await indexing;
// As SearchService.sync ends a big build: FTS5's index merged into one segment.
const writtenMs = performance.now() - t;
await call('optimize');
const buildMs = performance.now() - t;
const cpu = process.cpuUsage(cpu0);
const ownCpu = ownCpu0 && process.threadCpuUsage(ownCpu0);
const load1 = loadavg()[0];
loop.disable();
const rssOpen = rss();
const broken = (await call('broken')).length;

// Queries: three words from the middle of the corpus's replies, as a person remembers them, the last one a
// prefix (results as you type), 100 hits (the quick pick's limit).
const queries = [];
for (const f of ws.files.slice(0, 400)) {
  const d = core.readIpynb(readFileSync(join(ws.dir, f), 'utf8'), f);
  for (const m of d.messages) {
    const words = core.aiRes(m).match(/\b[a-z]{6,}\b/g);
    if (words && words.length > 40 && queries.length < 60 && !queries.includes(words.slice(20, 23).join(' '))) queries.push(words.slice(20, 23).join(' '));
  }
}
const answers = [];
for (const q of queries) {
  const t0 = performance.now();
  await call('search', core.parseQuery(q), { limit: 100, prefixLast: true });
  answers.push(performance.now() - t0);
}
const grep = [];
for (const q of queries.slice(0, 5)) {
  const t0 = performance.now();
  try {
    execFileSync('grep', ['-rlF', q.split(' ')[0], ws.dir], { stdio: ['ignore', 'ignore', 'ignore'] });
  } catch {
    /* no match is exit 1 */
  }
  grep.push(performance.now() - t0);
}

// A changed 2,000-cell dialog in the full index: read from disk and re-indexed (the watcher's path).
const big = join(ws.dir, 'changed-2000.ipynb');
const bigDialog = generateDialog(2000, 7);
const reindex = [];
for (let i = 0; i < 6; i++) {
  bigDialog.cells[0].source = [`# Changed ${i}\n`];
  writeFileSync(big, core.stringifyCanonical(bigDialog) + '\n');
  const t0 = performance.now();
  await call('putText', 'changed-2000.ipynb', `stamp${i}`, await readFile(big, 'utf8'));
  if (i) reindex.push(performance.now() - t0);
}
await call('remove', ['changed-2000.ipynb']);
rmSync(big);

const indexBytes = await call('size');
let saved;
let reopened;
if (onDisk) {
  // On disk every commit is saved: what a new session pays is opening the file and a first query.
  await call('save');
  await call('close');
  await worker.terminate();
  const fileBytes = statSync(indexFile).size;
  ({ worker, call } = searchWorker());
  const t0 = performance.now();
  await call('openFile', indexFile);
  const known = (await call('stamps')).length;
  await call('search', core.parseQuery(queries[0]), { limit: 100, prefixLast: true });
  const openMs = performance.now() - t0;
  const again = [];
  for (const q of queries) {
    const t1 = performance.now();
    await call('search', core.parseQuery(q), { limit: 100, prefixLast: true });
    again.push(performance.now() - t1);
  }
  saved = `file ${(fileBytes / 1e6).toFixed(0)} MB; opened again in a new worker with its ${known.toLocaleString('en-US')} stamps and a first query in ${f(openMs)} ms`;
  // Measured from before the first worker: whatever it left behind counts too.
  reopened = { growth: (rss() - rssBefore) / 1e6, p50: pct(again, 0.5), p95: pct(again, 0.95) };
} else {
  // Saving exports the whole database through the engine's heap (a copy beside it): at this size it may not fit.
  const saveMs = performance.now();
  saved = await call('save').then((b) => `saved as ${(b.length / 1e6).toFixed(0)} MB in ${f((performance.now() - saveMs) / 1000)} s`, (e) => `**saving failed**: ${e.message}`);
}
await worker.terminate();
if (process.env.SEARCH_SCALE_KEEP) console.log(`index kept in ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });

const growth = (rssOpen - rssBefore) / 1e6;
console.log('\n### Message search at scale (bench/searchScale.mjs)\n');
console.log(`Engine: ${engine} (Node ${process.versions.node}); batches of ${batchFiles} files or ${(batchChars / 1e6).toFixed(1)} M characters; load average ${load0.toFixed(1)} before the build, ${load1.toFixed(1)} after, on ${availableParallelism()} cores.\n`);
console.log(`${ws.files.length.toLocaleString('en-US')} dialogs, ${(ws.bytes / 1e9).toFixed(2)} GB of .ipynb, ${(ws.textChars / 1e6).toFixed(0)} M characters of text indexed, ${broken} skipped (workspace in ${ws.dir}${generatedS > 1 ? `, generated in ${generatedS.toFixed(0)} s` : ', reused'}); ${queries.length} queries\n`);
console.log('| what | measured | limit or peer (same run) | ratio |');
console.log('| --- | --- | --- | --- |');
console.log(`| first index build, in the search worker | ${f(buildMs / 1000)} s wall (the merge of FTS5's segments ${f((buildMs - writtenMs) / 1000)} s of it), ${f((cpu.user + cpu.system) / 1e6)} s CPU (${f(buildMs / ws.files.length)} ms a dialog)${ownCpu ? `, of it ${f((ownCpu.user + ownCpu.system) / 1e6)} s in this thread` : ''} | 120 s | ${(buildMs / 120000).toFixed(2)}× |`);
console.log(`| the event loop meanwhile | p99 ${f(loop.percentile(99) / 1e6)} ms, max ${f(loop.max / 1e6)} ms | p99 50 ms | ${(loop.percentile(99) / 1e6 / 50).toFixed(2)}× |`);
console.log(`| query, 3 words, 100 hits, through the worker | p50 ${f(pct(answers, 0.5))} ms, p95 ${f(pct(answers, 0.95))} ms | 50 ms; \`grep -rlF\` one word: p50 ${f(pct(grep, 0.5))} ms | ${(pct(answers, 0.95) / 50).toFixed(2)}× the limit; grep ${(pct(grep, 0.5) / pct(answers, 0.5)).toFixed(0)}× slower |`);
console.log(`| re-index of a changed 2,000-cell dialog (read + parse + index) | median ${f(pct(reindex, 0.5))} ms, max ${f(Math.max(...reindex))} ms | 300 ms | ${(pct(reindex, 0.5) / 300).toFixed(2)}× |`);
console.log(`| memory growth, index open (process RSS) | ${growth.toFixed(0)} MB after the build in the same worker | 150 MB | ${(growth / 150).toFixed(2)}× |`);
if (reopened) {
  console.log(`| … the index opened in a new worker (a new session), after its 60 queries | ${reopened.growth.toFixed(0)} MB | 150 MB | ${(reopened.growth / 150).toFixed(2)}× |`);
  console.log(`| … those queries again there | p50 ${f(reopened.p50)} ms, p95 ${f(reopened.p95)} ms | 50 ms | ${(reopened.p95 / 50).toFixed(2)}× |`);
}
console.log(`| index size (SQLite pages) | ${(indexBytes / 1e6).toFixed(0)} MB = ${(indexBytes / ws.textChars).toFixed(2)}× the text; ${saved} | 1.5× | ${(indexBytes / ws.textChars / 1.5).toFixed(2)}× |`);
