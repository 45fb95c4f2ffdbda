// Issue 55.4: the dialoghelper install offer where the error is. A dialog whose code cell stopped at
// `ModuleNotFoundError: No module named 'dialoghelper'` (saved so, as a dialog from Solveit run elsewhere
// is) shows on that cell's status bar "Install dialoghelper" for as long as the error shows, not only in a
// notification that is gone once dismissed; the cell without the error offers nothing. A click installs it
// into the kernel's Python in a terminal the user sees.
import { openNewFileAsDialog, registered } from './lib/panelPage.mjs';

const FILE = 'missing-package.ipynb'; // in fixtures/

const rowWith = (page, text) => page.locator('.notebookOverlay:visible .monaco-list-row').filter({ has: page.locator('.view-line', { hasText: text }) }).first();

export const tests = {
  async "a cell stopped at ModuleNotFoundError for dialoghelper offers the install on its status bar"({ page, vsc, assert, screenshot }) {
    await registered(page);
    await openNewFileAsDialog(page, vsc, FILE);
    const cell = rowWith(page, 'from dialoghelper import');
    const offer = cell.locator('.cell-statusbar-container .cell-status-item', { hasText: 'Install dialoghelper' }).first();
    await offer.waitFor({ timeout: 60000 });
    assert.equal(await rowWith(page, 'z = 3').locator('.cell-status-item', { hasText: 'Install' }).count(), 0, 'no offer on a cell without the error');
    await screenshot('missing-package');
    await offer.hover();
    await offer.click();
    // The install runs where the user sees it.
    await page.locator('.terminal-tabs-entry, .single-terminal-tab, .pane-header, .panel .title', { hasText: 'Install dialoghelper' }).first().waitFor({ timeout: 180000 });
  },
};
