// Issue 55.2 and 55.3, a conflict as a person meets it: the user edits a code cell of an open dialog
// (unsaved), an agent rewrites the file with another edit of the same cell. The notification says the
// conflict first ("1 conflict in many-hands.ipynb — both versions kept; …", before it was cut off before
// "1 conflict") and its Show Conflict button selects the first conflict cell; the Sections view says how
// many conflicts there are and marks both versions, `conflict: mine` and `conflict: theirs` (before only
// the other side's copy was marked), a click on one going to its cell. Auto save is off
// (conflicts.settings.json) so the user's edit stays unsaved.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dialogActivity, openNewFileAsDialog, registered } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const FILE = 'many-hands.ipynb'; // in fixtures/
const THEIRS = 'x = 2  # the agent';
const MINE = 'x = 1 + 0';

const rowWith = (page, text) => page.locator('.notebookOverlay:visible .monaco-list-row').filter({ has: page.locator('.view-line', { hasText: text }) }).first();
/** The text of the notebook's selected (focused) cell. */
const focusedCell = (page) => page.evaluate(() => document.querySelector('.notebookOverlay .monaco-list-row.focused')?.textContent?.replace(/\u00a0/g, ' ') ?? '');
/** The Sections view of our side bar. */
const sections = (page) => page.locator('.pane', { has: page.locator('.pane-header[aria-label^="Sections"]') }).first();

