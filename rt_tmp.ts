import { readFileSync, readdirSync } from 'node:fs';
import { readIpynbReport, writeIpynb } from './src/core/ipynb';
let bad = 0;
for (const set of ['public', 'synthetic', 'perf']) {
  const dir = `/work/shared/corpus/${set}`;
  for (const f of readdirSync(dir)) {
    const t = readFileSync(`${dir}/${f}`, 'utf8');
    try {
      const { dialog, repairs } = readIpynbReport(t);
      const w = writeIpynb(dialog);
      if (w !== t) { bad++; console.log('DIFF', set, f); }
      if (repairs.length) console.log(f, repairs);
      // edit all → canonical, then fixed point
      for (const m of dialog.messages) m.content += '';
      dialog.messages.push(dialog.messages[0]?.clone(true) ?? dialog.messages[0]);
      const w2 = writeIpynb(dialog);
      JSON.parse(w2.replace(/^\ufeff/, ''));
      const w3 = writeIpynb(readIpynbReport(w2).dialog);
      if (w3 !== w2) { bad++; console.log('NOT FIXED', f); }
    } catch (e) { console.log(set, f, String(e)); }
  }
}
console.log('bad', bad);
