// Confirming the AI's dialog tools as a person does (issue 32, `dialogNotebook.tools.confirm` at its
// default), in the real VS Code against the local mock of Anthropic's API: a prompt naming &`del_msgs`
// is run with Ctrl+Enter, the mock calls the tool, and VS Code's modal asks first, showing the message to
// delete. Deny keeps the note and the model reads "denied by the user"; Allow deletes it; "Allow for this
// dialog" lets the next call through without asking. Saves tool-confirm.png.
import fs from 'node:fs';
import path from 'node:path';
import { openNewFileAsDialog } from './lib/panelPage.mjs';
import { savedCells, until } from './lib/poll.mjs';
import { setApiKey } from './lib/apiKey.mjs';

const FILE = 'tool-confirm.ipynb';
const KEY = 'sk-mock-tools';
const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
const state = {};

const note = (id, text) => ({ cell_type: 'markdown', id, metadata: {}, source: text });
const prompt = (id, text) => ({ cell_type: 'markdown', id, metadata: { solveit_ai: true }, source: `${text}\n\n${SEP}\n\n` });

function dialog() {
  return {
    cells: [note('gone0001', 'First note to delete.'), note('gone0002', 'Second note to delete.'), note('gone0003', 'Third note to delete.'), prompt('ask00001', 'Tidy up with &`del_msgs`.')],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const rowWith = (page, text) => page.locator('.notebookOverlay:visible .monaco-list-row', { hasText: text }).first();
const modal = (page) => page.locator('.monaco-dialog-box');
/**
 * Presses the modal's button `label` and waits until the modal is gone. A click that lands while VS Code
 * is still laying the modal out is sometimes dropped (the modal stays): then it is pressed again.
 */
async function press(page, label) {
  const button = modal(page).locator('.monaco-button', { hasText: label });
  await until(page, async () => {
    if (await button.count()) await button.click({ timeout: 5000 }).catch(() => {});
    await modal(page).waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
    return modal(page).count();
  }, (n) => n === 0, `the modal closed by ${label}`, 60000);
}
/** The dialog as saved (auto save is on in the browser): its message ids and its prompt's source. */
const saved = () => {
  const cells = savedCells(state.file);
  if (!cells) return undefined;
  const src = (c) => (Array.isArray(c.source) ? c.source.join('') : c.source);
  return { ids: cells.map((c) => c.id), prompt: src(cells.find((c) => c.id === 'ask00001')) };
};
/** Until the saved dialog holds `words` in its prompt's reply; returns the saved ids. */
const answered = async (page, words) => (await until(page, saved, (d) => d?.prompt.includes(words), `the reply "${words}" saved`, 120000)).ids;
/** What the model read back for its last tool call. */
const lastResults = () => {
  const last = state.mock.requests.at(-1).body.messages.at(-1);
  return last.content.filter((p) => p.type === 'tool_result').map((p) => p.content);
};

/** Runs the prompt from the keyboard, as a person does: the cell selected (command mode), then Ctrl+Enter. */
async function runPrompt(page) {
  await rowWith(page, 'Tidy up with').locator('.cell-focus-indicator-left').first().click({ position: { x: 4, y: 10 }, force: true });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Enter');
}

/** The mock calls del_msgs on `id`, then answers in words; the prompt is run and the modal awaited. */
async function askToDelete(page, id, words) {
  state.mock.enqueue({ text: [], toolUse: { id: `toolu_${id}`, name: 'del_msgs', input: { ids: id } } }, { text: [words] });
  await runPrompt(page);
  await modal(page).waitFor({ timeout: 120000 });
}

export const tests = {
  async 'the modal shows what a tool would delete; Deny keeps it and the model reads that'({ page, vsc, workspace, assert }) {
    const mod = await import(new URL('../../out/test/mocks/anthropicServer.cjs', import.meta.url));
    state.mock = await (mod.default ?? mod).start({ apiKey: KEY });
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'dialogNotebook.anthropic.baseUrl': state.mock.url, 'dialogNotebook.model': 'anthropic:claude-mock-tools' }));
    state.file = path.join(workspace, FILE);
    fs.writeFileSync(state.file, JSON.stringify(dialog(), null, 1));
    await openNewFileAsDialog(page, vsc, FILE);
    await setApiKey(page, vsc, 'Anthropic', KEY);

    await askToDelete(page, 'gone0001', 'It was denied.');
    assert.match(await modal(page).innerText(), /First note to delete/, 'the modal shows the message to delete');
    // One way to say no (issue 47): Deny, and no Cancel beside it.
    assert.deepEqual((await modal(page).locator('.monaco-button').allInnerTexts()).map((t) => t.trim()).filter(Boolean).sort(), ['Allow', 'Allow for this dialog', 'Deny']);
    await press(page, /^Deny$/);
    assert.deepEqual(await answered(page, 'It was denied.'), ['gone0001', 'gone0002', 'gone0003', 'ask00001'], 'the note is still there');
    assert.deepEqual(lastResults(), ['denied by the user']);
  },

  async 'Allow deletes it'({ page, assert }) {
    await askToDelete(page, 'gone0001', 'Deleted the first.');
    await press(page, /^Allow$/);
    assert.deepEqual(await answered(page, 'Deleted the first.'), ['gone0002', 'gone0003', 'ask00001'], 'the note deleted');
    assert.notDeepEqual(lastResults(), ['denied by the user']);
  },

  async '"Allow for this dialog" lets the next call through without asking'({ page, assert, screenshot }) {
    await askToDelete(page, 'gone0002', 'Deleted the second.');
    await screenshot('tool-confirm');
    await press(page, 'Allow for this dialog');
    assert.deepEqual(await answered(page, 'Deleted the second.'), ['gone0003', 'ask00001'], 'the second note deleted');
    // The next call is not asked about.
    const asked = state.mock.requests.length;
    state.mock.enqueue({ text: [], toolUse: { id: 'toolu_gone0003', name: 'del_msgs', input: { ids: 'gone0003' } } }, { text: ['Deleted the third.'] });
    await runPrompt(page);
    assert.deepEqual(await answered(page, 'Deleted the third.'), ['ask00001'], 'the third note deleted');
    assert.equal(state.mock.requests.length, asked + 2);
    assert.equal(await modal(page).count(), 0, 'no modal asked');
    await state.mock.close();
  },
};
