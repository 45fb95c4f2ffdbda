// `npm run bench` (via run.mjs): git's view of a dialog (issue 46). `dlg merge` of two 2,000-cell versions
// of one dialog (target < 1 s) and `dlg show` of a 2,000-cell dialog (target < 300 ms; git runs it on every
// `git diff` and `git log -p`), each as git runs it: a whole `node dist/cli.js` process, median of its
// wall time and of its CPU time (user + system, from /usr/bin/time where there is one: on a loaded
// machine the wall time mostly measures the wait for a core). Also the core's share alone, in process.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { generateDialog } from './generateDialog.mjs';

const require = createRequire(import.meta.url);
const core = require('../dist/core.js');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
/** Median wall and CPU ms of `dlg ARGS` as a process (CPU: NaN without /usr/bin/time). */
function run(args, runs = 7, before = () => {}) {
  const wall = [];
  const cpu = [];
  for (let k = 0; k < runs; k++) {
    before();
    const s = performance.now();
    const cmd = TIME ? [TIME, ['-f', 'CPU %U %S', process.execPath, cli, ...args]] : [process.execPath, [cli, ...args]];
    const r = spawnSync(cmd[0], cmd[1], { encoding: 'utf8' });
    wall.push(performance.now() - s);
    if (r.status !== 0 && r.status !== 1) throw new Error(`dlg ${args[0]}: ${r.stderr}`);
    const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
    cpu.push(m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN);
  }
  return { wall: median(wall), cpu: median(cpu) };
}
function inProcess(fn, runs = 15) {
  fn();
  const t = [];
  for (let k = 0; k < runs; k++) {
    const s = performance.now();
    fn();
    t.push(performance.now() - s);
  }
  return median(t);
}

const base = core.stringifyCanonical(generateDialog(2000, 46)) + '\n';
/** A version of base with `n` messages edited (every `step`-th from `from`) and `n` notes added. */
function version(tag, from, step, n) {
  const d = core.readIpynb(base);
  for (let k = 0; k < n; k++) d.messages[from + k * step].content += `\n${tag} edit ${k}`;
  for (let k = 0; k < n; k++) d.mkMessage({ msgType: 'note', content: `${tag} note ${k}`, after: d.messages[from + 1 + k * step] });
  return core.writeIpynb(d);
}
const ours = version('ours', 0, 40, 40);
const theirs = version('theirs', 20, 40, 40);

const dir = mkdtempSync(join(tmpdir(), 'dlg-bench-'));
const [pb, po, pt] = ['base', 'ours', 'theirs'].map((n) => join(dir, `${n}.ipynb`));
writeFileSync(pb, base);
writeFileSync(pt, theirs);
const merge = run(['merge', pb, po, pt], 7, () => writeFileSync(po, ours));
const show = run(['show', pb]);
const mergeCore = inProcess(() => core.writeIpynb(core.mergeDialogs(core.readIpynb(base), core.readIpynb(ours), core.readIpynb(theirs)).dialog));
const showCore = inProcess(() => core.dlg2show(core.readIpynb(base)));
rmSync(dir, { recursive: true, force: true });

const f = (x) => x.toFixed(0);
console.log(`\n| git's view of a 2,000-cell dialog (${Math.round(base.length / 1000)} kB) | target ms | process CPU ms | process wall ms | core alone, wall ms |`);
console.log('| --- | ---: | ---: | ---: | ---: |');
console.log(`| \`dlg merge\`: 40 messages edited and 40 added on each side | < 1000 | ${f(merge.cpu)} | ${f(merge.wall)} | ${f(mergeCore)} |`);
console.log(`| \`dlg show\` | < 300 | ${f(show.cpu)} | ${f(show.wall)} | ${f(showCore)} |`);
