// Shared by the Playwright scripts that drive the Dialog panel (not a script itself: e2e.sh runs
// test/ui/*.mjs only).

/** The frame holding the panel's app (the webview's inner document). */
export async function appFrame(page, timeout = 60000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    for (const f of page.frames()) {
      if (f !== page.mainFrame() && (await f.locator('#app .tabs').count().catch(() => 0))) return f;
    }
    await page.waitForTimeout(250);
  }
  throw new Error('the Dialog panel did not render');
}

/**
 * Selects the message containing `text` through "Dialog: Find Messages..." (cells below the fold are not
 * rendered); `text` must be the first message that matches it. The row is clicked once it stands first:
 * the picker's rows trail the typing on a loaded machine, and VS Code names a clicked row by its place in
 * the list, so a click on a row the extension has already filtered away picks nothing (the picker then
 * stays open, and the row is clicked again).
 */
export async function goto(page, vsc, text, timeout = 60000) {
  await vsc.runCommand('View: Focus First Editor Group');
  await vsc.runCommand('Dialog: Find Messages...');
  // our picker, not the palette still closing: typing must reach it
  await page.locator('.quick-input-widget input[placeholder^="Find messages"]').waitFor({ timeout: 30000 });
  await page.keyboard.type(text);
  const first = page.locator('.quick-input-list .monaco-list-row[data-index="0"]', { hasText: text });
  const picker = page.locator('.quick-input-widget');
  for (const end = Date.now() + timeout; ; ) {
    await first.click({ timeout: 30000 });
    if (await picker.waitFor({ state: 'hidden', timeout: 5000 }).then(() => true, () => false)) return;
    if (Date.now() > end) throw new Error(`Find Messages did not take a click on "${text}"`);
  }
}

/** Opens a file the script has just written, retrying Quick Open until its file search lists it. */
export async function openNewFile(page, vsc, file, timeout = 60000) {
  const end = Date.now() + timeout;
  for (;;) {
    try {
      return await vsc.quickOpen(file);
    } catch (e) {
      if (Date.now() > end) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/** Our view container's icon in the activity bar. */
export const dialogActivity = (page) => page.locator('.activitybar .action-item a[aria-label^="Dialog"]').first();

/**
 * Waits until VS Code has registered our contributions, witnessed by our icon in the activity bar. Until
 * then (on a loaded machine, seconds after the workbench is ready) the palette finds none of our commands
 * ("No matching commands"), the Explorer's menu has no Open as Dialog, Open With does not list Dialog, and
 * a double-click opens an .ipynb as text.
 */
export async function registered(page, timeout = 120000) {
  await dialogActivity(page).waitFor({ timeout });
}

/** The Explorer row of `file`. */
export const explorerRow = (page, file) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).first();

/**
 * Clicks the item `label` of a context menu that `open` opens (a right-click). VS Code's menu ignores a
 * click that comes right after it opened (on a quiet machine a script's click does): the item is hovered
 * until the menu shows it focused, as a person's pointer does, then clicked. On a loaded machine the
 * right-click can be swallowed or the menu close under the pointer: each step waits for its state a short
 * while, and the menu is opened again, until `timeout`.
 */
export async function clickMenuItem(page, label, open, timeout = 90000) {
  const exact = new RegExp(`^\\s*${label}\\s*$`);
  const item = page.locator('.monaco-menu .action-item', { has: page.locator('.action-label', { hasText: exact }) }).first();
  const focused = page.locator('.monaco-menu .action-item.focused', { has: page.locator('.action-label', { hasText: exact }) }).first();
  const ok = (p) => p.then(() => true, () => false);
  for (const end = Date.now() + timeout; ; ) {
    await open();
    if ((await ok(item.waitFor({ state: 'visible', timeout: 15000 }))) && (await ok(item.hover({ timeout: 5000 }))) && (await ok(focused.waitFor({ timeout: 5000 })))) {
      await item.click({ timeout: 10000 });
      return;
    }
    if (Date.now() > end) throw new Error(`the context menu never showed "${label}" ready to click`);
    await page.keyboard.press('Escape');
  }
}

/**
 * Scrolls the Explorer down until `row` shows: a long folder's rows below the view are not in the page.
 * False when the end of the list comes first.
 */
async function scrolledTo(page, row) {
  const list = page.locator('.explorer-folders-view .monaco-scrollable-element').first();
  if (!(await list.isVisible())) return false;
  await list.hover();
  for (let i = 0; i < 20; i++) {
    const top = await list.evaluate((el) => el.querySelector('.monaco-list-rows')?.style.top ?? '');
    await page.mouse.wheel(0, 300);
    if (await row.waitFor({ timeout: 1000 }).then(() => true, () => false)) return true;
    if ((await list.evaluate((el) => el.querySelector('.monaco-list-rows')?.style.top ?? '')) === top) return false;
  }
  return false;
}

/**
 * Opens a file the script has just written straight in our editor (the Explorer's Open as Dialog) and
 * waits for its prompts. The file watcher can lag far behind on a loaded machine, so after a while the
 * Explorer is refreshed by hand, as a person would.
 */
export async function openNewFileAsDialog(page, vsc, file, timeout = 120000) {
  const row = explorerRow(page, file);
  const end = Date.now() + timeout;
  while (!(await row.waitFor({ timeout: 20000 }).then(() => true, () => false) || (await scrolledTo(page, row)))) {
    if (Date.now() > end) throw new Error(`the Explorer did not list ${file}`);
    await vsc.runCommand('Refresh Explorer');
  }
  const opened = page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first();
  // Once more if the menu swallowed the click all the same.
  for (let tries = 0; ; tries++) {
    await clickMenuItem(page, 'Open as Dialog', () => row.click({ button: 'right' }));
    if (await opened.waitFor({ timeout: 30000 }).then(() => true, () => false)) return;
    if (tries === 2) throw new Error(`Open as Dialog did not open ${file}`);
    await page.keyboard.press('Escape');
  }
}

/** Resolves once `frame` has painted what its DOM holds now (two animation frames), before a check or a screenshot. */
export async function painted(frame) {
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
