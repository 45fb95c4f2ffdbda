import { readFileSync } from 'node:fs';
import { readIpynb, writeIpynb } from './src/core/ipynb';
import { parseNotebook } from './src/core/ipynbParse';
function time(fn: () => unknown) { for (let k = 0; k < 10; k++) fn(); const s: number[] = []; for (let k = 0; k < 60; k++) { const t = performance.now(); fn(); s.push(performance.now() - t); } s.sort((a, b) => a - b); return s[s.length >> 1]; }
for (const f of ['/work/shared/corpus/perf/big_300.ipynb', '/work/shared/corpus/perf/big_30.ipynb']) {
  const t = readFileSync(f, 'utf8');
  const lim = time(() => JSON.stringify(JSON.parse(t), null, 1));
  const ours = time(() => writeIpynb(readIpynb(t)));
  const rd = time(() => readIpynb(t));
  const pn = time(() => parseNotebook(t));
  const d = readIpynb(t);
  const wr = time(() => writeIpynb(d));
  console.log(f, 'limit', lim.toFixed(2), 'ours', ours.toFixed(2), 'ratio', (ours / lim).toFixed(2), 'read', rd.toFixed(2), 'parse', pn.toFixed(2), 'write', wr.toFixed(2));
}
