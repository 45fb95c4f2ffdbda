// Solveit's keys as a person presses them (issue 31), with `dialogNotebook.keymap: "solveit"`
// (solveit-keys.settings.json): a dialog saved with a folded section opens folded; → unfolds it and ←
// folds it again; `w` on a prompt makes its reply's code block a code cell below it; `p` pins, `h`
// hides; Ctrl+Shift+K makes a code cell a note; no key fires while a cell's editor has the focus.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openNewFileAsDialog } from './lib/panelPage.mjs';

const FILE = 'solveit-keys.ipynb'; // in fixtures/, copied into every UI workspace

const rows = (page) => page.locator('.notebookOverlay:visible .monaco-list-row');
/** The row of the code cell showing `text`. */
const rowWith = (page, text) => rows(page).filter({ hasText: text }).first();
const statusOf = (page, text, flag) => rowWith(page, text).locator('.cell-statusbar-container', { hasText: flag });

/** Focuses the code cell showing `text` in command mode (a click in its source, then Escape), as a person does. */
async function commandMode(page, text) {
  await rowWith(page, text).locator('.view-line', { hasText: text }).first().click();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.activeElement?.closest('.monaco-editor'), null, { timeout: 30000 });
}

/** Waits until the dialog's file on disk (auto-saved in the browser) passes `test`. */
async function onDisk(page, workspace, test, what) {
  for (const end = Date.now() + 60000; !test(readFileSync(join(workspace, FILE), 'utf8')); await page.waitForTimeout(250)) {
    if (Date.now() > end) throw new Error(`the saved dialog never showed ${what}`);
  }
}


export const tests = {
  async 'a dialog saved with a folded section opens folded'({ page, vsc, assert }) {
    // The extension is registered (before that, the Explorer's menu has no Open as Dialog).
    await page.locator('.activitybar .action-item a[aria-label^="Dialog"]').first().waitFor({ timeout: 120000 });
    await openNewFileAsDialog(page, vsc, FILE);
    // Notes render in the notebook's webview, so code cells are what the page shows as text.
    await rowWith(page, 'x = 21').waitFor({ timeout: 30000 });
    // Folded: the section's cell is not rendered at all.
    await page.waitForFunction(() => ![...document.querySelectorAll('.notebookOverlay .monaco-list-row')].some((r) => r.textContent.includes('hidden_inside')), null, { timeout: 30000 });
    assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'opening edits nothing');
  },

  async '→ unfolds the section and ← folds it again, and the saved dialog says so'({ page, workspace }) {
    await commandMode(page, 'x = 21');
    await page.keyboard.press('ArrowDown'); // to the heading "## Folded part"
    // Our → wins over VS Code's own (which would unfold without writing the flag).
    await page.keyboard.press('ArrowRight');
    await rowWith(page, 'hidden_inside').waitFor({ timeout: 30000 });
    await onDisk(page, workspace, (t) => !t.includes('"heading_collapsed"') && !t.includes('"hidden"'), 'the section unfolded');
    await page.keyboard.press('ArrowLeft');
    await rowWith(page, 'hidden_inside').waitFor({ state: 'detached', timeout: 30000 });
    await onDisk(page, workspace, (t) => t.includes('"heading_collapsed": true') && t.includes('"hidden": true'), 'the section folded');
  },

  async 'w on a prompt makes the code block of its reply a code cell below it'({ page }) {
    await commandMode(page, 'Give me code');
    await page.keyboard.press('w');
    await rowWith(page, "print('from the reply')").locator('.view-line').first().waitFor({ timeout: 30000 });
    await statusOf(page, "print('from the reply')", 'code').waitFor({ timeout: 30000 });
  },

  async 'p pins, h hides, Ctrl+Shift+K makes a note; typed in an editor they are text'({ page, assert }) {
    await commandMode(page, 'x = 21');
    await page.keyboard.press('p');
    await statusOf(page, 'x = 21', 'pinned').waitFor({ timeout: 30000 });
    await page.keyboard.press('h');
    await statusOf(page, 'x = 21', 'skipped').waitFor({ timeout: 30000 });
    // In the cell's editor the same letters are typed, not run.
    await rowWith(page, 'x = 21').locator('.view-line', { hasText: 'x = 21' }).first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' # ph');
    await rowWith(page, 'x = 21 # ph').waitFor({ timeout: 30000 });
    assert.equal(await statusOf(page, 'x = 21 # ph', 'pinned').count(), 1, 'p typed into the editor did not unpin');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.activeElement?.closest('.monaco-editor'), null, { timeout: 30000 });
    await page.keyboard.press('Control+Shift+K');
    // A note renders in the webview: the code cell's row is gone.
    await rowWith(page, 'x = 21 # ph').waitFor({ state: 'detached', timeout: 30000 });
  },
};
