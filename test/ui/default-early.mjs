// Issue 47.3: `dialogNotebook.openDialogsByDefault` already on when the window starts (settings sync, a
// hand-edited settings.json) and no `*.ipynb` editor association yet: a folder holding .ipynb files
// activates us at start-up, which writes the association before any notebook is opened, so a dialog
// double-clicked then shows as a dialog, never VS Code's "could not be opened" page nor Jupyter's editor.
// (A double-click in the very first second of a window can still beat it: docs/opening-and-python.md.)
// Turning the setting off (by hand, in settings.json) removes the association, ours and one written
// before we were active (as `npm run open` writes it) alike.

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

export const tests = {
  // Before the fix the association was written only once a notebook had been opened: this wait timed out.
  async 'the association is written into user settings at start-up, with no notebook opened'({ page }) {
    await until(page, association(userSettings()), (a) => a === 'dialog-notebook', 'the *.ipynb association in settings.json', SHOWN_MS);
  },

  async 'then the first dialog double-clicked shows as a dialog'({ page }) {
    const row = explorerRow(page, 'basic.ipynb');
    await row.waitFor({ timeout: 120000 });
    await row.dblclick();
    const end = Date.now() + SHOWN_MS;
    for (;;) {
      if (await page.getByText(BROKEN).count()) throw new Error("VS Code's error page instead of basic.ipynb");
      if ((await page.locator('.tab.active', { hasText: 'basic.ipynb' }).count()) && (await dialogShown(page).isVisible().catch(() => false))) break;
      if (Date.now() > end) throw new Error(`basic.ipynb was not shown as a dialog within ${SHOWN_MS / 1000} s`);
      await page.waitForTimeout(200);
    }
  },

  async 'turning the setting off removes the association we wrote'({ page, workspace }) {
    workspaceSettings(workspace, { 'dialogNotebook.openDialogsByDefault': false });
    await until(page, association(userSettings()), (a) => a === undefined, 'the association removed from user settings');
  },

  // Before the fix only an association we had written ourselves was removed: this one stayed.
  async "turning it off removes one written before we were active, as npm run open's"({ page, workspace }) {
    const file = path.join(workspace, '.vscode', 'settings.json');
    // As scripts/openSettings.mjs writes them: the setting on and the association beside it.
    workspaceSettings(workspace, { 'dialogNotebook.openDialogsByDefault': true, 'workbench.editorAssociations': { '*.ipynb': 'dialog-notebook' } });
    workspaceSettings(workspace, { 'dialogNotebook.openDialogsByDefault': false, 'workbench.editorAssociations': { '*.ipynb': 'dialog-notebook' } });
    await until(page, association(file), (a) => a === undefined, 'the association removed from the workspace settings');
  },
};
