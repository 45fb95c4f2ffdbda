import { readFileSync } from 'node:fs';
import { readIpynb, writeIpynb } from './src/core/ipynb';
const t = readFileSync('/work/shared/corpus/perf/big_300.ipynb', 'utf8');
for (let k = 0; k < 400; k++) writeIpynb(readIpynb(t));
