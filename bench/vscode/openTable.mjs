// The opening tables of bench/vscode.sh from the windows' bench-open-*.json (editor.bench.ts): ours against
// the peer, VS Code's own Jupyter editor in a window without our extension; and that built-in editor in a
// window with our extension against one without. Medians over every round. Usage: node openTable.mjs WS_DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const OURS = 'dialog-notebook';
const BUILT_IN = 'jupyter-notebook';
/** The window without ours opens the built-in editor in our place too (editor.bench.ts). */
const IN_OURS_PLACE = 'jupyter-notebook#2';
/** The floor: our cells shown by VS Code alone, in the window without ours (editor.bench.ts). */
const FLOOR = 'dialog-bench-floor';
const ws = process.argv[2];
const windows = readdirSync(ws)
  .filter((f) => /^bench-open-.*\.json$/.test(f))
  .map((f) => JSON.parse(readFileSync(join(ws, f), 'utf8')))
  .sort((a, b) => a.started - b.started);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Every open of `name` with `editor` in windows with (or without) our extension. */
const opensOf = (name, editor, withOurs) => windows.filter((w) => w.withOurs === withOurs).flatMap((w) => w.files[name]?.opens[editor] ?? []);
/** The peer: every open of the built-in editor in the windows without ours (in either place). */
const peerOf = (name) => [...opensOf(name, BUILT_IN, false), ...opensOf(name, IN_OURS_PLACE, false)];
const names = [...new Set(windows.flatMap((w) => Object.keys(w.files)))];
const meta = (name) => windows.map((w) => w.files[name]).find(Boolean);
const mid = (opens, key) => {
  const xs = opens.map((o) => o[key]).filter((x) => typeof x === 'number');
  return xs.length ? median(xs) : NaN;
};
const n0 = (x) => (Number.isNaN(x) ? '—' : x.toFixed(0));
const ratio = (a, b) => (Number.isNaN(a / b) ? '—' : `${(a / b).toFixed(2)}×`);

const lines = [];
const table = (title, head, rows) => {
  lines.push(title, '', `| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i ? '---:' : '---')).join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`), '');
};

/** Sums of two sides' median opens over the dialogs both measured, and the worst ratio of one to the other. */
function totals() {
  const t = { num: 0, den: 0, worst: 0 };
  return Object.assign(t, {
    add(num, den) {
      if (Number.isNaN(num + den)) return;
      t.num += num;
      t.den += den;
      t.worst = Math.max(t.worst, num / den);
    },
  });
}

// Ours against the peer.
{
  const rows = [];
  const sum = totals();
  const floorSum = totals();
  for (const name of names) {
    const ours = opensOf(name, OURS, true);
    const peer = peerOf(name);
    const same = opensOf(name, BUILT_IN, true);
    const o = mid(ours, 'ms');
    const p = mid(peer, 'ms');
    const f = mid(opensOf(name, FLOOR, false), 'ms');
    sum.add(o, p);
    floorSum.add(o, f);
    rows.push([name, meta(name).cells, meta(name).kB.toFixed(0), n0(p), n0(o), `**${ratio(o, p)}**`, ratio(o, mid(same, 'ms')), n0(f), ratio(f, p), `**${ratio(o, f)}**`,
      `${n0(mid(peer, 'cpuMs'))} / ${n0(mid(ours, 'cpuMs'))}`, `${n0(mid(peer, 'blockMs'))} / ${n0(mid(ours, 'blockMs'))}`, `${peer.length} / ${ours.length}`]);
  }
  rows.push(['**total**', '', '', n0(sum.den), n0(sum.num), `**${ratio(sum.num, sum.den)}**`, '', n0(floorSum.den), ratio(floorSum.den, sum.den), `**${ratio(floorSum.num, floorSum.den)}**`, '', '', '']);
  table('Ours against the peer: VS Code\'s own Jupyter editor in a window without our extension; the floor: the cells ours makes shown by VS Code with none of our code, in that window (medians):',
    ['dialog', 'cells', 'kB', 'peer ms', 'ours ms', 'ours/peer', 'ours/built-in beside us', 'floor ms', 'floor/peer', 'ours/floor', 'ext host CPU ms, peer / ours', 'longest ext host block ms, peer / ours', 'opens, peer / ours'], rows);
  lines.push(`worst ours/peer: ${sum.worst.toFixed(2)}×; worst ours/floor: ${floorSum.worst.toFixed(2)}×`, '');
}

// The built-in editor with our extension installed against without.
{
  const rows = [];
  const sum = totals();
  for (const name of names) {
    const w = opensOf(name, BUILT_IN, true);
    const wo = peerOf(name);
    const a = mid(w, 'ms');
    const b = mid(wo, 'ms');
    sum.add(a, b);
    const pair = (key) => `${n0(mid(wo, key))} / ${n0(mid(w, key))}`;
    rows.push([name, n0(b), n0(a), `**${ratio(a, b)}**`, pair('cpuMs'), pair('mainCpuMs'), pair('heapMB'), pair('blockMs')]);
  }
  rows.push(['**total**', n0(sum.den), n0(sum.num), `**${ratio(sum.num, sum.den)}**`, '', '', '', '']);
  table('VS Code\'s own Jupyter editor in a window with our extension installed against one without (medians):',
    ['dialog', 'without ms', 'with ms', 'with/without', 'ext host CPU ms, without / with', 'of which its main thread', 'live heap before the open MB', 'longest ext host block ms, without / with'], rows);
  lines.push(`worst with/without: ${sum.worst.toFixed(2)}×`, '');
}

lines.push('Windows, in the order they ran (load average 1/5/15 min at the first and the last open):', '');
for (const w of windows) {
  const heap = w.heapMB === undefined ? '' : `; extension host's live heap at the end ${w.heapMB.toFixed(0)} MB`;
  lines.push(`- ${w.label} (${w.withOurs ? 'with' : 'without'} our extension): ${w.load.start} → ${w.load.end}${heap}`);
}
const active = (withOurs) => new Set(windows.filter((w) => w.withOurs === withOurs).flatMap((w) => w.active));
const on = active(true);
const off = active(false);
lines.push('', `Extensions active after the opens, without ours: ${[...off].sort().join(', ')}; only with ours: ${[...on].filter((e) => !off.has(e)).sort().join(', ') || 'none'}.`);
const profiles = windows.flatMap((w) => w.profiles.length ? [`${w.label}:`, ...w.profiles] : []);
if (profiles.length) lines.push('', '```', ...profiles, '```');
console.log(lines.join('\n'));
