// What a person sees of navigation (vscode-e2e.sh `run`): the Dialog panel beside a dialog with its
// three tabs, dialog text rendered as text (a `<script>` in an output stays visible text, never runs),
// and the Sections tree in the Dialog side bar. Saves panel-*.png and sections-tree.png.

async function openDialog(vsc, page, file) {
  await vsc.quickOpen(file);
  await vsc.waitForNotebook();
  await vsc.runCommand('Dialog: Open as Dialog');
  await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'note' }).first().waitFor({ timeout: 20000 }).catch(() => undefined);
  await page.locator('.notebookOverlay:visible .cell-statusbar-container:visible').first().waitFor({ timeout: 20000 });
}

/** Clicks the first cell containing `text` (selecting it), then leaves edit mode. */
async function selectCell(page, text) {
  await page.locator('.notebookOverlay:visible .monaco-list-row', { hasText: text }).first().click({ position: { x: 8, y: 8 } });
  await page.keyboard.press('Escape');
}

export const tests = {
  async 'the panel shows sections with counts and tokens'({ page, vsc, screenshot, assert }) {
    await openDialog(vsc, page, 'sections.ipynb');
    await selectCell(page, 'Part 1');
    await vsc.runCommand('Dialog: Show Dialog Panel');
    const row = await vsc.webview('.row.heading >> text=Part 1');
    assert.ok(await row.count());
    const meta = await vsc.webview('.row.heading .meta');
    assert.match(await meta.first().innerText(), /\d+ msgs · ~\d+ tok/);
    await page.waitForTimeout(500);
    await screenshot('panel-sections');
  },

  async 'the history tab shows the turns for the prompt under the cursor, dialog text as text'({ page, vsc, screenshot, assert }) {
    await openDialog(vsc, page, 'outputs.ipynb');
    await page.waitForTimeout(800);
    await (await vsc.webview('button[data-tab=history]')).click();
    const turn = await vsc.webview('.turn');
    assert.ok((await turn.count()) >= 2, 'user and assistant turns');
    const budget = await vsc.webview('.budget');
    assert.match(await budget.innerText(), /tokens/);
    // `<script>console.log(1)</script>` from an output is shown as text; the only script is the panel's own.
    const text = await vsc.webview('pre >> text=<script>console.log(1)</script>');
    assert.ok(await text.count(), 'the script tag is visible text');
    const scripts = await vsc.webview('script');
    assert.equal(await scripts.count(), 1, 'no script element from the dialog');
    await screenshot('panel-history');
  },

  async 'the reply tab explodes the reply into notes and tool calls'({ page, vsc, screenshot, assert }) {
    await openDialog(vsc, page, 'tools.ipynb');
    await selectCell(page, 'Compute some things step by step.');
    await page.waitForTimeout(800);
    await (await vsc.webview('button[data-tab=reply]')).click();
    const calls = await vsc.webview('.card.call');
    assert.ok((await calls.count()) >= 2, 'two tool calls');
    const name = await vsc.webview('.card.call input.name');
    assert.equal(await name.first().inputValue(), 'python');
    await screenshot('panel-reply');
  },

  async 'the Dialog side bar lists the sections tree'({ page, vsc, screenshot }) {
    await openDialog(vsc, page, 'sections.ipynb');
    await vsc.runCommand('Dialog: Focus on Sections View');
    await page.locator('.monaco-list-row', { hasText: '1.1 Sub' }).first().waitFor({ timeout: 15000 });
    await screenshot('sections-tree');
  },
};
