// `npm run fuzz -- --seed N --count 10000`: seeded mutations of the corpus dialogs through the core.
// Each mutation (text edits: cuts, copies, inserted tokens, deep nesting, escapes; or a JSON value put at
// a random place) is read; a file that reads must write back its own bytes, save canonically to a fixed
// point and go through every projection. A crash is any exception other than the documented ones
// (DialogReadError on read, DialogError / ReplyError from a projection). Case I of seed N is the same on
// every run: `--seed N --only I` repeats it, `--save DIR` keeps the inputs of crashes and byte changes.
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const core = require('../dist/core.js');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(root, '..', 'shared', 'corpus');

const { values: opts } = parseArgs({
  options: { seed: { type: 'string', default: '1' }, count: { type: 'string', default: '10000' }, only: { type: 'string' }, save: { type: 'string' }, 'max-kb': { type: 'string', default: '300' } },
});
const seed = Number(opts.seed);
const count = Number(opts.count);
const maxBytes = Number(opts['max-kb']) * 1000;

/** mulberry32: a small seeded PRNG, so case i of seed s is the same everywhere. */
function rng(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const files = [];
for (const set of ['synthetic', 'public']) {
  for (const f of readdirSync(join(corpusDir, set)).filter((f) => f.endsWith('.ipynb')).sort()) {
    const p = join(corpusDir, set, f);
    if (statSync(p).size <= maxBytes) files.push({ name: `${set}/${f}`, text: readFileSync(p, 'utf8') });
  }
}

const TOKENS = ['[', ']', '{', '}', ',', ':', '"', '\\', '\n', '\r\n', ' ', 'NaN', '-Infinity', '1.0', '-0', '1e400', '1e21', '12345678901234567890', 'null', 'true',
  '"\\ud83d"', '"\\udc00"', '\\ud83d', '\\ufeff', '"$dlg:num"', '{"$dlg:num": "x"}', '"__proto__"', '"cell_type"', '"code"', '"markdown"', '"raw"', '"outputs"',
  '"metadata"', '"source"', '"attachments"', '"data"', '"image/png"', '"solveit_ai": true', '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->',
  "<details class='tool-usage-details'>", '```json', '```', '</details>', '<summary>', ':::', '`````result', '![', '](', '\ufeff', '\u2028', 'é', '🤖'];
const deep = (n) => '['.repeat(n) + ']'.repeat(n);
const VALUES = [deep(900), deep(1200), 'NaN', '1.0', '-0', '1e400', '12345678901234567890', '[]', '{}', '""', 'null', 'false', '"\\ud83d"', '{"$dlg:num": "hello"}', '{"$dlg:$dlg:x": 1.5}', '[1.0, -0, NaN]', '"x\\r\\ny"', '{"image/png": 1.0}'];

function mutate(text, r) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const at = () => Math.floor(r() * (text.length + 1));
  // Half the mutations keep the text JSON (a value put somewhere, an escape, a BOM or CRLF), half break it.
  const KINDS = [3, 3, 3, 3, 3, 5, 5, 6, 0, 1, 2, 2, 4, 7];
  const kind = pick(KINDS);
  switch (kind) {
    case 0: {
      const a = at();
      return text.slice(0, a) + text.slice(a + 1 + Math.floor(r() * 40));
    }
    case 1: {
      const a = at();
      const b = Math.min(text.length, a + Math.floor(r() * 400));
      return text.slice(0, b) + text.slice(a, b) + text.slice(b);
    }
    case 2: {
      let s = text;
      for (let k = 1 + Math.floor(r() * 3); k > 0; k--) {
        const a = Math.floor(r() * (s.length + 1));
        s = s.slice(0, a) + pick(TOKENS) + s.slice(a);
      }
      return s;
    }
    case 3:
    case 5: {
      // a value put at a random place of the parsed notebook, or a character UTF-8 or editors mangle
      // (lone surrogate, BOM, CR) put into one of its strings
      let nb;
      try {
        nb = JSON.parse(text);
      } catch {
        return text + pick(TOKENS);
      }
      const slots = [];
      const walk = (v, depth) => {
        if (depth > 6 || v === null || typeof v !== 'object') return;
        for (const k of Object.keys(v)) {
          if (kind === 3 || typeof v[k] === 'string') slots.push([v, k]);
          walk(v[k], depth + 1);
        }
        if (kind === 3 && !Array.isArray(v)) slots.push([v, 'new_key']);
      };
      walk(nb, 0);
      if (!slots.length) return text;
      const [o, k] = pick(slots);
      if (kind === 5) {
        const a = Math.floor(r() * (o[k].length + 1));
        o[k] = o[k].slice(0, a) + pick(['\ud83d', '\udfff', '\ufeff', '\r', '\u0000']) + o[k].slice(a);
        return JSON.stringify(nb, null, 1) + '\n';
      }
      o[k] = '\u0000MARK';
      return JSON.stringify(nb, null, 1).replace('"\\u0000MARK"', pick(VALUES)) + '\n';
    }
    case 4: {
      const n = pick([50, 900, 1200, 5000]);
      const a = at();
      return text.slice(0, a) + '['.repeat(n) + ']'.repeat(n) + text.slice(a);
    }
    case 6:
      return pick(['\ufeff', '', ' ', '\n']) + (r() < 0.5 ? text.replace(/\n/g, '\r\n') : text);
    default:
      return text.slice(0, at());
  }
}

