// A window that opens no notebook pays nothing for having us installed (issue 34): the extension is not
// activated at start-up, only when a notebook is opened. VS Code's own record of what it activated, and
// why, is its Running Extensions editor (it lists only extensions whose activation started, and tells
// the activation event in the hover of each one's activation time), so this reads it there.
// The time it shows (code loading + activate()) is logged for docs/speed.md.

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

export const tests = {
  async 'a window that opens no notebook leaves Dialog Notebooks inactive'({ page, vsc, assert, log }) {
    await showRunning(vsc, page);
    // onStartupFinished extensions are activated together, so once the witness is done, we would be listed.
    await activationMs(page, STARTUP_FINISHED_WITNESS);
    assert.equal(await row(page, OURS).count(), 0, `${OURS} was activated in a window that opened no notebook`);
    log('not activated at start-up');
    await vsc.runCommand('View: Close All Editors');
  },

  async 'opening a notebook activates it, on that event'({ page, vsc, assert, log }) {
    await vsc.quickOpen('basic.ipynb');
    await vsc.waitForNotebook({ timeout: 90000 });
    await showRunning(vsc, page);
    const ms = await activationMs(page, OURS);
    const time = row(page, OURS).locator('.activation-time');
    await time.hover();
    const hover = page.locator('.monaco-hover', { hasText: 'Activated by' }).first();
    await hover.waitFor({ timeout: 30000 });
    const why = (await hover.textContent()) ?? '';
    log(`${why.trim()}: ${ms} ms (code loading + activate())`);
    assert.match(why, /on onNotebook:(jupyter-notebook|dialog-notebook)/, `activated ${why}`);
    await vsc.runCommand('View: Close All Editors');
  },
};
