// Startup (issue 34): what activating the extension costs, outside VS Code so that the figure does not
// drown in the workbench's own start. Each sample is a fresh Node process (bench/startupProbe.cjs) that
// loads dist/extension.js, with `vscode` answered by an inert stand-in, and calls activate(): the code
// loading time and activate()'s own time, medians, beside the bundle sizes. It also checks that
// activating loads none of dist/lazy/ (what only answering or running code needs).
// In the real VS Code, test/ui/startup.mjs logs the extension host's own figure.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = process.argv[2] ?? join(root, 'dist', 'extension.js');
const SAMPLES = 9;

const samples = [];
for (let i = 0; i < SAMPLES; i++) {
  const out = execFileSync(process.execPath, [join(root, 'bench', 'startupProbe.cjs'), bundle], { encoding: 'utf8' });
  samples.push(JSON.parse(out.trim().split('\n').pop()));
}
const median = (k) => samples.map((s) => s[k]).sort((a, b) => a - b)[SAMPLES >> 1];
const lazyLoaded = [...new Set(samples.flatMap((s) => s.lazy))];
const failed = samples.find((s) => s.err)?.err;
const kb = (p) => `${Math.round(statSync(p).size / 1024)} kB`;
const lazyDir = join(dirname(bundle), 'lazy');
const lazy = (() => {
  try {
    return readdirSync(lazyDir).filter((f) => f.endsWith('.js')).map((f) => `${f} ${kb(join(lazyDir, f))}`);
  } catch {
    return [];
  }
})();

console.log('\nStartup (bench/startup.mjs), medians of %d fresh processes:', SAMPLES);
console.log(`| bundle | size | code loading ms (CPU ms) | activate() ms (CPU ms) |\n| --- | ---: | ---: | ---: |`);
const name = bundle.startsWith(root) ? bundle.slice(root.length + 1) : bundle;
const ms = (k) => `${median(k).toFixed(0)} (${median(`${k}Cpu`).toFixed(0)})`;
console.log(`| ${name} | ${kb(bundle)} | ${ms('load')} | ${ms('activate')} |`);
console.log(`Loaded on first use (dist/lazy/): ${lazy.join(', ') || 'none'}; loaded by activating: ${lazyLoaded.join(', ') || 'none'}.`);
if (failed) console.log(`activate() threw against the stand-in: ${failed}`);
if (lazyLoaded.length) process.exitCode = 1;
