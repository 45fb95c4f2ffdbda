// Sharing from the browser (issue 54, vscode.dev / github.dev): in the web-worker extension host the gist
// API is called with the browser's fetch, across origins. The pass (test/web/pass.mjs) starts the GitHub
// stand-in answering with the CORS headers api.github.com sends; the suite points `github-enterprise.uri`
// at it and hands the share command the stand-in's token (VS Code skips its sign-in prompt in extension
// tests; the real sign-in is test/ui/share-signin.mjs). Preview, publish (a secret gist with the .md and
// .ipynb), update, Open from URL (the gist's page and its raw .ipynb; a site refusing CORS says so), a
// refused token, delete.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, codeOutput, promptOutput } from '../../src/core';
import { closeAll, freshDialog } from '../extension/helpers';
import { webConfig } from './config';

interface Result {
  ok: boolean;
  message: string;
  url?: string;
  gistId?: string;
  updated?: boolean;
}

const ghe = () => vscode.workspace.getConfiguration('github-enterprise');

/** The gist as the stand-in holds it, read from the browser as a reader's would be. */
async function gistFiles(api: string, id: string): Promise<Record<string, { content: string }>> {
  const r = await fetch(`${api}/gists/${id}`);
  assert.equal(r.status, 200);
  return ((await r.json()) as { files: Record<string, { content: string }> }).files;
}

describe('web: sharing a dialog as a secret gist', function () {
  this.timeout(120000);
  let nb: vscode.NotebookDocument;
  let name: string;
  let shared: Result;
  const gh = () => {
    const g = webConfig().github;
    assert.ok(g, 'the pass started the GitHub stand-in');
    return g;
  };
  const share = (a: object) => vscode.commands.executeCommand<Result>('dialogNotebook.share', nb.uri, { token: gh().token, ...a });

  before(async () => {
    await ghe().update('uri', gh().url, vscode.ConfigurationTarget.Global);
    const made = await freshDialog('share-web', [
      new Message({ id: 'wn000001', msgType: 'note', content: '# Shared from the browser' }),
      new Message({ id: 'wp000001', msgType: 'note', content: 'PINNED-CONTEXT', pinned: 1 }),
      new Message({ id: 'wc000001', msgType: 'code', content: 'print(6 * 7)', output: codeOutput('42\n') }),
      new Message({ id: 'wq000001', msgType: 'prompt', content: 'What is 6 times 7?', output: promptOutput('It is **42**.') }),
    ]);
    nb = made.nb;
    name = made.name.split('/').pop()!.replace(/\.ipynb$/, '');
  });
  after(async () => {
    await closeAll();
    await ghe().update('uri', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the preview, then Publish: a secret gist with the page and the dialog, read back from the browser', async () => {
    const preview = await share({});
    assert.equal(preview.ok, true, preview.message);
    assert.match(preview.message, /3 messages in the preview; 1 left out; 0 look secret/);
    shared = await share({ publish: true });
    assert.equal(shared.ok, true, shared.message);
    assert.equal(shared.url, `${gh().url}/gist/octocat/${shared.gistId}`);
    const files = await gistFiles(`${gh().url}/api/v3`, shared.gistId!);
    assert.deepEqual(Object.keys(files).sort(), [`${name}.ipynb`, `${name}.md`]);
    assert.match(files[`${name}.md`].content, /> What is 6 times 7\?/);
    assert.ok(!files[`${name}.md`].content.includes('PINNED-CONTEXT'), 'the pinned note is left out');
    assert.equal(JSON.parse(files[`${name}.ipynb`].content).cells.length, 3);
  });

  it('sharing again updates the same gist', async () => {
    const again = await share({ publish: true });
    assert.equal(again.ok, true, again.message);
    assert.equal(again.updated, true);
    assert.equal(again.gistId, shared.gistId);
  });

  it('Open from URL opens the gist, and its raw .ipynb, as a new untitled dialog', async () => {
    for (const url of [shared.url!, `${gh().url}/raw/${shared.gistId}/${encodeURIComponent(`${name}.ipynb`)}`]) {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('dialogNotebook.openFromUrl', url);
      assert.ok(uri instanceof vscode.Uri, JSON.stringify(uri));
      assert.equal(uri.scheme, 'untitled');
      const opened = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
      assert.ok(opened);
      assert.deepEqual(opened.getCells().map((c) => c.document.getText().split('\n')[0]), ['# Shared from the browser', 'print(6 * 7)', 'What is 6 times 7?']);
    }
  });

  it('a .ipynb on a site that refuses cross-origin reads: Open from URL says the browser cannot read it, and that the desktop can', async () => {
    const r = await vscode.commands.executeCommand<Result>('dialogNotebook.openFromUrl', `${gh().site}/shared.ipynb`);
    assert.equal(r.ok, false);
    assert.match(r.message, /^Could not read .*shared\.ipynb: the browser could not read it \(.*\): most likely the site refuses cross-origin reads \(CORS\), which VS Code in a browser needs\. VS Code desktop reads any site\. Check the address/);
  });

  it('a refused token says so and publishes nothing; delete takes the gist back', async () => {
    const refused = await vscode.commands.executeCommand<Result>('dialogNotebook.share', nb.uri, { token: 'gho_revoked', publish: true });
    assert.equal(refused.ok, false);
    assert.match(refused.message, /refused the sign-in \(401: Bad credentials\): sign in again and retry/);
    const gone = await vscode.commands.executeCommand<Result>('dialogNotebook.manageShared', 'delete', shared.gistId, gh().token);
    assert.equal(gone.ok, true, gone.message);
    assert.equal((await fetch(`${gh().url}/api/v3/gists/${shared.gistId}`)).status, 404);
  });
});
