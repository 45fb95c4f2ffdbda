// Issue 29.1, as a new user does it: with dialogNotebook.openDialogsByDefault on, a dialog double-clicked in
// the Explorer shows as a dialog on the first try, as the window opens and (after a reload) before the
// extension is active; a plain notebook shows too (every .ipynb opens in the dialog editor then); then no tab opens or closes by itself for a minute (no
// open/close loop), VS Code's "could not be opened" page never shows, and no file changed by a byte.

import fs from 'node:fs';
import path from 'node:path';
import { explorerRow } from './lib/panelPage.mjs';

const BROKEN = 'could not be opened';
/**
 * How long a double-clicked dialog may take to show. A person on an idle machine sees it within 30 s (the
 * issue's bound); on the shared 2-core test machine the first notebook render alone can take longer.
 */
const SHOWN_MS = 120000;
const FILES = ['basic.ipynb', 'sections.ipynb', 'plain.ipynb'];
const before = new Map();

/** The visible editor is ours: a code cell carries our status bar (message type, pin, skip, export). */
const dialogShown = (page) => page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'code' }).first();
const activeTab = (page, file) => page.locator('.tab.active', { hasText: file });

/** Waits (at most `ms`) for `file` to be the active tab and shown as a dialog; fails on VS Code's error page. */
async function shownAsDialog(page, file, ms) {
  const end = Date.now() + ms;
  for (;;) {
    if (await page.getByText(BROKEN).count()) throw new Error(`VS Code's error page instead of ${file}`);
    if ((await activeTab(page, file).count()) && (await dialogShown(page).isVisible().catch(() => false))) return;
    if (Date.now() > end) throw new Error(`${file} was not shown as a dialog within ${ms / 1000} s`);
    await page.waitForTimeout(200);
  }
}

/** The tab strip: labels in order, the active one marked. */
const tabStrip = (page) =>
  page.evaluate(() => [...document.querySelectorAll('.tabs-container .tab')].map((t) => `${t.classList.contains('active') ? '*' : ''}${t.getAttribute('aria-label') ?? t.textContent}`).join(' | '));

export const tests = {
  // The settings are those the extension writes when openDialogsByDefault is turned on (defaultEditor.ts;
  // the extension-host suite `opening` checks the writing): the setting and the `*.ipynb` association.
  async 'a dialog double-clicked as soon as the Explorer lists it shows as a dialog'({ page, workspace }) {
    for (const f of FILES) before.set(f, fs.readFileSync(path.join(workspace, f)));
    await explorerRow(page, 'basic.ipynb').dblclick();
    await shownAsDialog(page, 'basic.ipynb', SHOWN_MS);
  },

  async 'a plain notebook double-clicked shows in the dialog editor too, nothing flashing'({ page, vsc, assert }) {
    await explorerRow(page, 'plain.ipynb').dblclick();
    await activeTab(page, 'plain.ipynb').waitFor({ timeout: SHOWN_MS });
    await vsc.waitForNotebook({ timeout: SHOWN_MS });
    assert.equal(await page.getByText(BROKEN).count(), 0);
  },

  async 'after a reload, a dialog double-clicked as the window opens shows as a dialog'({ page, vsc, log }) {
    await page.keyboard.press('Escape');
    await vsc.runCommand('View: Close All Editors');
    await vsc.runCommand('Developer: Reload Window');
    // As early as a person can: the moment the Explorer lists the file, the extension is rarely active yet.
    await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 120000 });
    const row = explorerRow(page, 'sections.ipynb');
    await row.waitFor({ timeout: 120000 });
    log(`double-click while ${(await page.getByText('Activating Extensions...').count()) ? 'extensions activate' : 'the extension hosts run'}`);
    await row.dblclick();
    await shownAsDialog(page, 'sections.ipynb', SHOWN_MS);
  },

  async 'no tab opens or closes by itself for 60 s, and no error page shows'({ page, assert }) {
    await page.evaluate(() => {
      window.__tabMutations = 0;
      const observer = new MutationObserver((records) => (window.__tabMutations += records.length));
      for (const c of document.querySelectorAll('.tabs-container')) observer.observe(c, { childList: true });
    });
    const first = await tabStrip(page);
    for (const end = Date.now() + 60000; Date.now() < end; ) {
      assert.equal(await tabStrip(page), first, 'the tab strip stays as it was');
      assert.equal(await page.getByText(BROKEN).count(), 0, "VS Code's error page");
      await page.waitForTimeout(250);
    }
    assert.equal(await page.evaluate(() => window.__tabMutations), 0, 'no tab was added or removed, even briefly');
    assert.ok(await dialogShown(page).isVisible(), 'the dialog is still shown');
  },

  async 'the files are byte-identical'({ workspace, assert }) {
    for (const f of FILES) assert.ok(fs.readFileSync(path.join(workspace, f)).equals(before.get(f)), `${f} unchanged`);
  },
};
