// Issue 47.3: `dialogNotebook.openDialogsByDefault` already on when the window starts (settings sync, a
// hand-edited settings.json) and no `*.ipynb` editor association yet: a folder holding .ipynb files
// activates us at start-up, which writes the association before any notebook is opened, so a dialog
// double-clicked then shows as a dialog, never VS Code's "could not be opened" page nor Jupyter's editor.
// (A double-click in the very first second of a window can still beat it: docs/opening-and-python.md.)
// Turning the setting off (by hand, in the workspace's settings.json) removes it (one that was there
// before us, as `npm run open` writes it, is removed too: test/extension/opening.test.ts).

import fs from 'node:fs';
import path from 'node:path';
import { explorerRow } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const BROKEN = 'could not be opened';
const SHOWN_MS = 120000;
const dialogShown = (page) => page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'code' }).first();
const userSettings = () => path.join(process.env.VSCODE_E2E_RUN_DIR ?? '', 'user-data', 'User', 'settings.json');
/** The `*.ipynb` association in a settings file (undefined: none; 'unreadable' while VS Code writes it). */
const association = (file) => () => {
  try {
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8'))['workbench.editorAssociations']?.['*.ipynb'] : undefined;
  } catch {
    return 'unreadable';
  }
};
/** Writes the workspace's settings by hand, as a person edits .vscode/settings.json (VS Code watches it). */
function workspaceSettings(workspace, settings) {
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
}

/** Double-clicks `file` in the Explorer and waits until it shows as a dialog; fails on VS Code's error page. */
async function shownAsDialog(page, file) {
  const row = explorerRow(page, file);
  await row.waitFor({ timeout: 120000 });
  await row.dblclick();
  const end = Date.now() + SHOWN_MS;
  for (;;) {
    if (await page.getByText(BROKEN).count()) throw new Error(`VS Code's error page instead of ${file}`);
    if ((await page.locator('.tab.active', { hasText: file }).count()) && (await dialogShown(page).isVisible().catch(() => false))) return;
    if (Date.now() > end) throw new Error(`${file} was not shown as a dialog within ${SHOWN_MS / 1000} s`);
    await page.waitForTimeout(200);
  }
}

export const tests = {
  // Before the fix the association was written only once a notebook had been opened: this wait timed out.
  async 'the association is written into user settings at start-up, with no notebook opened'({ page }) {
    await until(page, association(userSettings()), (a) => a === 'dialog-notebook', 'the *.ipynb association in settings.json', SHOWN_MS);
  },

  async 'then the first dialog double-clicked shows as a dialog'({ page }) {
    await shownAsDialog(page, 'basic.ipynb');
  },

  async 'turning the setting off by hand removes the association'({ page, workspace }) {
    workspaceSettings(workspace, { 'dialogNotebook.openDialogsByDefault': false });
    await until(page, association(userSettings()), (a) => a === undefined, 'the association removed from user settings');
  },
};
