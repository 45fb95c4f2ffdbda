// Ghost text in a dialog's code cell (issue 30), as a person uses it in the real VS Code, against the local
// mock of Anthropic's API: typing alone sends nothing (`dialogNotebook.ghostText.auto` is off); Alt+. shows
// a completion as ghost text and Tab inserts it; the request carried the note above the cell and the
// cell's text before the cursor; typing while a slow completion is pending aborts its HTTP request and no
// late ghost appears; Edit with AI shows its proposal before anything changes, and one Ctrl+Z in the cell
// takes an accepted rewrite back. Saves ghost-text.png.
import fs from 'node:fs';
import path from 'node:path';
import { openNewFileAsDialog } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';
import { setApiKey } from './lib/apiKey.mjs';

const FILE = 'ghost.ipynb';
const KEY = 'sk-mock-ghost';
const state = {};

function dialog() {
  return {
    cells: [
      { cell_type: 'markdown', id: 'p0000001', metadata: { solveit_ai: true }, source: 'Which library reads CSV files?\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\npandas' },
      { cell_type: 'markdown', id: 'n0000001', metadata: {}, source: 'We load the sales data from sales.csv.' },
      { cell_type: 'code', id: 'c0000001', metadata: {}, source: 'import pandas as pd', outputs: [], execution_count: null },
    ],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const codeRow = (page) => page.locator('.notebookOverlay:visible .monaco-list-row', { hasText: 'import pandas as pd' }).first();
/** The text the cell's editor shows (its spaces are no-break spaces in the DOM). */
const shown = async (cell) => (await cell.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
const ghost = (page) => page.locator('.notebookOverlay:visible .ghost-text-decoration, .notebookOverlay:visible .ghost-text');

export const tests = {
  async 'typing alone sends nothing; Alt+. shows ghost text from the dialog, Tab inserts it'({ page, vsc, workspace, assert, screenshot }) {
    const mod = await import(new URL('../../out/test/mocks/anthropicServer.cjs', import.meta.url));
    state.mock = await (mod.default ?? mod).start({ apiKey: KEY });
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'dialogNotebook.anthropic.baseUrl': state.mock.url, 'dialogNotebook.model': 'anthropic:claude-mock-ghost' }));
    fs.writeFileSync(path.join(workspace, FILE), JSON.stringify(dialog(), null, 1));
    await openNewFileAsDialog(page, vsc, FILE);

    await setApiKey(page, vsc, 'Anthropic', KEY);

    const cell = codeRow(page);
    await cell.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('df = pd.read_', { delay: 50 });
    await until(page, () => shown(cell), (t) => t.includes('df = pd.read_'), 'the typed text');
    // With `auto` off, typing asks for nothing: no request while VS Code's own inline suggest had time to ask.
    await page.waitForTimeout(3000);
    assert.equal(state.mock.requests.length, 0, 'typing alone sent a request');

    state.mock.enqueue({ text: ['csv(', '"sales.csv")'], usage: { input: 120, output: 6 } });
    await page.keyboard.press('Alt+.');
    await until(page, () => state.mock.requests.length, (n) => n === 1, 'the request Alt+. sends').catch(async (e) => {
      await vsc.runCommand('Dialog: Show Log');
      await screenshot('ghost-text-log');
      throw e;
    });
    await ghost(page).filter({ hasText: 'csv' }).first().waitFor({ timeout: 60000 });
    await screenshot('ghost-text');
    assert.equal(state.mock.requests.length, 1);
    const body = state.mock.requests[0].body;
    const sent = JSON.stringify(body.messages);
    assert.ok(sent.includes('We load the sales data from sales.csv.'), `the note above the cell: ${sent.slice(0, 600)}`);
    assert.ok(sent.includes('import pandas as pd\\ndf = pd.read_<CURSOR/>'), `the cell's text before the cursor: ${sent.slice(-800)}`);
    assert.ok(sent.includes('Which library reads CSV files?'), 'the prompt above');

    await page.keyboard.press('Tab');
    await until(page, () => shown(cell), (t) => t.includes('df = pd.read_csv("sales.csv")'), 'the completion inserted');
    // Its tokens count in the status bar's dialog total.
    await page.locator('.part.statusbar .statusbar-item', { hasText: 'total 126 tok' }).first().waitFor({ timeout: 30000 });
  },

  async 'typing while a slow completion is pending aborts it; no late ghost'({ page, assert }) {
    const cell = codeRow(page);
    await page.keyboard.press('Enter');
    await page.keyboard.type('print(df.', { delay: 50 });
    await until(page, () => shown(cell), (t) => t.includes('print(df.'), 'the typed text');
    const asked = state.mock.requests.length;
    // The deltas arrive, the answer never ends: the completion is still pending.
    state.mock.enqueue({ text: ['head())'], holdOpen: true });
    await page.keyboard.press('Alt+.');
    await until(page, () => state.mock.requests.length, (n) => n === asked + 1, 'the slow request');
    await page.keyboard.type('des', { delay: 50 });
    assert.equal(await state.mock.requests[asked].closed, true, 'the mock saw the connection closed');
    assert.equal(await ghost(page).filter({ hasText: 'head' }).count(), 0, 'a late ghost appeared');
    await until(page, () => shown(cell), (t) => t.includes('print(df.des'), 'the typing kept');
    assert.equal(state.mock.requests.length, asked + 1, 'typing on sent no new request');
  },

  async 'Edit with AI: the proposal shows in a diff, Accept writes it, one Ctrl+Z in the cell takes it back'({ page, vsc, workspace, assert }) {
    const cell = codeRow(page);
    const before = await shown(cell);
    const file = () => fs.readFileSync(path.join(workspace, FILE), 'utf8');
    // What the earlier tests typed (auto saved, as the browser does).
    const saved = await until(page, file, (t) => JSON.parse(t).cells[2].source.join('') === before, 'the typing saved');
    await cell.locator('.monaco-editor .view-lines').first().click();
    state.mock.enqueue({ text: ['```python\n', 'import pandas as pd  # data frames\n', '```'] });
    const asked = state.mock.requests.length;
    // With no selection the whole cell is rewritten; the instruction is typed where the command asks for it.
    await vsc.runCommand('Dialog: Edit with AI…');
    const box = page.locator('.quick-input-widget input').first();
    await box.waitFor({ timeout: 30000 });
    await box.fill('comment the import');
    await box.press('Enter');
    await until(page, () => state.mock.requests.length, (n) => n === asked + 1, 'the Edit with AI request');
    await page.locator('.editor-group-container .tab', { hasText: 'Edit with AI' }).first().waitFor({ timeout: 60000 });
    // Nothing changed before Accept: neither the cell nor the file.
    assert.equal(await shown(cell), before);
    assert.equal(file(), saved);
    // Accept until the palette has it (its context key may lag the diff's tab), once: an accepted edit
    // takes the command away, while the cell may show the rewrite a moment later.
    let accepted = false;
    const accept = async () => (accepted ||= await vsc.runCommand('Dialog: Accept AI Edit').then(() => true, () => false)) && (await shown(cell)).includes('# data frames');
    await until(page, accept, (v) => v, 'the accepted rewrite in the cell');
    // Ctrl+Z in the cell, as a person undoes: the cell's text as it was.
    await cell.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+z');
    await until(page, () => shown(cell), (t) => t === before, 'one Ctrl+Z to restore the cell');
    await state.mock.close();
  },
};
