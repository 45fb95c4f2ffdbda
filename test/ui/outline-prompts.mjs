// VS Code's Outline and a dialog's prompts (issue 12, item 13): with default settings the Outline omits
// code cells, prompts included; the first dialog opened offers to turn "Notebook › Outline: Show Code
// Cells" on, and once it is, the Outline lists the prompt by its first line. Saves outline-prompts.png.
const FILE = 'outline-prompts.ipynb'; // in fixtures/, copied into every UI workspace

export const tests = {
  async 'the first dialog offers to list prompts in the Outline, which then lists them'({ page, vsc, screenshot }) {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: FILE }).first();
    await row.waitFor({ timeout: 60000 });
    await row.click({ button: 'right' });
    await page.locator('.monaco-menu .action-item', { hasText: 'Open With...' }).first().click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: /^Dialog/ }).first().click();
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first().waitFor({ timeout: 60000 });

    // In the notification center: on a loaded machine the toast may have timed out already.
    await vsc.runCommand('Notifications: Show Notifications');
    const offer = page.locator('.notifications-center .notification-list-item', { hasText: 'Show Code Cells' }).first();
    await offer.waitFor({ state: 'visible', timeout: 60000 });
    await offer.locator('.monaco-button', { hasText: 'Turn On' }).click();
    await vsc.runCommand('Explorer: Focus on Outline View');
    await page.locator('.outline-pane .monaco-list-row', { hasText: 'Which prompt shows in the Outline?' }).first().waitFor({ timeout: 60000 });
    await screenshot('outline-prompts');
  },
};
