// One sample of bench/startup.mjs: `node bench/startupProbe.cjs BUNDLE` loads the extension bundle with
// `vscode` answered by an inert stand-in (every property, call and `new` gives the stand-in again), calls
// activate(), and prints {load, activate, loadCpu, activateCpu, lazy, err} as one JSON line: wall and CPU
// milliseconds (CPU time holds still on a loaded machine) and the dist/lazy/ modules that were loaded.
const Module = require('node:module');
const handler = {
  get(t, k) {
    if (k === Symbol.toPrimitive) return () => '';
    if (k === Symbol.iterator) return function* () {};
    if (k === 'then') return undefined;
    return stub;
  },
  apply() { return stub; },
  construct() { return stub; },
  set() { return true; },
  defineProperty() { return true; },
};
const stub = new Proxy(function () {}, handler);
// esbuild's __toESM copies own keys onto an object whose prototype is the module's: answer through that.
const proto = new Proxy({}, { get: (t, k) => handler.get(t, k) });
handler.getPrototypeOf = () => proto;
const orig = Module._resolveFilename;
Module._resolveFilename = function (req, ...a) { return req === 'vscode' ? 'vscode' : orig.call(this, req, ...a); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
const bundle = require('node:path').resolve(process.argv[2]);
const c0 = process.cpuUsage();
const t0 = performance.now();
const ext = require(bundle);
const t1 = performance.now();
const c1 = process.cpuUsage();
let err;
process.on('unhandledRejection', () => {});
try { ext.activate(stub); } catch (e) { err = String(e).slice(0, 80); }
const t2 = performance.now();
const c2 = process.cpuUsage();
const cpuMs = (a, b) => +((b.user + b.system - a.user - a.system) / 1000).toFixed(1);
const lazy = Object.keys(require.cache).filter((k) => k.includes('/lazy/')).map((k) => k.split('/').pop());
console.log(JSON.stringify({ load: +(t1 - t0).toFixed(1), activate: +(t2 - t1).toFixed(1), loadCpu: cpuMs(c0, c1), activateCpu: cpuMs(c1, c2), err, lazy }));
