// A window without notebooks pays nothing for having us installed (issue 34): in a folder holding no .ipynb
// file the extension is not activated at start-up. A folder that holds some activates it at start-up
// (`workspaceContains`, issue 47.3), so that openDialogsByDefault's editor association is written before
// a dialog is double-clicked. VS Code's own record of what it activated, and why, is its Running
// Extensions editor (it lists only extensions whose activation started, and tells the activation event
// in the hover of each one's activation time), so this reads it there.
// The time it shows (code loading + activate()) is logged for docs/speed.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const OURS = 'Dialog Notebooks';
/** Activated after start-up (VS Code's own extension), so its row says start-up activation is over. */
const STARTUP_FINISHED_WITNESS = 'Merge Conflict';
const TIME = /\b(Startup )?Activation: (\d+)ms/;

/** The Running Extensions row of the extension named `name`. */
const row = (page, name) =>
  page.locator('.runtime-extensions-editor .monaco-list-row', { has: page.locator('.name', { hasText: new RegExp(`^${name}$`) }) });

/** Opens (or refreshes) Running Extensions; VS Code re-renders it as activations are reported. */
async function showRunning(vsc, page) {
  await vsc.runCommand('Developer: Show Running Extensions');
  await page.locator('.runtime-extensions-editor .monaco-list-row').first().waitFor({ timeout: 60000 });
}

/** Waits until `name`'s row shows its activation time (activation finished); returns the ms. */
async function activationMs(page, name, timeout = 120000) {
  const time = row(page, name).locator('.activation-time');
  await time.filter({ hasText: TIME }).waitFor({ timeout });
  return Number(TIME.exec(await time.textContent())[2]);
}

/**
 * Hovers `name`'s activation time until VS Code shows its hover; returns the hover's text. The editor
 * re-renders its rows as activations are reported, and a row rendered under a resting mouse gets no hover,
 * so each try moves the mouse away first.
 */
async function activationHover(page, name, timeout = 60000) {
  const hover = page.locator('.monaco-hover', { hasText: 'Activated' }).first();
  const end = Date.now() + timeout;
  for (;;) {
    try {
      await page.mouse.move(0, 0);
      // Within the try: a row re-rendered while the mouse goes to it is tried again, not a failure.
      await row(page, name).locator('.activation-time').hover({ timeout: 5000 });
      await hover.waitFor({ timeout: 5000 });
      return (await hover.textContent()) ?? '';
    } catch (e) {
      if (Date.now() > end) throw e;
    }
  }
}

/** Opens the workbench on `url` (a folder) and waits until it is restored. */
async function openWindow(page, vsc, url) {
  await page.goto(url);
  await vsc.ready();
}

export const tests = {
  async 'a window whose folder holds no notebook leaves Dialog Notebooks inactive'({ page, vsc, baseUrl, assert, log }) {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-empty-'));
    fs.writeFileSync(path.join(empty, 'notes.md'), '# no notebook here\n');
    await openWindow(page, vsc, `${baseUrl}?folder=${encodeURIComponent(empty)}`);
    await showRunning(vsc, page);
    // onStartupFinished extensions are activated together, so once the witness is done, we would be listed.
    await activationMs(page, STARTUP_FINISHED_WITNESS);
    assert.equal(await row(page, OURS).count(), 0, `${OURS} was activated in a window without notebooks`);
    log('not activated at start-up');
    await vsc.runCommand('View: Close All Editors');
  },

  async 'a window whose folder holds .ipynb files activates it at start-up, on workspaceContains'({ page, vsc, url, assert, log }) {
    await openWindow(page, vsc, url);
    await showRunning(vsc, page);
    const ms = await activationMs(page, OURS);
    // Start-up activations over: the editor stops re-rendering its rows, so a hovered row keeps its hover.
    await activationMs(page, STARTUP_FINISHED_WITNESS);
    const why = await activationHover(page, OURS);
    log(`${why.trim()}: ${ms} ms (code loading + activate())`);
    assert.match(why, /ipynb/, `activated ${why}`);
    await vsc.runCommand('View: Close All Editors');
  },
};
