// Folded sections as Solveit saved them (issue 47, item 5), from a real dialog's shape: seven folded
// sections, one of them a `###` section of 36 messages directly after an empty folded heading, and 18
// collapsed outputs. Every saved fold opens folded, and folding leaves the selection as it was: the
// status bar never says "(N selected)" while the folds and collapsed outputs are applied.
import { openNewFileAsDialog, registered } from './lib/panelPage.mjs';
import { extensionLogged } from './lib/extensionLog.mjs';
import { until } from './lib/poll.mjs';

const FILE = 'seven-folds.ipynb'; // in fixtures/, copied into every UI workspace
/** Code and prompts inside the folded sections (notes render in the webview, code and prompts as text). */
const HIDDEN = ['inside_one', 'inside_two', 'inside_three', 'big_0', 'big_5', 'big_11', 'Why 3?', 'inside_five', 'inside_six'];

const rowTexts = (page) => page.locator('.notebookOverlay:visible .monaco-list-row').allInnerTexts();

export const tests = {
  async 'every saved fold opens folded, and the selection stays as it was'({ page, vsc, assert }) {
    await registered(page);
    // Each "Cell …" text the status bar shows from now on, as a person would see it flash by.
    await page.evaluate(() => {
      const seen = (window.__cellStatus = []);
      const bar = document.querySelector('.part.statusbar');
      const look = () => {
        for (const el of bar.querySelectorAll('.statusbar-item')) {
          const t = el.textContent.trim();
          if (/^Cell \d+/.test(t) && seen.at(-1) !== t) seen.push(t);
        }
      };
      new MutationObserver(look).observe(bar, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await openNewFileAsDialog(page, vsc, FILE);
    await until(page, () => extensionLogged(`${FILE}: shown as saved`), (v) => v, 'the folds applied');
    // VS Code draws only the rows near the viewport (how many depends on when the headings' heights were
    // measured): a window tall enough to show every row the folds leave.
    const size = page.viewportSize();
    await page.setViewportSize({ width: size.width, height: 3000 });
    const texts = await until(page, () => rowTexts(page), (t) => t.some((x) => x.includes('end_visible')) && !HIDDEN.some((h) => t.some((x) => x.includes(h))), 'every folded section folded');
    await page.setViewportSize(size);
    assert.ok(texts.some((x) => x.includes('four_visible')), 'the open section between folded ones shows');
    assert.ok(texts.some((x) => x.includes('setup_visible')), 'the open part shows');
    // The collapsed output of a visible cell shows VS Code's collapsed-output placeholder.
    const setup = page.locator('.notebookOverlay:visible .monaco-list-row').filter({ has: page.locator('.view-line', { hasText: 'setup_visible' }) }).first();
    await until(page, () => setup.locator('.output-collapse-container').evaluateAll((els) => els.map((e) => getComputedStyle(e).display)), (d) => d.some((x) => x !== 'none'), 'the collapsed output shown collapsed', 30000)
      .catch(async (e) => { throw new Error(`${e.message}\n${(await setup.innerHTML()).slice(0, 3000)}`); });
    const seen = await page.evaluate(() => window.__cellStatus);
    assert.deepEqual(seen.filter((t) => /selected/.test(t)), [], `folding selected no cells: ${seen.join(' → ')}`);
    assert.match(seen.at(-1) ?? '', /^Cell 1 of \d+/, `the first cell is still the selected one: ${seen.join(' → ')}`);
  },
};
