// VS Code's own language models, end to end (issue 21 §8): a test extension (test/ui/vscode-lm.extension,
// packed as a .vsix by scripts/e2e.sh and installed beside ours as a user installs one) contributes a
// model through `contributes.languageModelChatProviders` and `lm.registerLanguageModelChatProvider`; with
// `dialogNotebook.model` = `vscode-lm:dialog-e2e-echo`, running a prompt with its ▶ answers it through
// `vscode.lm`: the reply streams into the cell and is saved after the separator. Saves vscode-lm.png.
import fs from 'node:fs';
import path from 'node:path';
import { openNewFileAsDialog } from './lib/panelPage.mjs';
import { savedSource, until } from './lib/poll.mjs';

const FILE = 'vscode-lm.ipynb';
const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
const HEARD = 'It heard: Greet the test model.';

function dialog() {
  return {
    cells: [
      { cell_type: 'markdown', id: 'n0000001', metadata: {}, source: '# A note before the prompt' },
      { cell_type: 'markdown', id: 'p0000001', metadata: { solveit_ai: true }, source: 'Greet the test model.' },
    ],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/** The rendered reply holding `text`, in whichever output webview shows it. */
async function reply(page, text, timeout = 120000) {
  for (const end = Date.now() + timeout; Date.now() < end; await page.waitForTimeout(250)) {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      const r = f.locator('.dialog-reply', { hasText: text });
      if (await r.count().catch(() => 0)) return r.first();
    }
  }
  throw new Error(`no reply showing "${text}"`);
}

export const tests = {
  async 'a prompt is answered by a model another extension registered with VS Code'({ page, vsc, workspace, screenshot, assert, log }) {
    fs.writeFileSync(path.join(workspace, FILE), JSON.stringify(dialog(), null, 1));
    // A click on the context menu can miss on a loaded machine (the menu stays open): then once more.
    await openNewFileAsDialog(page, vsc, FILE).catch(async (e) => {
      log(`opening again: ${e.message.split('\n')[0]}`);
      await page.keyboard.press('Escape');
      await openNewFileAsDialog(page, vsc, FILE);
    });
    // Run the prompt with its ▶, as a person does.
    const row = page.locator('.notebookOverlay:visible .monaco-list-row', { hasText: 'Greet the test model.' }).first();
    await row.hover();
    await row.locator('.run-button-container .action-label').first().click();
    const shown = await reply(page, HEARD);
    assert.match(await shown.innerText(), /LM-E2E got 1 messages\. It heard: Greet the test model\./);
    await screenshot('vscode-lm');
    // Saved with its key, in the notebook that has the focus since its ▶ was clicked.
    await row.hover();
    await page.keyboard.press('Control+S');
    const file = path.join(workspace, FILE);
    const source = await until(page, () => savedSource(file, 1), (s) => s.includes(HEARD), 'the reply saved');
    assert.ok(source.startsWith(`Greet the test model.\n\n${SEP}\n\nLM-E2E got 1 messages. ${HEARD}`), source);
  },
};
