// The `dlg` command line as a user runs it, for the tests that run it as a separate process: src/cli bundled
// once per test process with esbuild, as `npm run build` bundles dist/cli.js (sqlite3.wasm beside it), from
// the sources as they are now. Each call then starts node on one file: `node -r tsx/cjs src/cli/main.ts`
// compiled the CLI's sources again on every call, seconds each on a loaded machine.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = resolve(__dirname, '../..');
let bundle: string | undefined;

/** The path of the bundled CLI (built on the first call), under out/ so that `sharp` resolves from node_modules. */
export function cliBundle(): string {
  if (bundle) return bundle;
  // One folder per process: mocha runs test files in parallel worker processes.
  const dir = join(ROOT, 'out', 'unit-cli', String(process.pid));
  mkdirSync(dir, { recursive: true });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'cli.js');
  buildSync({
    entryPoints: [join(ROOT, 'src/cli/main.ts')], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['sharp'], logLevel: 'error',
    // As scripts/build.mjs: the search engine finds itself by import.meta.url, its wasm beside the bundle.
    define: { 'import.meta.url': '__bundleUrl' }, banner: { js: "var __bundleUrl = require('url').pathToFileURL(__filename).href;" },
  });
  copyFileSync(join(ROOT, 'node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm'), join(dir, 'sqlite3.wasm'));
  return (bundle = out);
}

/** Runs `dlg ...args`, its output as text; the timeout turns a hang (a FIFO read without a writer) into a failure. */
export const dlg = (...args: string[]) => spawnSync(process.execPath, [cliBundle(), ...args], { encoding: 'utf8', timeout: 50000 });
