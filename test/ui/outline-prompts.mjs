// VS Code's Outline and a dialog's prompts (issue 12, item 13): with default settings the Outline omits
// code cells, prompts included. Opening a dialog asks nothing (issue 47: not before the user did anything);
// the first click in Dialog Sections offers to turn "Notebook › Outline: Show Code Cells" on, and once it
// is, the Outline lists the prompt by its first line. Saves outline-prompts.png.
const FILE = 'outline-prompts.ipynb'; // in fixtures/, copied into every UI workspace
// Runs with outline-prompts.settings.json: the other scripts' settings turn the Outline setting on, so that
// the offer never covers what they look at.

const OFFER = 'Show Code Cells';

export const tests = {
  async 'a click in Dialog Sections, not opening, offers to list prompts in the Outline, which then lists them'({ page, vsc, screenshot, assert }) {
    // Jupyter's editor rendering it means the notebook editors are registered (an Open With… menu opened
    // earlier, while the extensions still load, lists only the Text Editor); then it is made a dialog.
    await vsc.quickOpen(FILE);
    await vsc.waitForNotebook({ timeout: 120000 });
    await vsc.runCommand('Dialog: Open as Dialog');
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first().waitFor({ timeout: 60000 });

    // In the notification center: on a loaded machine the toast may have timed out already.
    await vsc.runCommand('Notifications: Show Notifications');
    const center = page.locator('.notifications-center');
    await center.waitFor({ state: 'visible', timeout: 30000 });
    assert.equal(await center.locator('.notification-list-item', { hasText: OFFER }).count(), 0, 'opening a dialog asks nothing about the Outline');
    await vsc.runCommand('Notifications: Hide Notifications');
    // Navigating by the dialog's outline is when the question makes sense.
    await vsc.runCommand('Explorer: Focus on Dialog Sections View');
    const sections = page.locator('.split-view-view', { has: page.locator('.pane-header[aria-label="Dialog Sections Section"]') });
    await sections.locator('.monaco-list-row', { hasText: 'Outline heading' }).first().click();
    await vsc.runCommand('Notifications: Show Notifications');
    const offer = center.locator('.notification-list-item', { hasText: OFFER }).first();
    await offer.waitFor({ state: 'visible', timeout: 60000 });
    await offer.locator('.monaco-button', { hasText: 'Turn On' }).click();
    await vsc.runCommand('Explorer: Focus on Outline View');
    await page.locator('.outline-pane .monaco-list-row', { hasText: 'Which prompt shows in the Outline?' }).first().waitFor({ timeout: 60000 });
    await screenshot('outline-prompts');
  },
};
