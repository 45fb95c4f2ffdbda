// Search All Dialogs as a person uses it (issue 53): the command opens a quick pick, typing three words
// remembered from an answer lists the hit as a reply under its dialog's name, the words highlighted, and
// Enter opens that dialog as a dialog with the prompt whose reply it is selected and shown. Saves search.png.
import fs from 'node:fs';
import path from 'node:path';
import { registered } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const FILE = 'remembered.ipynb';
const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';

function dialog() {
  const note = (id, text) => ({ cell_type: 'markdown', id, metadata: {}, source: text });
  return {
    cells: [
      note('r0000001', '# Notes from months ago'),
      { cell_type: 'code', id: 'r0000002', metadata: {}, execution_count: null, outputs: [], source: 'import pandas as pd' },
      note('r0000003', 'Something else entirely.'),
      { cell_type: 'markdown', id: 'r0000004', metadata: { solveit_ai: true }, source: `How do I reshape a wide table?\n\n${SEP}\n\nUse the quokka pivot: melt the marmalade columns into rows, then group.` },
      note('r0000005', 'The end.'),
    ],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning' },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const row = (page, text) => page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();

export const tests = {
  async 'typing three remembered words finds the reply; Enter opens the dialog at it'({ page, vsc, workspace, assert, screenshot }) {
    fs.writeFileSync(path.join(workspace, FILE), JSON.stringify(dialog(), null, 1));
    await registered(page);
    await vsc.runCommand('Dialog: Search All Dialogs…');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor();
    // The file was written a moment ago: the index may still be reading it, so type again until it is found.
    const hit = row(page, 'quokka pivot');
    await until(page, async () => {
      await input.fill('');
      await input.pressSequentially('quokka marmalade columns', { delay: 30 });
      return hit.waitFor({ timeout: 5000 }).then(() => true, () => false);
    }, (found) => found, 'the reply listed');
    assert.match(await hit.innerText(), /reply/, 'the hit says it is a reply');
    // The list is drawn again as results for each keystroke come in: waited for, not counted at once.
    await row(page, 'remembered').waitFor({ timeout: 30000 }).catch(() => assert.fail('under its dialog\'s name'));
    // The words matched are drawn highlighted in the hit's row.
    const highlight = page.locator('.quick-input-widget .monaco-list-row .monaco-highlighted-label .highlight', { hasText: /quokka|marmalade|columns/i }).first();
    await highlight.waitFor({ timeout: 30000 }).catch(() => assert.fail('a matched word highlighted'));
    await screenshot('search');
    await hit.hover();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30000 });
    // Opened as a dialog, the prompt of that reply selected (cell 4 of 5) and drawn.
    await page.locator('.tab.active', { hasText: FILE }).waitFor({ timeout: 60000 });
    await until(page, () => page.locator('.statusbar-item', { hasText: /^Cell \d+ of \d+/ }).allInnerTexts(), (t) => t.some((x) => /Cell 4 of 5/.test(x)), 'the prompt selected');
    await page.locator('.notebookOverlay:visible .monaco-list-row.focused', { hasText: 'How do I reshape a wide table?' }).waitFor({ timeout: 30000 });
  },
};
