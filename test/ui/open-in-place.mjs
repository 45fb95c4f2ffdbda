// Issue 47.2: a dialog opened in VS Code's own Jupyter editor (the setting that opens dialogs as dialogs
// is off) by a click in the Explorer; Dialog: Open as Dialog, from the palette and from the editor's title
// bar, shows it as a dialog in place, without a window reload; Reopen with Jupyter hands it back, also
// without one. Never VS Code's "could not be opened" page. A double-click is another story: VS Code keeps
// the Jupyter model of a double-clicked file alive after its tab closes, and no extension can release it
// (docs/opening-and-python.md); there the best path is the reload offer, which test/ui/first-contact.mjs
// follows, and openDialogsByDefault, which makes the double-click open the dialog (double-click.mjs,
// default-early.mjs).

import { explorerRow, registered } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const BROKEN = 'could not be opened';
/** How long the switch may take on the loaded 2-core test machine (a person on an idle one sees it in seconds). */
const SHOWN_MS = 90000;

/** A prompt cell of the visible editor carries our status bar: the dialog editor shows. */
const dialogShown = (page) => page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first();
const reloadOffer = (page) => page.locator('.notification-list-item', { hasText: 'only after a window reload' });
const tabs = (page, file) => page.locator('.tabs-container .tab', { hasText: file });

/** What the window shows for `file`: 'dialog', 'jupyter' (a notebook without our status bar), 'broken', 'reload' or ''. */
async function shown(page, file) {
  if (await page.getByText(BROKEN).count()) return 'broken';
  if (await reloadOffer(page).count()) return 'reload';
  if (!(await page.locator('.tab.active', { hasText: file }).count())) return '';
  if (await dialogShown(page).isVisible().catch(() => false)) return 'dialog';
  const cells = await page.locator('.notebookOverlay:visible .monaco-list-row.code-cell-row').count();
  return cells ? 'jupyter' : '';
}

/** Waits until `file` shows as `want`; any error page or reload offer on the way fails at once. */
async function waitShown(page, file, want) {
  const last = await until(page, () => shown(page, file), (s) => s === want || s === 'broken' || s === 'reload', `${file} shown as ${want}`, SHOWN_MS);
  if (last !== want) throw new Error(`${file}: ${last === 'broken' ? "VS Code's error page" : 'a reload was asked for'} instead of the ${want} editor`);
}

/** Waits until `file` has one tab: the editor shown, the tab it replaces may still be closing. */
const oneTab = (page, file, what) => until(page, () => tabs(page, file).count(), (n) => n === 1, what);

/** A click in the Explorer: VS Code's preview tab, in Jupyter's editor. */
async function clickedInJupyter(page, file) {
  await explorerRow(page, file).waitFor({ timeout: 60000 });
  await explorerRow(page, file).click();
  await waitShown(page, file, 'jupyter');
}

export const tests = {
  async 'a dialog clicked in the Explorer opens in Jupyter, then Open as Dialog from the palette shows it in place'({ page, vsc }) {
    await registered(page);
    await clickedInJupyter(page, 'basic.ipynb');
    await vsc.runCommand('Dialog: Open as Dialog');
    await waitShown(page, 'basic.ipynb', 'dialog');
    await oneTab(page, 'basic.ipynb', 'one tab: the Jupyter one was replaced');
  },

  async 'Reopen with Jupyter hands it back without a reload'({ page, vsc }) {
    await vsc.runCommand('Dialog: Reopen with Jupyter');
    await waitShown(page, 'basic.ipynb', 'jupyter');
    await oneTab(page, 'basic.ipynb', 'one tab');
  },

  async "Open as Dialog from the editor's title bar shows it in place"({ page, vsc }) {
    await vsc.runCommand('View: Close All Editors');
    await clickedInJupyter(page, 'sections.ipynb');
    const button = page.locator('.editor-actions [aria-label^="Open as Dialog"]').first();
    await button.waitFor({ state: 'visible', timeout: 60000 });
    await button.click();
    await waitShown(page, 'sections.ipynb', 'dialog');
    await oneTab(page, 'sections.ipynb', 'one tab: the Jupyter one was replaced');
  },
};
