// What a person sees (vscode-e2e.sh `run`): a Solveit dialog offered "Open as Dialog" while Jupyter shows
// it, then opened as a dialog: prompt cells in their own language with highlighted $`variable` and
// &`tool` references, replies rendered as markdown (tool <details>, code), the cell status bar, and Edit
// Reply beside the notebook. Saves dialog.png, the README's screenshot.

import { until } from './lib/poll.mjs';

const WELCOME = 'AnswerDotAI__solveit_demos__00_Welcome_To_Solveit.ipynb';

/**
 * Focuses cell `index` of the active notebook with the keyboard, as a person would (command mode: top,
 * then Down), and centres it; returns the locator of its first source line. Each press is checked on the
 * status bar's "Cell N of M": one that moved nothing (the focus went elsewhere while the notebook was
 * still laying out) is pressed again after the list has the focus back.
 */
async function gotoCell(page, index, lineText) {
  const rows = page.locator('.notebookOverlay:visible .monaco-list-row');
  const statusbar = page.locator('.statusbar');
  const at = async () => Number(/Cell (\d+) of/.exec(await statusbar.innerText())?.[1] ?? 0);
  const focusList = async () => {
    const focused = rows.and(page.locator('.focused'));
    const target = (await focused.count()) ? focused.first() : rows.and(page.locator('.code-cell-row')).filter({ visible: true }).first();
    await target.click({ position: { x: 5, y: 5 }, force: true });
    await page.keyboard.press('Escape'); // command mode: arrows move between cells
  };
  await focusList();
  await page.keyboard.press('Control+Home');
  const end = Date.now() + 90000;
  for (let now = await at(); now !== index + 1; ) {
    if (Date.now() > end) throw new Error(`cell ${index + 1} did not get the focus (the status bar says cell ${now})`);
    const before = now;
    await page.keyboard.press(now > index + 1 ? 'ArrowUp' : 'ArrowDown');
    now = await until(page, at, (n) => n !== before, 'the focus to move', 5000).catch(() => before);
    if (now === before) await focusList();
  }
  await page.keyboard.press('Control+L'); // Notebook: Center Active Cell
  const line = page.locator('.notebookOverlay:visible .view-line', { hasText: lineText }).first();
  await line.waitFor({ state: 'visible', timeout: 60000 });
  await stopsMoving(page, line);
  return line;
}

/** Waits until `loc` keeps its place over three looks 200 ms apart (the centring scroll is animated). */
async function stopsMoving(page, loc, timeout = 30000) {
  const end = Date.now() + timeout;
  let last = null;
  for (let still = 0; still < 2; ) {
    if (Date.now() > end) throw new Error('the notebook did not stop scrolling');
    await page.waitForTimeout(200);
    const box = JSON.stringify(await loc.boundingBox());
    still = box === last ? still + 1 : 0;
    last = box;
  }
}

/** Waits until the TextMate grammar has tokenised `line`: the span holding `token` gets its own class. */
async function highlighted(page, line, token) {
  const spans = line.locator('span > span');
  for (const end = Date.now() + 60000; Date.now() < end; ) {
    const a = await spans.filter({ hasText: token }).first().getAttribute('class');
    const b = await spans.first().getAttribute('class'); // the prose the line starts with
    if (a !== b) return true;
    await page.waitForTimeout(200);
  }
  return false;
}

export const tests = {
  async 'offers "Open as Dialog" on a dialog that Jupyter opened, and opens it as a dialog'({ page, vsc, screenshot }) {
    await vsc.quickOpen(WELCOME);
    await vsc.waitForNotebook();
    const button = page.locator('.editor-actions [aria-label^="Open as Dialog"]').first();
    await button.waitFor({ state: 'visible', timeout: 60000 });
    await screenshot('jupyter-with-button');
    await button.click();
    // The dialog editor: code cells carry our status bar (message type, pin, skip, export switches).
    await vsc.waitForNotebook({ timeout: 60000 });
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'code' }).first().waitFor({ timeout: 60000 });
  },

  async 'shows prompt cells with their replies rendered as markdown'({ page, vsc, assert, screenshot }) {
    // The prompt's source is in our language, with the tool reference tokenised apart from the prose.
    const line = await gotoCell(page, 34, 'Please use');
    assert.ok(await highlighted(page, line, 'add_to_a'), '&`tool` highlighted');
    // The reply renders in the output webview: the tool <details> block and the prose after it.
    const reply = await vsc.webview('text=/Perfect! I.ve added 1000/', { timeout: 60000 });
    assert.ok(await reply.count());
    const details = await vsc.webview('details');
    assert.ok(await details.count(), 'the tool-usage <details> block is rendered');
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first().waitFor();
    await screenshot('tool-reply');
  },

  async 'highlights $`variable` references in prompts'({ page, vsc, assert, screenshot }) {
    const line = await gotoCell(page, 28, 'page_cts');
    assert.ok(await highlighted(page, line, 'page_cts'), '$`variable` highlighted');
    // The README's screenshot: a prompt (wrapped prose, highlighted reference) over its rendered reply.
    await vsc.runCommand('View: Close Primary Side Bar');
    await page.keyboard.press('Control+L');
    await stopsMoving(page, line);
    await vsc.webview('text=/Method 2: Using fast_app/', { timeout: 60000 });
    await screenshot('dialog');
  },

  async 'Edit Reply opens the reply as markdown beside the notebook'({ page, vsc, screenshot }) {
    await gotoCell(page, 28, 'page_cts');
    await vsc.runCommand('Dialog: Edit Reply');
    await page.locator('.tab', { hasText: '.reply.md' }).first().waitFor({ timeout: 60000 });
    await page.locator('.editor-instance .view-line', { hasText: 'FastHTMLWithLiveReload' }).first().waitFor({ timeout: 60000 });
    await screenshot('edit-reply');
  },
};
