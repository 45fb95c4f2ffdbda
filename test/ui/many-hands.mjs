// A dialog many hands write (issue 46), as a person sees it: while the user types in a cell of an open
// dialog, an agent in a terminal rewrites the file (three notes added, a code cell edited: it reads the
// JSON, changes it and writes the whole file back). The changes arrive in the open dialog at once, the
// user keeps typing in the same cell, saves with Ctrl+S without any "file is newer" question, and the
// file holds everyone's work. Auto save is off (many-hands.settings.json) so the edits stay unsaved.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openNewFileAsDialog, registered } from './lib/panelPage.mjs';
import { savedCells, until } from './lib/poll.mjs';
import { extensionSaid } from './lib/extensionLog.mjs';

const FILE = 'many-hands.ipynb'; // in fixtures/, copied into every UI workspace
const NOTES = ['Agent note one', 'Agent note two', 'Agent note three'];
const EDITED = 'x = 2  # the agent';

const rowWith = (page, text) => page.locator('.notebookOverlay:visible .monaco-list-row').filter({ has: page.locator('.view-line', { hasText: text }) }).first();
/** How many cells the open dialog shows (a short dialog: every cell has its row). */
const cellCount = (page) => page.locator('.notebookOverlay:visible .monaco-list-row').count();

/** The agent: reads the dialog, adds three notes after the first code cell, edits that cell, writes it all back. */
function agent(path) {
  const nb = JSON.parse(readFileSync(path, 'utf8'));
  const at = nb.cells.findIndex((c) => c.id === 'b0000002');
  nb.cells[at].source = EDITED;
  nb.cells.splice(at + 1, 0, ...NOTES.map((text, i) => ({ cell_type: 'markdown', id: `agent00${i + 1}`, metadata: {}, source: text })));
  writeFileSync(path, JSON.stringify(nb, null, 1) + '\n');
}

const source = (c) => (Array.isArray(c.source) ? c.source.join('') : c.source);

export const tests = {
  async 'an agent rewrites the dialog while the user types: both arrive, a save keeps everyone\'s work'({ page, vsc, workspace, assert }) {
    await registered(page);
    // VS Code's notebook list throws when one splice moves the focused cell past the list's old end.
    const listErrors = [];
    page.on('console', (m) => m.type() === 'error' && /NotebookCellList|reading 'element'/.test(m.text()) && listErrors.push(m.text().split('\n')[0]));
    await openNewFileAsDialog(page, vsc, FILE);
    // The user types at the end of a code cell: an unsaved edit. A click on a dialog just drawn may only
    // select the cell: clicked again until its editor has the keyboard.
    const inUserCell = () => page.evaluate(() => !!document.activeElement?.closest('.monaco-editor') && !!document.activeElement.closest('.monaco-list-row')?.textContent.replace(/\u00a0/g, ' ').includes('user_cell = 0'));
    await until(page, async () => {
      await rowWith(page, 'user_cell = 0').locator('.view-line', { hasText: 'user_cell = 0' }).click();
      return inUserCell();
    }, (ok) => ok, 'the user\'s cell to take the keyboard');
    await page.keyboard.press('End');
    await page.keyboard.type(' + 1');
    await rowWith(page, 'user_cell = 0 + 1').waitFor({ timeout: 30000 });
    await until(page, () => cellCount(page), (n) => n === 4, 'the dialog\'s four cells');

    agent(join(workspace, FILE));

    // What the agent did shows up: three more cells, the edited code, one notification that says so.
    await until(page, () => cellCount(page), (n) => n === 7, 'the agent\'s three notes in the open dialog', 60000);
    await rowWith(page, EDITED).waitFor({ timeout: 30000 });
    assert.deepEqual(listErrors, [], 'the notebook list took the change without an error');
    await vsc.notification('changed on disk', { timeout: 30000 });
    // The cursor is back in the user's cell (VS Code's list may take the focus for a moment): they keep typing.
    await page.waitForFunction(() => !!document.activeElement?.closest('.monaco-editor') && !!document.activeElement.closest('.monaco-list-row')?.textContent.replace(/\u00a0/g, ' ').includes('user_cell = 0 + 1'), null, { timeout: 30000 })
      .catch(async (e) => { const where = await page.evaluate(() => `${document.activeElement?.className} in ${document.activeElement?.closest('.part')?.id} ${document.activeElement?.getAttribute('aria-label')}`); throw new Error(`the cursor never came back to the user's cell (focus: ${where}): ${e.message}${extensionSaid()}`); });
    await page.keyboard.type(' + 2');
    await rowWith(page, 'user_cell = 0 + 1 + 2').waitFor({ timeout: 30000 });

    await page.keyboard.press('Control+S');
    const cells = await until(page, () => savedCells(join(workspace, FILE)), (c) => c?.some((x) => source(x) === 'user_cell = 0 + 1 + 2'), 'the save', 60000);
    assert.equal(await page.locator('.monaco-dialog-box:visible').count(), 0, 'no "file is newer" question');
    assert.deepEqual(cells.map(source), ['# Shared analysis', EDITED, ...NOTES, cells[5] && source(cells[5]), 'user_cell = 0 + 1 + 2']);
    assert.match(source(cells[5]), /^What is x\?/, 'the prompt kept its place');
    assert.deepEqual(cells.slice(2, 5).map((c) => c.id), ['agent001', 'agent002', 'agent003'], 'the agent\'s notes keep their ids');
  },
};