export const tests = {
  async 'a conflict: the notification says it first and its button shows the conflict cell'({ page, vsc, workspace, assert }) {
    await registered(page);
    await openNewFileAsDialog(page, vsc, FILE);
    await rowWith(page, 'x = 1').locator('.view-line', { hasText: 'x = 1' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' + 0');
    await rowWith(page, MINE).waitFor({ timeout: 30000 });
    // The agent edits the same cell and writes the file.
    const path = join(workspace, FILE);
    const nb = JSON.parse(readFileSync(path, 'utf8'));
    nb.cells.find((c) => c.id === 'b0000002').source = THEIRS;
    writeFileSync(path, JSON.stringify(nb, null, 1) + '\n');
    await rowWith(page, THEIRS).waitFor({ timeout: 60000 });
    const said = `1 conflict in ${FILE} — both versions kept`;
    await vsc.notification(said, { timeout: 30000 });
    // Away from the conflict first (a click, not Escape, which hides the toasts): the button must bring the user there.
    await rowWith(page, 'user_cell = 0').locator('.view-line').first().click();
    await until(page, () => focusedCell(page), (t) => t.includes('user_cell = 0'), 'the last cell selected');
    // The toast's button, or the same notification's in the notification center once the toast is gone.
    const item = page.locator('.notification-list-item', { hasText: said }).filter({ has: page.locator('.monaco-button', { hasText: 'Show Conflict' }) }).first();
    if (!(await item.isVisible())) await vsc.runCommand('Notifications: Show Notifications');
    const button = item.locator('.monaco-button', { hasText: 'Show Conflict' }).first();
    await button.waitFor({ timeout: 30000 });
    await button.hover();
    await button.click();
    const at = await until(page, () => focusedCell(page), (t) => t.includes(MINE) || t.includes(THEIRS), 'a conflict cell selected');
    assert.ok(at.includes(MINE), `the first conflict cell (mine, above theirs) is selected: ${at.slice(0, 80)}`);
  },

  async 'the Sections view says so and marks both versions, each a click from its cell'({ page, assert, screenshot }) {
    await dialogActivity(page).click();
    const view = sections(page);
    await view.getByText('1 conflict: both versions kept').first().waitFor({ timeout: 60000 });
    const mine = view.locator('.monaco-list-row', { hasText: 'conflict: mine' }).first();
    const theirs = view.locator('.monaco-list-row', { hasText: 'conflict: theirs' }).first();
    await mine.waitFor({ timeout: 30000 });
    await theirs.waitFor({ timeout: 30000 });
    await screenshot('conflicts-sections');
    await theirs.hover();
    await theirs.click();
    const at = await until(page, () => focusedCell(page), (t) => t.includes(THEIRS), 'the conflict cell of theirs selected');
    assert.match(at, /Keep Mine/, 'the selected copy offers Keep Mine on its status bar');
  },

  async 'a note in conflict, rendered: both copies say which side they are and offer the three choices'({ page, vsc, workspace, assert, screenshot }) {
    // The user edits the heading note and leaves it rendered (unsaved); the agent edits it too.
    // The webview's frame showing `text` (not the workbench: the Sections view and cell editors say it too).
    const frameWith = async (text) => {
      for (const f of page.frames()) if (f !== page.mainFrame() && (await f.locator(`text=${text}`).count().catch(() => 0))) return f;
      return undefined;
    };
    // A double-click on the rendered note edits it (the row itself is drawn by the notebook's webview).
    const shown = await until(page, () => frameWith('Shared analysis'), Boolean, 'the rendered heading', 60000);
    await shown.locator('h1', { hasText: 'Shared analysis' }).first().dblclick();
    const heading = page.locator('.notebookOverlay:visible .monaco-list-row.markdown-cell-row').first();
    await heading.locator('.view-line', { hasText: 'Shared analysis' }).first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' (mine)');
    await heading.locator('.view-line', { hasText: 'Shared analysis (mine)' }).first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Escape');
    const path = join(workspace, FILE);
    const nb = JSON.parse(readFileSync(path, 'utf8'));
    nb.cells.find((c) => c.id === 'b0000001').source = '# Shared analysis (theirs)';
    writeFileSync(path, JSON.stringify(nb, null, 1) + '\n');
    // In the notebook's webview, over the rendered copy of theirs: its side and the three choices.
    const frame = await until(page, () => frameWith('conflict: theirs'), Boolean, 'the rendered copy of theirs labelled', 60000);
    const label = frame.locator('.dialog-conflict-label', { hasText: 'conflict: theirs' }).first();
    assert.match(await label.innerText(), /conflict: theirs[\s\S]*Keep Mine[\s\S]*Keep Theirs[\s\S]*Keep Both/);
    // And the user's own copy, rendered too (the merge left the cursor in it: Escape renders it), says so.
    const editing = page.locator('.notebookOverlay:visible .monaco-list-row.markdown-cell-row .view-line', { hasText: 'Shared analysis (mine)' }).first();
    if (await editing.isVisible()) {
      // The cell's own Stop Editing Cell button (✓), as a person ends editing a note.
      const row = page.locator('.notebookOverlay:visible .monaco-list-row.markdown-cell-row').filter({ has: page.locator('.view-line', { hasText: 'Shared analysis (mine)' }) }).first();
      await row.hover();
      const stop = row.locator('.action-item a[aria-label*="Stop Editing"]').first();
      if (await stop.waitFor({ timeout: 10000 }).then(() => true, () => false)) {
        await stop.hover();
        await stop.click();
      } else await vsc.runCommand('Notebook: Stop Editing Cell');
    }
    const mine = frame.locator('.dialog-conflict-label', { hasText: 'conflict: mine' }).first();
    await mine.waitFor({ timeout: 30000 });
    assert.match(await mine.innerText(), /Keep Mine[\s\S]*Keep Theirs[\s\S]*Keep Both/);
    await screenshot('conflicts-rendered');
    const keepTheirs = label.locator('button', { hasText: 'Keep Theirs' });
    await keepTheirs.hover();
    await keepTheirs.click();
    // Settled: one heading left, theirs, and no label.
    await until(page, () => frameWith('conflict: theirs'), (f) => !f, 'the label gone once settled', 60000);
    await frameWith('Shared analysis (theirs)').then((f) => assert.ok(f, 'their heading kept'));
    assert.equal(await frameWith('Shared analysis (mine)'), undefined, 'mine dropped');
  },
};
