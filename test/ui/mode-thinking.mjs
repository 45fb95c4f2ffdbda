// The dialog's mode and a prompt's thinking switch as a person sees them (issue 21): the window status bar
// shows the mode the file names (Solveit's older `solveit_dialog_mode`), a click on it picks another; the
// prompt's cell status bar has a 🧠 switch that a click turns on; a reply's think block shows as a closed
// "Thinking" fold. Saves mode-thinking.png.
const FILE = 'mode-thinking.ipynb'; // in fixtures/: mode learning, two prompts, no thinking flag

async function replyFrame(page) {
  for (const end = Date.now() + 60000; Date.now() < end; await page.waitForTimeout(200)) {
    for (const f of page.frames()) {
      if (f !== page.mainFrame() && (await f.locator('.dialog-reply').count().catch(() => 0))) return f;
    }
  }
  throw new Error('the reply did not render');
}

export const tests = {
  async 'the status bar shows the mode and selects another; the 🧠 switch turns thinking on'({ page, vsc, screenshot }) {
    await vsc.quickOpen(FILE);
    await vsc.waitForNotebook({ timeout: 120000 });
    await vsc.runCommand('Dialog: Open as Dialog');
    const prompt = page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' });
    await prompt.first().waitFor({ timeout: 60000 });

    // The first reply's think block: a closed fold, its text inside, no `:::` lines shown.
    const frame = await replyFrame(page);
    const reply = frame.locator('.dialog-reply', { hasText: 'Learning: small steps.' });
    const fold = reply.locator('details.thinking');
    await fold.waitFor({ state: 'attached', timeout: 60000 });
    if (await fold.getAttribute('open')) throw new Error('the thinking fold is open');
    if ((await reply.innerText()).includes(':::')) throw new Error('the think block shows its ::: lines');
    await fold.locator('summary').click();
    await fold.locator('text=The file says learning.').waitFor({ timeout: 30000 });

    const mode = (name) => page.locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`^\\s*${name}\\s*$`) });
    await mode('learning').first().waitFor({ timeout: 60000 });

    // The 🧠 switch of the last prompt: off, then on after one click.
    const last = prompt.last();
    const brain = last.locator('.cell-status-item', { hasText: '🧠' });
    await brain.waitFor({ timeout: 30000 });
    if ((await brain.innerText()).includes('thinking')) throw new Error('thinking is on before the click');
    await brain.click();
    await last.locator('.cell-status-item', { hasText: '🧠 thinking' }).waitFor({ timeout: 30000 });

    // The mode's item opens Select Mode; picking concise shows it.
    await mode('learning').first().click();
    const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'concise' }).first();
    await pick.waitFor({ state: 'visible', timeout: 30000 });
    await pick.click();
    await mode('concise').first().waitFor({ timeout: 30000 });
    await screenshot('mode-thinking');
  },
};
