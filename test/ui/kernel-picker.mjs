// VS Code's kernel picker on a dialog (issue 23): it lists the workspace's venv as "Dialog · Python 3.x
// (.venv)" and a venv without ipykernel with what it lacks; picking the venv puts it in the status bar
// with its Python version. The venvs are made in this script's own workspace. Saves kernel-picker.png.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openNewFileAsDialog } from './lib/panelPage.mjs';

const FILE = 'outline-prompts.ipynb'; // in fixtures/, copied into every UI workspace

export const tests = {
  async 'the kernel picker lists the environments, and picking one shows it in the status bar'({ page, vsc, workspace, screenshot, assert }) {
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(workspace, '.venv')]);
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', join(workspace, 'venv')]);
    await openNewFileAsDialog(page, vsc, FILE);
    await vsc.runCommand('Dialog: Refresh Python Environments');
    const rows = page.locator('.quick-input-widget:visible .quick-input-list .monaco-list-row');
    const venvRow = rows.filter({ hasText: /Dialog · Python 3\.\d+ \(\.venv\)/ }).first();
    // VS Code shows the suggested and recent kernels first; the others are one step further.
    for (let attempt = 1; ; attempt++) {
      await vsc.runCommand('Notebook: Select Notebook Kernel');
      await rows.first().waitFor({ timeout: 60000 });
      const another = rows.filter({ hasText: /Select Another Kernel/ }).first();
      // Chosen from the keyboard: the list is drawn again as controllers arrive, and a click on a row being
      // replaced can wait forever.
      if (await another.isVisible()) {
        await page.keyboard.type('Select Another Kernel');
        await page.keyboard.press('Enter');
        const ours = rows.filter({ hasText: /Dialog Notebooks/ }).first();
        if (await ours.waitFor({ timeout: 5000 }).then(() => true, () => false)) await ours.click();
      }
      if (await venvRow.waitFor({ timeout: 20000 }).then(() => true, () => false)) break;
      assert.ok(attempt < 3, 'the picker lists the .venv');
      await page.keyboard.press('Escape');
    }
    await rows.filter({ hasText: /\(venv\)/ }).first().waitFor({ timeout: 20000 });
    assert.match(await rows.filter({ hasText: /\(venv\)/ }).first().innerText(), /Needs ipykernel/);
    await screenshot('kernel-picker');
    await venvRow.click();
    await page.locator('.statusbar-item', { hasText: /Python 3\.\d+ \(\.venv\)/ }).first().waitFor({ timeout: 60000 });
  },
};
