// `npm run bench` (via run.mjs): sharing a 2,000-cell dialog (issue 54). The Markdown page alone (target
// < 300 ms) and what the preview's host computes before the view shows (page, shared .ipynb, secret scan
// with secretlint's recommended rules; target < 1 s, leaving the view its rendering), median of runs.
// @ts-expect-error: a plain .mjs helper without types
import { generateDialog } from './generateDialog.mjs';
import { readIpynb, stringifyCanonical, writeIpynb } from '../src/core';
import { dlg2page, shareTexts } from '../src/core/share';
import { scanSecrets } from '../src/extension/share/secretScan';
import { medianTime } from './medianTime';

async function main() {
  const d = readIpynb(stringifyCanonical(generateDialog(2000, 7)) + '\n');
  const page = await medianTime(() => dlg2page(d), 9);
  const preview = await medianTime(async () => {
    const p = dlg2page(d);
    writeIpynb(p.dialog);
    await scanSecrets(shareTexts(p.dialog, p.indexes));
  }, 9);
  const f = (x: number) => x.toFixed(0);
  console.log(`\nShare (2,000 cells, ${d.messages.length} messages): page ${f(page)} ms (target < 300), preview's host part ${f(preview)} ms (target < 1000)`);
}
void main();
