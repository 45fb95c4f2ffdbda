// A new user's first minutes (issue 12, items 1-4), as a person does them: a dialog double-clicked in the
// Explorer opens pinned in VS Code's own Jupyter editor, which offers once to open dialogs as dialogs;
// the labelled "Open as Dialog" button then opens it (never VS Code's "could not be opened" page); the
// Explorer's context menu offers Open as Dialog; the Dialog Sections views show only while a dialog is
// open; and after Esc a palette command acts on the focused cell.

import { clickMenuItem, dialogActivity, explorerRow, registered } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const BROKEN = 'could not be opened';

/** A view's header; VS Code keeps it in the DOM, hidden, when the view is its container's only one. */
const sectionsHeader = (page, name) => page.locator(`.pane-header[aria-label="${name} Section"]`);

/**
 * A notification: its toast, with the pointer resting on it (VS Code hides a toast after a while, but not
 * one under the pointer: on a loaded machine that while can pass between two steps of a script), or, once
 * the toast is gone, its row in the notification center.
 */
async function notice(page, vsc, text, timeout = 60000) {
  const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: text }).first();
  const ok = (p) => p.then(() => true, () => false);
  if ((await ok(toast.waitFor({ state: 'visible', timeout }))) && (await ok(toast.hover({ timeout: 5000 })))) return toast;
  await vsc.runCommand('Notifications: Show Notifications');
  const row = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 30000 });
  return row;
}
/** A code cell of the visible dialog editor carries our status bar (message type, pin, skip, export). */
const dialogShown = (page) => page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'code' }).first();

/** Waits until VS Code shows the error page, a locator, or `timeout` passes; fails on the error page. */
async function waitNoError(page, loc, what, timeout = 90000) {
  const end = Date.now() + timeout;
  while (!(await loc.isVisible().catch(() => false))) {
    if (await page.getByText(BROKEN).count()) throw new Error(`VS Code's error page instead of ${what}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(250);
  }
}

export const tests = {
  async 'no Dialog Sections view is listed while no dialog is open'({ page, vsc, assert }) {
    await explorerRow(page, 'basic.ipynb').waitFor({ timeout: 60000 });
    await registered(page);
    assert.equal(await sectionsHeader(page, 'Dialog Sections').count(), 0, 'Explorer: Dialog Sections');
    await dialogActivity(page).click();
    try {
      await sectionsHeader(page, 'Lineage').first().waitFor({ state: 'attached', timeout: 60000 });
      assert.equal(await sectionsHeader(page, 'Sections').count(), 0, 'Dialog side bar: Sections');
    } finally {
      await vsc.runCommand('View: Show Explorer');
    }
  },

  async 'a dialog double-clicked in the Explorer opens in Jupyter, which offers once to open dialogs as dialogs'({ page, vsc, assert }) {
    await explorerRow(page, 'basic.ipynb').dblclick();
    await vsc.waitForNotebook({ timeout: 90000 });
    const tab = page.locator('.tab.active', { hasText: 'basic.ipynb' });
    await tab.waitFor({ timeout: 30000 });
    assert.doesNotMatch((await tab.getAttribute('class')) ?? '', /\bitalic\b/, 'the double-clicked tab is pinned, not a preview');
    const offer = await notice(page, vsc, 'Open dialogs as dialogs by default?');
    assert.ok(await offer.getByRole('button', { name: 'Open Dialogs as Dialogs' }).count());
    await offer.getByRole('button', { name: "Don't Ask Again" }).click();
    await offer.waitFor({ state: 'hidden', timeout: 30000 });
    await page.keyboard.press('Escape'); // the notification center, if it was opened
  },

  async 'the labelled Open as Dialog button opens the pinned Jupyter tab as a dialog'({ page, assert }) {
    const button = page.locator('.editor-actions [aria-label^="Open as Dialog"]').first();
    await button.waitFor({ state: 'visible', timeout: 60000 });
    assert.equal((await button.innerText()).trim(), 'Open as Dialog', 'the button has a label');
    await button.click();
    // VS Code may keep the Jupyter model of a double-clicked file alive: then the file goes back to
    // Jupyter (VS Code's error page, if it flashed, is closed) and a reload, one click away, opens it.
    const reload = page.locator('.notifications-toasts .notification-list-item', { hasText: 'only after a window reload' }).first();
    await dialogShown(page).or(reload).waitFor({ timeout: 90000 });
    if (await reload.isVisible()) {
      await page.locator('.editor-actions [aria-label^="Open as Dialog"]').first().waitFor({ timeout: 30000 });
      assert.equal(await page.getByText(BROKEN).count(), 0, "no VS Code error page: the file is back in Jupyter");
      assert.ok(await page.locator('.tab', { hasText: 'basic.ipynb' }).count(), 'the file stays open');
      await reload.getByRole('button', { name: 'Reload Window' }).click();
      await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 120000 });
      await waitNoError(page, dialogShown(page), 'the dialog after the reload', 120000);
    }
    // One tab: the Jupyter one was replaced (it may still be closing as the dialog shows).
    await until(page, () => page.locator('.tab', { hasText: 'basic.ipynb' }).count(), (n) => n === 1, 'one tab: the Jupyter one was replaced');
  },

  async 'the Explorer context menu opens a dialog as a dialog'({ page }) {
    await clickMenuItem(page, 'Open as Dialog', () => explorerRow(page, 'sections.ipynb').click({ button: 'right' }));
    await page.locator('.tab.active', { hasText: 'sections.ipynb' }).waitFor({ timeout: 60000 });
    await waitNoError(page, dialogShown(page), 'sections.ipynb as a dialog');
  },

  async 'Dialog Sections is listed while a dialog is open, and goes with its tab'({ page, vsc }) {
    await sectionsHeader(page, 'Dialog Sections').first().waitFor({ timeout: 30000 });
    await vsc.runCommand('View: Close All Editors');
    await sectionsHeader(page, 'Dialog Sections').first().waitFor({ state: 'detached', timeout: 30000 });
  },

  async 'after Esc, a palette command acts on the focused cell'({ page, vsc }) {
    await page.keyboard.press('Escape');
    await vsc.runCommand('View: Close All Editors');
    await vsc.quickOpen('basic.ipynb');
    await vsc.waitForNotebook({ timeout: 90000 });
    await vsc.reopenWith('Dialog');
    await waitNoError(page, dialogShown(page), 'basic.ipynb as a dialog');
    const line = page.locator('.notebookOverlay:visible .view-line', { hasText: 'x = 21' }).first();
    await line.click();
    await page.locator('.statusbar', { hasText: 'Cell 2 of' }).waitFor({ timeout: 30000 });
    await page.keyboard.press('Escape'); // leaves the cell's editor
    await page.keyboard.press('Escape'); // clears the selection; the cell keeps the focus
    await page.locator('.statusbar', { hasText: 'Cell 2 of' }).waitFor({ timeout: 30000 });
    await vsc.runCommand('Dialog: Toggle Pinned');
    const row = page.locator('.notebookOverlay:visible .monaco-list-row', { has: page.locator('.view-line', { hasText: 'x = 21' }) });
    await row.locator('.cell-statusbar-container', { hasText: 'pinned' }).waitFor({ timeout: 30000 });
  },
};
