// What a person sees (vscode-e2e.sh `run`): a Solveit dialog offered "Open as Dialog" while Jupyter shows
// it, then opened as a dialog: prompt cells in their own language with highlighted $`variable` and
// &`tool` references, replies rendered as markdown (tool <details>, code), the cell status bar, and Edit
// Reply beside the notebook. Saves dialog.png, the README's screenshot.

const WELCOME = 'AnswerDotAI__solveit_demos__00_Welcome_To_Solveit.ipynb';

/** Scrolls the active notebook with the mouse wheel until a source line holding `text` is near its top. */
async function scrollTo(page, text) {
  const line = page.locator('.notebookOverlay:visible .view-line', { hasText: text }).first();
  const list = page.locator('.notebookOverlay:visible .monaco-list').first();
  const box = await list.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -100000);
  await page.waitForTimeout(300);
  for (let k = 0; k < 150; k++) {
    const at = (await line.isVisible()) ? await line.boundingBox() : null;
    const delta = at ? at.y - (box.y + 60) : 400;
    if (at && Math.abs(delta) < 30) break;
    await page.mouse.wheel(0, Math.max(-400, Math.min(400, delta)));
    await page.waitForTimeout(120);
  }
  await page.waitForTimeout(500);
  return line;
}

export const tests = {
  async 'offers "Open as Dialog" on a dialog that Jupyter opened, and opens it as a dialog'({ page, vsc, screenshot }) {
    await vsc.quickOpen(WELCOME);
    await vsc.waitForNotebook();
    const button = page.locator('.editor-actions [aria-label^="Open as Dialog"]').first();
    await button.waitFor({ state: 'visible', timeout: 15000 });
    await screenshot('jupyter-with-button');
    await button.click();
    // The dialog editor: code cells carry our status bar (message type, pin, skip, export switches).
    await vsc.waitForNotebook();
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'code' }).first().waitFor({ timeout: 20000 });
  },

  async 'shows prompt cells with their replies rendered as markdown'({ page, vsc, assert, screenshot }) {
    // The prompt's source is in our language, with the tool reference tokenised apart from the prose.
    const line = await scrollTo(page, 'Please use');
    const cls = async (t) => line.locator('span > span', { hasText: t }).first().getAttribute('class');
    const prose = await cls('Please use');
    const tool = await cls('add_to_a');
    assert.notEqual(tool, prose, `&\`tool\` highlighted (${tool} vs ${prose})`);
    // The reply renders in the output webview: the tool <details> block and the prose after it.
    const reply = await vsc.webview('text=/Perfect! I.ve added 1000/');
    assert.ok(await reply.count());
    const details = await vsc.webview('details');
    assert.ok(await details.count(), 'the tool-usage <details> block is rendered');
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first().waitFor();
    await vsc.runCommand('View: Close Primary Side Bar');
    await page.waitForTimeout(800);
    await screenshot('dialog');
  },

  async 'highlights $`variable` references in prompts'({ page, assert }) {
    const line = await scrollTo(page, 'page_cts');
    const cls = async (t) => line.locator('span > span', { hasText: t }).first().getAttribute('class');
    assert.notEqual(await cls('page_cts'), await cls('How do I'), '$`variable` highlighted');
  },

  async 'Edit Reply opens the reply as markdown beside the notebook'({ page, vsc, screenshot }) {
    const line = await scrollTo(page, 'page_cts');
    await line.click({ force: true });
    await page.keyboard.press('Escape');
    await vsc.runCommand('Dialog: Edit Reply');
    await page.locator('.tab', { hasText: '.reply.md' }).first().waitFor({ timeout: 15000 });
    await page.locator('.editor-instance .view-line', { hasText: 'FastHTMLWithLiveReload' }).first().waitFor({ timeout: 15000 });
    await screenshot('edit-reply');
  },
};
