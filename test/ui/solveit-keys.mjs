// Solveit's keys as a person presses them (issue 31), with `dialogNotebook.keymap: "solveit"`
// (solveit-keys.settings.json): a dialog saved with a folded section opens folded; → unfolds it and ←
// folds it again; `w` on a prompt makes its reply's code block a code cell below it; `p` pins, `h`
// hides; Ctrl+Shift+K makes a code cell a note; no key fires while a cell's editor has the focus.
// Issue 47: after `w` one cell is selected, and a key acts on the focused cell unless it is part of a
// multi-selection; `i` opens in one press an input VS Code's own key collapsed; the toolbar's "+ Code"
// names Shift+B, which adds a code cell (`b` adds a message of the dialog's default type), not Ctrl+Enter.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openNewFileAsDialog, registered } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

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

/** VS Code's status bar entry of the focused cell: "Cell 3 of 9", or "Cell 3 (2 selected)". */
const cellStatus = (page) => page.locator('.statusbar-item', { hasText: /^\s*Cell \d+/ }).first().innerText().catch(() => '');

/** Waits until the status bar shows one cell selected (no "(N selected)"). */
const oneSelected = (page, what) => until(page, () => cellStatus(page), (t) => /^\s*Cell \d+ of \d+/.test(t), what, 30000);

/** Waits until the dialog's file on disk (auto-saved in the browser) passes `test`. */
async function onDisk(page, workspace, test, what) {
  for (const end = Date.now() + 60000; !test(readFileSync(join(workspace, FILE), 'utf8')); await page.waitForTimeout(250)) {
    if (Date.now() > end) throw new Error(`the saved dialog never showed ${what}`);
  }
}


export const tests = {
  async 'a dialog saved with a folded section opens folded'({ page, vsc, assert }) {
    await registered(page);
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

  async 'after w one cell is selected, and the next key acts on the cell the user moved to'({ page, assert }) {
    await commandMode(page, 'Two blocks please');
    await page.keyboard.press('w');
    await rowWith(page, 'first_block = 1').locator('.view-line').first().waitFor({ timeout: 30000 });
    await rowWith(page, 'second_block = 2').locator('.view-line').first().waitFor({ timeout: 30000 });
    await oneSelected(page, 'one cell selected after w');
    await page.keyboard.press('ArrowUp'); // from the first new cell to the prompt
    await page.keyboard.press('p');
    await statusOf(page, 'Two blocks please', 'pinned').waitFor({ timeout: 30000 });
    assert.equal(await statusOf(page, 'first_block = 1', 'pinned').count(), 0, 'p pinned no extracted cell');
    assert.equal(await statusOf(page, 'second_block = 2', 'pinned').count(), 0, 'p pinned no extracted cell');
  },

  async 'a key acts on the focused cell outside a multi-selection, and on the selection it is part of'({ page, assert }) {
    await commandMode(page, 'first_block = 1');
    await page.keyboard.press('Shift+ArrowDown');
    await until(page, () => cellStatus(page), (t) => /\(2 selected\)/.test(t), 'two cells selected', 30000);
    // VS Code moves the focus out of a multi-selection and keeps the selection.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('h');
    await statusOf(page, 'Two blocks please', 'skipped').waitFor({ timeout: 30000 });
    assert.equal(await statusOf(page, 'first_block = 1', 'skipped').count(), 0, 'h skipped no cell of the selection the focus left');
    assert.equal(await statusOf(page, 'second_block = 2', 'skipped').count(), 0, 'h skipped no cell of the selection the focus left');
    // The focused cell is part of the selection: the key acts on all of it.
    await commandMode(page, 'first_block = 1');
    await page.keyboard.press('Shift+ArrowDown');
    await until(page, () => cellStatus(page), (t) => /\(2 selected\)/.test(t), 'two cells selected', 30000);
    await page.keyboard.press('h');
    await statusOf(page, 'first_block = 1', 'skipped').waitFor({ timeout: 30000 });
    await statusOf(page, 'second_block = 2', 'skipped').waitFor({ timeout: 30000 });
  },

  async 'i opens in one press an input collapsed with VS Code\'s own key'({ page }) {
    await commandMode(page, 'second_block = 2');
    const row = rowWith(page, 'second_block = 2');
    // VS Code's Collapse Cell Input (Ctrl+K Ctrl+C), which tells an extension nothing.
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+C');
    await row.locator('.input-collapse-container').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('i');
    await row.locator('.view-line', { hasText: 'second_block = 2' }).first().waitFor({ timeout: 30000 });
    await row.locator('.input-collapse-container').first().waitFor({ state: 'hidden', timeout: 30000 });
  },

  async '"+ Code" names Shift+B, which adds a code cell, not Ctrl+Enter, which runs one'({ page, assert }) {
    // The toolbar drawn again while a cell's editor has the focus (here by a layout change: the side bar
    // hidden and shown with Ctrl+B; running a cell does it too) labels its buttons in that focus.
    await rowWith(page, 'second_block = 2').locator('.view-line', { hasText: 'second_block = 2' }).first().click();
    const sideBar = page.locator('.part.sidebar');
    await page.keyboard.press('Control+B');
    await sideBar.waitFor({ state: 'hidden', timeout: 30000 });
    await page.keyboard.press('Control+B');
    await sideBar.waitFor({ state: 'visible', timeout: 30000 });
    await commandMode(page, 'second_block = 2');
    const label = await page.locator('.notebookOverlay:visible .notebook-toolbar-container .action-item', { hasText: /^\s*Code\s*$/ }).first().locator('.action-label').first().getAttribute('aria-label');
    assert.doesNotMatch(label ?? '', /Ctrl\+Enter/, `the toolbar's Code names no key that runs instead: ${label}`);
    assert.match(label ?? '', /\(Shift\+B\)/, `the toolbar's Code names Shift+B: ${label}`);
    const before = await rows(page).count();
    await page.keyboard.press('Shift+B');
    // The new code cell below takes typing at once, Shift+B there a letter.
    await page.waitForFunction(() => !!document.activeElement?.closest('.notebookOverlay .cell-editor-container .monaco-editor'), null, { timeout: 30000 });
    await page.keyboard.type('added_by_Shift_B = 1');
    await rowWith(page, 'added_by_Shift_B = 1').locator('.cell-statusbar-container', { hasText: /^\s*code/ }).waitFor({ timeout: 30000 });
    assert.ok((await rows(page).count()) >= before, 'a cell was added');
    await page.keyboard.press('Escape');
  },
};
