// The search index's engines side by side (issue 53): the same SearchIndex (same FTS5 schema, statements
// and queries) over Node's built-in `node:sqlite` and over @sqlite.org/sqlite-wasm, building the index of
// the corpus copied SEARCH_BENCH_COPIES times (default 2) and querying it, in one process, one after the
// other, and node:sqlite once more on a file on disk (the WASM build has no file system in Node). It needs a Node with node:sqlite (22.13+; Node 20 has none): `npm run bench` runs it under one when it finds one, or by hand:
//   /path/to/node24 bench/searchEngines.mjs
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const core = require('../dist/core.js');
const sqlite = require('../dist/lazy/sqlite.js');
const { DatabaseSync } = await import('node:sqlite');
const shared = join(root, '..', 'shared', 'corpus');
const copies = Number(process.env.SEARCH_BENCH_COPIES ?? 2);

const dialogs = [];
for (const set of ['public', 'synthetic', 'perf']) {
  for (const f of readdirSync(join(shared, set)).filter((f) => f.endsWith('.ipynb'))) {
    try {
      const parts = core.dialogParts(core.readIpynb(readFileSync(join(shared, set, f), 'utf8'), f));
      for (let c = 0; c < copies; c++) dialogs.push({ file: `copy${c}/${set}/${f}`, parts });
    } catch {
      /* not a dialog: the engines never see it */
    }
  }
}
const textChars = dialogs.reduce((n, d) => n + d.parts.reduce((m, p) => m + p.text.length, 0), 0);

const queries = [];
for (const d of dialogs.slice(0, dialogs.length / copies)) {
  for (const p of d.parts) {
    const words = p.kind === 'reply' && p.text.match(/\b[a-z]{6,}\b/g);
    if (words && words.length > 40 && queries.length < 60) queries.push(words.slice(20, 23).join(' '));
  }
}

/** node:sqlite as the index's SqlDb, statements prepared once (as the WASM one does). */
function nodeDb(path = ':memory:') {
  const db = new DatabaseSync(path);
  const prepared = new Map();
  const stmt = (sql) => prepared.get(sql) ?? prepared.set(sql, db.prepare(sql)).get(sql);
  return {
    exec: (sql, params) => (params ? stmt(sql).run(...params) : db.exec(sql)),
    rows: (sql, params = []) => {
      const s = stmt(sql);
      if (!s.setReturnArrays) return s.all(...params).map((r) => Object.values(r));
      s.setReturnArrays(true);
      return s.all(...params);
    },
    options: () => db.prepare('PRAGMA compile_options').all().map((r) => r.compile_options),
    version: () => db.prepare('SELECT sqlite_version() AS v').get().v,
    size: () => db.prepare('SELECT page_count * page_size AS n FROM pragma_page_count, pragma_page_size').get().n,
  };
}

async function wasmDb() {
  const sqlite3 = await sqlite.default({ wasmBinary: readFileSync(join(root, 'dist', 'sqlite3.wasm')) });
  const db = new sqlite3.oo1.DB(':memory:');
  const prepared = new Map();
  const stmt = (sql) => prepared.get(sql) ?? prepared.set(sql, db.prepare(sql)).get(sql);
  const run = (sql, params, each) => {
    const s = stmt(sql);
    const out = [];
    if (params.length) s.bind(params);
    while (s.step()) out.push(each(s));
    s.reset(true);
    return out;
  };
  return {
    exec: (sql, params) => (params ? run(sql, params, () => undefined) : db.exec(sql)),
    rows: (sql, params = []) => run(sql, params, (s) => s.get([])),
    options: () => db.selectValues('PRAGMA compile_options'),
    version: () => sqlite3.version.libVersion,
    size: () => db.selectValue('SELECT page_count * page_size FROM pragma_page_count, pragma_page_size'),
  };
}

function measure(name, db) {
  const fts5 = db.options().includes('ENABLE_FTS5');
  const index = new core.SearchIndex(db);
  let t = performance.now();
  for (const d of dialogs) index.transaction(() => index.put(d.file, 'stamp', d.parts));
  const build = performance.now() - t;
  const times = [];
  for (const q of queries) {
    t = performance.now();
    index.search(core.parseQuery(q), { limit: 100, prefixLast: true });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { name, version: db.version(), fts5, build, p50: times[times.length >> 1], p95: times[Math.floor(times.length * 0.95)], size: db.size() };
}

const dir = mkdtempSync(join(tmpdir(), 'dialog-search-engines-'));
const rows = [
  measure('node:sqlite, in memory', nodeDb()),
  measure('sqlite-wasm, in memory (as shipped)', await wasmDb()),
  measure('node:sqlite, a file on disk', nodeDb(join(dir, 'index.sqlite'))),
  measure('sqlite-wasm again', await wasmDb()),
];
rmSync(dir, { recursive: true, force: true });
console.log(`\n### The engines (bench/searchEngines.mjs, Node ${process.version})\n`);
console.log(`${dialogs.length} dialogs, ${(textChars / 1e6).toFixed(1)} M characters of text, ${queries.length} queries of 3 words (100 hits)\n`);
console.log('| engine | SQLite | ENABLE_FTS5 | build | query p50 | query p95 | index size |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.name} | ${r.version} | ${r.fts5 ? 'yes' : 'no'} | ${(r.build / 1000).toFixed(1)} s | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${(r.size / 1e6).toFixed(1)} MB |`);
