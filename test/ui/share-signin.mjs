// Dialog: Share… through VS Code's own sign-in, as a person meets it (vscode-e2e.sh `run`): the test
// extension test/ui/share-signin.extension registers the sign-in "GitHub (test)" (`test-github`), whose
// sign-in gets a token from the local GitHub stand-in; the workspace names it in
// `dialogNotebook.share.authenticationProvider` and points `github-enterprise.uri` at the stand-in.
// Publish in the preview meets VS Code's "wants to sign in" consent; Allow, and the gist is made with the
// .md and .ipynb files, the link copied and said. Then the stand-in revokes the token (as GitHub does when
// a token is revoked): Update answers 401, the error's Sign in again meets VS Code's "sign in again"
// dialog (forceNewSession), and the update goes through with the new token.
// Saves share-signin-consent.png, share-signin-shared.png, share-signin-again.png.
import fs from 'node:fs';
import path from 'node:path';
import { openNewFileAsDialog } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const FILE = 'share-signin.ipynb';
const NAME = 'share-signin';
const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
const state = {};

function dialog() {
  const md = (id, source, metadata = {}) => ({ cell_type: 'markdown', id, metadata, source });
  return {
    cells: [md('si000001', '# Gists from VS Code'), md('si000002', `How do I share a dialog?\n\n${SEP}\n\nWith **Dialog: Share…**.`, { solveit_ai: true })],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const modal = (page) => page.locator('.monaco-dialog-box');
/** Presses the modal's button `label` until the modal is gone (a click while it is laid out can be dropped). */
async function press(page, label) {
  const button = modal(page).locator('.monaco-button', { hasText: label }).first();
  await until(page, async () => {
    if (await button.count()) await button.click({ timeout: 5000 }).catch(() => {});
    await modal(page).waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
    return modal(page).count();
  }, (n) => n === 0, `the modal closed by ${label}`, 60000);
}

/** A notification holding `text` (its toast, or its row in the notification center once the toast hid). */
async function notice(page, vsc, text, timeout = 120000) {
  const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: text }).first();
  if (await toast.waitFor({ state: 'visible', timeout }).then(() => true, () => false)) return toast;
  await vsc.runCommand('Notifications: Show Notifications');
  const row = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 30000 });
  return row;
}

/** The preview's Publish/Update button, once it can be pressed. */
async function publishButton(page, vsc, label) {
  const button = await vsc.webview(`#publish >> text=${label}`, { timeout: 60000 });
  await until(page, () => button.isDisabled(), (off) => !off, `${label} enabled`);
  return button;
}

export const tests = {
  async 'Publish asks VS Code to sign in; after Allow the gist is made, the link copied and said'({ page, context, vsc, workspace, baseUrl, screenshot, assert }) {
    const mod = await import(new URL('../../out/test/mocks/githubServer.cjs', import.meta.url));
    state.gh = await (mod.default ?? mod).startGitHub();
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'github-enterprise.uri': state.gh.url, 'dialogNotebook.share.authenticationProvider': 'test-github' }));
    fs.writeFileSync(path.join(workspace, FILE), JSON.stringify(dialog(), null, 1));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseUrl).origin });
    await openNewFileAsDialog(page, vsc, FILE);

    await vsc.runCommand('Dialog: Share…');
    const host = new URL(state.gh.url).host;
    await vsc.webview(`p >> text=A secret gist on ${host}`, { timeout: 60000 });
    await (await publishButton(page, vsc, 'Publish secret gist')).click();

    // VS Code's own consent: this extension wants to sign in with GitHub (test).
    await modal(page).waitFor({ timeout: 120000 });
    const asks = await modal(page).innerText();
    assert.match(asks, /Dialog Notebooks.*wants to sign in using GitHub \(test\)/s, asks);
    assert.equal(state.gh.gists.size, 0, 'nothing is sent before the sign-in');
    await screenshot('share-signin-consent');
    await press(page, 'Allow');

    const made = await until(page, () => state.gh.gists.size, (n) => n === 1, 'the gist made on the stand-in', 120000);
    assert.equal(made, 1);
    const [gist] = [...state.gh.gists.values()];
    assert.deepEqual(Object.keys(gist.files).sort(), [`${NAME}.ipynb`, `${NAME}.md`]);
    assert.equal(gist.public, false, 'a secret gist');
    assert.match(gist.files[`${NAME}.md`], /> How do I share a dialog\?/);
    assert.equal(JSON.parse(gist.files[`${NAME}.ipynb`]).cells.length, 2);
    assert.equal(state.gh.issued.length, 1, 'one sign-in');
    assert.equal(state.gh.requests.find((r) => r.method === 'POST' && r.path === '/api/v3/gists').auth, `token ${state.gh.issued[0]}`, "the sign-in's token was used");
    state.url = `${state.gh.url}/gist/octocat/${gist.id}`;
    state.id = gist.id;
    await notice(page, vsc, `Shared ${NAME} as a secret gist: ${state.url} (link copied)`);
    await vsc.webview(`code >> text=${state.url}`, { timeout: 30000 });
    const copied = await until(page, () => page.evaluate(() => navigator.clipboard.readText()).catch((e) => String(e)), (t) => t === state.url, 'the link on the clipboard', 30000);
    assert.equal(copied, state.url);
    await screenshot('share-signin-shared');
  },

  async 'a revoked token: Update answers 401, Sign in again asks VS Code for a new session and the update goes through'({ page, vsc, screenshot, assert }) {
    state.gh.revoke();
    await vsc.clearNotifications();
    await (await publishButton(page, vsc, 'Update the gist')).click();
    const error = await notice(page, vsc, 'refused the sign-in (401: Bad credentials)');
    assert.equal(state.gh.gists.get(state.id).revisions, 1, 'the refused update changed nothing');
    const again = error.locator('.monaco-button', { hasText: 'Sign in again' }).first();
    await again.hover();
    await again.click();

    // VS Code's own "sign in again" (forceNewSession), with our reason.
    await modal(page).waitFor({ timeout: 120000 });
    const asks = await modal(page).innerText();
    assert.match(asks, /wants you to sign in again using GitHub \(test\)/, asks);
    assert.match(asks, /refused the last sign-in/, asks);
    await screenshot('share-signin-again');
    const button = (await modal(page).locator('.monaco-button').allInnerTexts()).find((t) => /sign in|allow/i.test(t));
    assert.ok(button, 'the dialog has a sign-in button');
    await press(page, button.trim());

    await until(page, () => state.gh.gists.get(state.id)?.revisions, (n) => n === 2, 'the update with the new sign-in', 120000);
    assert.equal(state.gh.issued.length, 2, 'signed in again');
    const patch = state.gh.requests.filter((r) => r.method === 'PATCH').at(-1);
    assert.equal(patch.auth, `token ${state.gh.issued[1]}`, "the new sign-in's token was used");
    await notice(page, vsc, `Updated ${NAME} as a secret gist: ${state.url}`);
    await state.gh.close();
  },
};