const { DialogReadError, DialogError, ReplyError } = core;

/** The save of a dialog whose every cell was edited: canonical text, storage hints still used. */
function canonical(d) {
  d.origin = undefined;
  for (const m of d.messages) if (m.origin) m.origin = { ...m.origin, text: '' };
  return core.writeIpynb(d);
}

function projections(d) {
  const run = (f) => {
    try {
      f();
    } catch (e) {
      if (!(e instanceof DialogError || e instanceof ReplyError)) throw e;
    }
  };
  run(() => core.dlg2hist(d, { supports_vision: true }));
  run(() => core.dlg2chat(d));
  run(() => core.dlg2md(d));
  run(() => core.buildOutline(d.messages.map((m, k) => core.outlineItem(m, k))));
  run(() => core.dlg2py(d));
  for (const m of d.messages) if (m.msgType === 'prompt') run(() => core.dlg2reply(core.reply2dlg(m)));
}

/** What one case comes to: 'refused', 'read', or a problem ['crash' | 'bytes', detail]. */
function check(text) {
  let d;
  try {
    d = core.readIpynbReport(text).dialog;
  } catch (e) {
    if (e instanceof DialogReadError && !e.message.includes('\n')) return 'refused';
    return ['crash', `read: ${e?.name}: ${String(e?.message).split('\n')[0]}`];
  }
  try {
    if (core.writeIpynb(d) !== text) return ['bytes', 'an unedited read writes other bytes'];
    const once = canonical(d);
    const again = core.readIpynbReport(once).dialog;
    if (core.writeIpynb(again) !== once) return ['bytes', 'a save read back writes other bytes'];
    if (canonical(again) !== once) return ['bytes', 'a canonical save is not a fixed point'];
    projections(core.readIpynb(text));
  } catch (e) {
    return ['crash', `${e?.name}: ${String(e?.message).split('\n')[0]}`];
  }
  return 'read';
}

const tally = { read: 0, refused: 0, crash: 0, bytes: 0 };
const problems = [];
const t0 = performance.now();
const cases = opts.only !== undefined ? [Number(opts.only)] : Array.from({ length: count }, (_, i) => i);
for (const i of cases) {
  const r = rng(seed * 1_000_003 + i);
  const file = files[Math.floor(r() * files.length)];
  let text = file.text;
  for (let k = 1 + Math.floor(r() * 2); k > 0; k--) text = mutate(text, r);
  const res = check(text);
  if (typeof res === 'string') tally[res]++;
  else {
    tally[res[0]]++;
    problems.push({ i, file: file.name, kind: res[0], detail: res[1] });
    if (opts.save) {
      mkdirSync(opts.save, { recursive: true });
      writeFileSync(join(opts.save, `seed${seed}-case${i}.ipynb`), text);
    }
  }
}
const secs = ((performance.now() - t0) / 1000).toFixed(0);
for (const p of problems.slice(0, 20)) console.log(`case ${p.i} (${p.file}): ${p.kind}: ${p.detail}`);
console.log(
  `fuzz seed ${seed}: ${cases.length} mutations of ${files.length} corpus dialogs in ${secs} s: ${tally.read} read (written back byte for byte, saved to a fixed point, projected), ` +
    `${tally.refused} refused with one line, ${tally.crash} crashes, ${tally.bytes} byte changes`,
);
process.exitCode = tally.crash + tally.bytes ? 1 : 0;
