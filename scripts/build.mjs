// Builds every bundle with esbuild: the extension host entries (Node and browser), the pure core library,
// the `dlg` CLI, the webview script, the reply renderer and the extension-host test suites.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };
// What the .vsix ships is minified; class and function names are kept (errors are told apart by them, and
// stack traces stay readable), the source maps beside give the lines.
const shipped = { ...common, minify: true, keepNames: true };

// What only answering or running code needs stays out of dist/extension.js, so that activating costs little:
// each package is its own bundle in dist/lazy/, required on the first `import()` of it. A static import of
// one would load it at activation, so it fails the build; the price table, which the core asks for
// synchronously, comes through src/node/lazyPrices.ts instead. The browser build keeps them all in its one
// bundle: the web-worker extension host's `require` knows only 'vscode'.
const LAZY = { '@anthropic-ai/sdk': 'anthropic', openai: 'openai', '@jupyterlab/services': 'jupyter', '@pydantic/genai-prices': 'prices', '@sqlite.org/sqlite-wasm': 'sqlite', undici: 'undici',
  '@octokit/core': 'octokit', '@secretlint/core': 'secretlint', '@secretlint/secretlint-rule-preset-recommend': 'secretlint-rules' };
const PRICES_SHIM = resolve('src/node/lazyPrices.ts');
// Modules of ours that are lazy bundles themselves (a package's chosen parts): imported as `./<name>`.
const LAZY_MODULES = { mcpSdk: 'mcp', webConvert: 'web', pdfWorker: 'pdf' };
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(LAZY).map((p) => p.replace(/[/.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (a) => {
      const lazy = { path: `./lazy/${LAZY[a.path]}.js`, external: true };
      if (a.kind !== 'import-statement') return lazy;
      if (a.path === '@pydantic/genai-prices') return a.importer === PRICES_SHIM ? lazy : { path: PRICES_SHIM };
      return { errors: [{ text: `${a.path} is loaded on first use: import it with \`await import('${a.path}')\` (or \`import type\`)` }] };
    });
    const own = new RegExp(`^\\./(${Object.keys(LAZY_MODULES).join('|')})$`);
    b.onResolve({ filter: own }, (a) => {
      const name = LAZY_MODULES[a.path.slice(2)];
      if (a.kind === 'import-statement') return { errors: [{ text: `${a.path} is loaded on first use: import it with \`await import('${a.path}')\`` }] };
      return { path: `./lazy/${name}.js`, external: true };
    });
  },
};
rmSync('dist/lazy', { recursive: true, force: true });
// The search index's engine (@sqlite.org/sqlite-wasm) is an ES module that finds itself by import.meta.url:
// in a CommonJS bundle that is the bundle's own file (Node), or the worker's location (browser). Its
// sqlite3.wasm is shipped beside the bundles and handed to it as bytes.
const SQLITE_NODE = { define: { 'import.meta.url': '__bundleUrl' }, banner: { js: "var __bundleUrl = require('url').pathToFileURL(__filename).href;" } };
mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm', 'dist/sqlite3.wasm');
const jobs = [
  build({ ...common, entryPoints: ['src/core/index.ts'], outfile: 'dist/core.js', format: 'cjs', external: ['sharp'] }),
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', format: 'cjs', external: ['sharp'],
    define: SQLITE_NODE.define, banner: { js: '#!/usr/bin/env node\n' + SQLITE_NODE.banner.js } }),
];
if (existsSync('src/extension/extension.ts')) {
  jobs.push(build({ ...shipped, entryPoints: ['src/node/main.ts'], outfile: 'dist/extension.js', format: 'cjs',
    external: ['vscode', 'sharp'], plugins: [lazyPackages], supported: { 'dynamic-import': false } /* import() as require() */ }));
  for (const [pkg, name] of Object.entries(LAZY)) {
    jobs.push(build({ ...shipped, ...(name === 'sqlite' ? SQLITE_NODE : {}), stdin: { contents: `module.exports = require(${JSON.stringify(pkg)});`, resolveDir: '.', sourcefile: `${name}.js` },
      outfile: `dist/lazy/${name}.js`, format: 'cjs' }));
  }
  // The search index's worker thread (node/searchWorker.ts), with its engine bundled in.
  jobs.push(build({ ...shipped, ...SQLITE_NODE, entryPoints: ['src/node/searchWorkerMain.ts'], outfile: 'dist/searchWorker.js', format: 'cjs' }));
  for (const [mod, name] of Object.entries(LAZY_MODULES)) {
    jobs.push(build({ ...shipped, entryPoints: [`src/node/${mod}.ts`], outfile: `dist/lazy/${name}.js`, format: 'cjs' }));
  }
  // The web-worker extension host (vscode.dev, github.dev, code-server's browser host) loads one CommonJS
  // bundle whose `require` knows only 'vscode', as VS Code's own extensions/ipynb builds it.
  jobs.push(build({ ...shipped, platform: 'browser', target: 'es2022', entryPoints: ['src/web/main.ts'],
    outfile: 'dist/extension.web.js', format: 'cjs', external: ['vscode'], define: { 'import.meta.url': 'self.location.href' },
    // secretlint's rules name a file by node:path's basename, all they take of Node.
    alias: { 'node:path': './src/web/nodePath.ts' } }));
}
if (existsSync('src/webview/main.ts')) {
  jobs.push(build({ ...shipped, platform: 'browser', target: 'es2022', entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js', format: 'iife' }));
  // The share preview (src/extension/share/preview.ts): the page rendered with the reply renderer's sanitiser.
  jobs.push(build({ ...shipped, platform: 'browser', target: 'es2022', entryPoints: ['src/webview/share/main.ts'],
    outfile: 'dist/shareview.js', format: 'iife' }));
}
if (existsSync('src/renderer/reply.ts')) {
  // The notebook renderer of replies: VS Code loads it as an ES module into every notebook's output
  // webview.
  jobs.push(build({ ...shipped, platform: 'browser', target: 'es2022', entryPoints: ['src/renderer/reply.ts'],
    outfile: 'dist/replyRenderer.js', format: 'esm' }));
  // Conflict labels on rendered notes: an extension of VS Code's markdown renderer.
  jobs.push(build({ ...shipped, platform: 'browser', target: 'es2022', entryPoints: ['src/renderer/conflictLabels.ts'],
    outfile: 'dist/conflictLabels.js', format: 'esm' }));
}
const suites = existsSync('test/extension')
  ? readdirSync('test/extension', { recursive: true }).filter((f) => f.endsWith('.test.ts')).map((f) => `test/extension/${f}`)
  : [];
if (suites.length) {
  jobs.push(build({ ...common, entryPoints: suites, outdir: 'out/test/extension', outbase: 'test/extension', format: 'cjs',
    external: ['vscode', 'mocha', 'sharp'] }));
}
// The mock model servers and the GitHub stand-in, for the Playwright scripts that answer prompts or share (the suites bundle them).
if (existsSync('test/mocks')) {
  jobs.push(build({ ...common, entryPoints: ['test/mocks/anthropicServer.ts'], outfile: 'out/test/mocks/anthropicServer.cjs', format: 'cjs' }));
  jobs.push(build({ ...common, entryPoints: ['test/mocks/githubServer.ts'], outfile: 'out/test/mocks/githubServer.cjs', format: 'cjs' }));
}
// The web pass (test/web, scripts/e2e.sh with E2E_WEB): one runner bundle for the web-worker extension host
// with mocha's browser build and the suites; Node's assert ported, the Node-only imports of some suites
// stubbed (their tests are left out there). Beside it, the CORS mock servers for the pass's Node side.
if (existsSync('test/web/runner.ts')) {
  const shims = 'test/web/shims';
  jobs.push(build({ ...common, platform: 'browser', target: 'es2022', entryPoints: ['test/web/runner.ts'], outfile: 'out/test/web/runner.js',
    format: 'cjs', external: ['vscode'], inject: [`${shims}/process.ts`],
    alias: { 'node:assert/strict': `./${shims}/assertStrict.cjs`, 'node:http': `./${shims}/nodeAbsent.ts`, 'node:child_process': `./${shims}/nodeAbsent.ts`, sharp: `./${shims}/sharp.ts` } }));
  jobs.push(build({ ...common, entryPoints: ['test/web/mocks.ts'], outfile: 'out/test/web/mocks.mjs', format: 'esm' }));
}
// The editor-speed bench (bench/vscode.sh) and the memory bench (bench/memory.sh) also run inside the extension host.
if (existsSync('bench/vscode')) {
  jobs.push(build({ ...common, entryPoints: ['bench/vscode/editor.bench.ts', 'bench/vscode/answer.bench.ts', 'bench/vscode/agents.bench.ts', 'bench/vscode/dialoghelper.bench.ts', 'bench/vscode/outside.bench.ts', 'bench/vscode/hands.bench.ts', 'bench/vscode/answerMemory.mem.ts'], outdir: 'out/bench', format: 'cjs', external: ['vscode', 'mocha'] }));
}
await Promise.all(jobs);
