// Several UI scripts in one window (scripts/e2e.sh, E2E_TOGETHER='share search …'): a window's start costs
// 15–40 s on a loaded 2-core machine, more than many a script's own checks. Only scripts that need nothing
// of a fresh window run here: they leave no dialog edited, no setting changed, no offer answered that
// another reads (scripts/e2e.sh lists them in UI_TOGETHER). Each script's tests run in its order, named
// "script: test", each after every editor is closed, with the window at its first size.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const names = (process.env.E2E_TOGETHER ?? '').split(/\s+/).filter(Boolean);
if (!names.length) throw new Error('E2E_TOGETHER names no script');

export const tests = {};
for (const name of names) {
  const mod = await import(pathToFileURL(path.join(import.meta.dirname, '..', `${name}.mjs`)).href);
  const own = mod.tests ? Object.entries(mod.tests) : [[name, mod.default]];
  for (const [title, fn] of own) {
    tests[`${name}: ${title}`] = async (ctx) => {
      await fresh(ctx);
      await fn(ctx);
    };
  }
}

let size;
/** Closes what the script before left open (editors, webview panels, a quick input, notifications). */
async function fresh({ page, vsc }) {
  size ??= page.viewportSize();
  await page.setViewportSize(size);
  await page.keyboard.press('Escape');
  await vsc.runCommand('View: Close All Editors');
  await vsc.runCommand('Notifications: Clear All Notifications');
  await page.locator('.notebookOverlay:visible').waitFor({ state: 'detached', timeout: 30000 }).catch(() => undefined);
}
