// What a person sees of navigation (vscode-e2e.sh `run`): the Dialog panel beside a dialog with its
// three tabs, dialog text rendered as text (a `<script>` in an output stays visible text, never runs),
// and the Sections tree in the Dialog side bar following the selected cell. Saves panel-*.png and sections-tree.png.

const asDialog = new Set();

/** Opens `file` as a dialog (the first time through "Open as Dialog"; later its open editor). */
async function openDialog(vsc, page, file) {
  // Open it in the first group, so the panel (beside) stays visible.
  if (await page.locator('.editor-group-container').count() > 1) await vsc.runCommand('View: Focus First Editor Group');
  await vsc.quickOpen(file);
  await vsc.waitForNotebook({ timeout: 60000 });
  if (!asDialog.has(file)) {
    await vsc.runCommand('Dialog: Open as Dialog');
    asDialog.add(file);
  }
  await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'code' })
    .or(page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' })).first().waitFor({ timeout: 60000 });
}

/** Waits until the panel shows `file` (it follows the active dialog). */
async function panelShows(vsc, file) {
  await vsc.webview(`.title >> text=${file}`, { timeout: 60000 });
}

/** Clicks the first cell whose editor contains `text` (selecting it), then leaves edit mode. */
async function selectCell(page, text) {
  await page.locator('.notebookOverlay:visible .monaco-list-row', { hasText: text }).first().click({ position: { x: 8, y: 8 } });
  await page.keyboard.press('Escape');
}

export const tests = {
  async 'the panel shows sections with counts and tokens'({ page, vsc, screenshot, assert }) {
    await openDialog(vsc, page, 'sections.ipynb');
    await vsc.runCommand('Dialog: Show Dialog Panel');
    const row = await vsc.webview('.row.heading >> text=Part 1', { timeout: 60000 });
    assert.ok(await row.count());
    const meta = await vsc.webview('.row.heading .meta');
    assert.match(await meta.first().innerText(), /\d+ msgs · ~\d+ tok/);
    await screenshot('panel-sections');
  },

  async 'the history tab shows the turns for the prompt under the cursor, dialog text as text'({ page, vsc, screenshot, assert }) {
    await openDialog(vsc, page, 'outputs.ipynb');
    await panelShows(vsc, 'outputs.ipynb');
    await (await vsc.webview('button[data-tab=history]')).click();
    const turn = await vsc.webview('.turn', { timeout: 60000 });
    // The request for the dialog's only prompt: one user turn (code, outputs, prompt); its old reply is not sent.
    assert.ok((await turn.count()) >= 1, 'the user turn');
    const budget = await vsc.webview('.budget');
    assert.match(await budget.innerText(), /tokens/);
    // `<script>console.log(1)</script>` from an output is shown as text, never as an element
    // (panel-untrusted.mjs checks every tab against script, img, link and iframe payloads).
    const text = await vsc.webview('pre >> text=<script>console.log(1)</script>');
    assert.ok(await text.count(), 'the script tag is visible text');
    const app = await vsc.webview('#app');
    assert.equal(await app.evaluate((el) => el.querySelectorAll('script').length), 0, 'no script element from the dialog');
    await screenshot('panel-history');
  },

  async 'the reply tab explodes the reply into notes and tool calls'({ page, vsc, screenshot, assert }) {
    await openDialog(vsc, page, 'tools.ipynb');
    await selectCell(page, 'Compute some things step by step.');
    await panelShows(vsc, 'tools.ipynb');
    await (await vsc.webview('button[data-tab=reply]')).click();
    const calls = await vsc.webview('.card.call', { timeout: 60000 });
    assert.ok((await calls.count()) >= 2, 'two tool calls');
    const name = await vsc.webview('.card.call input.name');
    assert.equal(await name.first().inputValue(), 'python');
    await screenshot('panel-reply');
  },

  async 'the panel comes back after a reload, on the tab it showed'({ page, vsc, screenshot, assert }) {
    // Waited for before ready(), which the old workbench would otherwise pass at once.
    const reloaded = page.waitForEvent('load', { timeout: 60000 });
    await vsc.runCommand('Developer: Reload Window');
    await reloaded;
    await vsc.ready();
    const tab = await vsc.webview('button.tab.on[data-tab=reply]', { timeout: 60000 });
    assert.equal(await tab.innerText(), 'Reply');
    // and it finds the dialog beside it again
    await panelShows(vsc, 'tools.ipynb');
    await screenshot('panel-restored');
  },

  async 'the Dialog side bar lists the sections tree, which follows the selected cell'({ page, vsc, screenshot }) {
    await openDialog(vsc, page, 'sections.ipynb');
    await vsc.runCommand('Dialog: Focus on Sections View');
    const tree = page.locator('.part.sidebar .monaco-list');
    await tree.locator('.monaco-list-row', { hasText: '1.1 Sub' }).first().waitFor({ timeout: 60000 });
    for (const [cell, row] of [['x = 1', 'x = 1'], ['prompt that looks like a heading', '# prompt that looks like a heading']]) {
      await selectCell(page, cell);
      await tree.locator('.monaco-list-row.selected', { hasText: row }).first().waitFor({ timeout: 30000 });
    }
    await screenshot('sections-tree');
  },
};
