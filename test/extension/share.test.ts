// Dialog: Share… in the real VS Code, against a local stand-in of GitHub's gist API (test/mocks/
// githubServer.ts, pointed at through `github-enterprise.uri` as an Enterprise server is): the preview
// names what is left out and what looks secret and nothing is sent while a secret is in; a secret gist
// holds <dialog>.md and <dialog>.ipynb; sharing again updates it; 401, 403, 422, offline, a share over
// 10 MB and a gist deleted on GitHub say what to do and publish nothing; Open from URL opens a shared
// dialog untitled; Manage Shared Dialogs updates, copies, opens and deletes; Export as HTML writes one
// self-contained file.
//
// VS Code refuses its sign-in consent prompt inside extension tests (DialogService.skipDialogs), so the
// suite gives the share commands the stand-in's token, as a script would.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, codeOutput, promptOutput, readIpynb } from '../../src/core';
import { startGitHub, GitHubStandIn } from '../mocks/githubServer';
import { closeAll, freshDialog, until, wsUri } from './helpers';

const KEY = 'sk-ant-api03-' + 'Zx7'.repeat(31) + 'AA';

interface Result {
  ok: boolean;
  message: string;
  url?: string;
  gistId?: string;
  updated?: boolean;
  gone?: boolean;
  secrets?: string[];
}

const ghe = () => vscode.workspace.getConfiguration('github-enterprise');

function messages(): Message[] {
  return [
    new Message({ id: 'n0000001', msgType: 'note', content: '# Shared dialog' }),
    new Message({ id: 'p0000001', msgType: 'note', content: 'PINNED-CONTEXT', pinned: 1 }),
    new Message({ id: 's0000001', msgType: 'note', content: 'SKIPPED-NOTE', skipped: 1 }),
    new Message({ id: 'c0000001', msgType: 'code', content: `client = Anthropic(api_key="${KEY}")`, output: codeOutput('ok\n') }),
    new Message({ id: 'c0000002', msgType: 'code', content: 'print(6 * 7)', output: codeOutput('42\n') }),
    new Message({ id: 'q0000001', msgType: 'prompt', content: 'What is 6 times 7?', output: promptOutput('It is **42**.') }),
  ];
}

describe('Dialog: Share…', function () {
  this.timeout(120000);
  let gh: GitHubStandIn;
  let nb: vscode.NotebookDocument;
  let name: string;
  const share = (a: object) => vscode.commands.executeCommand<Result>('dialogNotebook.share', nb.uri, { token: gh.token, ...a });

  before(async () => {
    gh = await startGitHub();
    await ghe().update('uri', gh.url, vscode.ConfigurationTarget.Global);
    const made = await freshDialog('share', messages());
    nb = made.nb;
    name = made.name.split('/').pop()!.replace(/\.ipynb$/, '');
  });
  after(async () => {
    await closeAll();
    await ghe().update('uri', undefined, vscode.ConfigurationTarget.Global);
    await gh.close();
    await vscode.workspace.fs.delete(wsUri('scratch/share'), { recursive: true }).then(undefined, () => undefined);
  });

  it('the preview names what is left out and what looks secret, and nothing is sent while a secret is in', async () => {
    const r = await vscode.commands.executeCommand<Result>('dialogNotebook.share', nb.uri);
    assert.equal(r.ok, true);
    const { state } = (await vscode.commands.executeCommand<{ state: any }>('dialogNotebook.sharePreviewState', nb.uri.toString()))!;
    assert.deepEqual(state.left.map((l: any) => l.text), ['message 2: pinned', 'message 3: skipped (hidden from the AI)']);
    assert.equal(state.secrets.length, 1);
    assert.match(state.secrets[0].text, /^message 4, line 1: .*Anthropic.* sk-a•+AA$/);
    assert.ok(!state.blocks.some((b: any) => /PINNED|SKIPPED/.test(b.md)));
    const refused = await share({ publish: true });
    assert.equal(refused.ok, false);
    assert.match(refused.message, /^Not shared: something looks secret in message 4, line 1/);
    assert.equal(gh.requests.length, 0, 'nothing reached GitHub');
  });

  it('leaving that message out, it publishes a secret gist holding the page and the dialog, the link copied', async () => {
    const r = await share({ publish: true, choices: { leaveOut: ['c0000001'] } });
    assert.equal(r.ok, true, r.message);
    assert.equal(r.updated, false);
    const post = gh.requests.find((q) => q.method === 'POST')!;
    assert.equal(post.path, '/api/v3/gists');
    assert.equal(post.body.public, false);
    assert.deepEqual(Object.keys(post.body.files).sort(), [`${name}.ipynb`, `${name}.md`]);
    const md: string = post.body.files[`${name}.md`].content;
    assert.equal(md, '# Shared dialog\n\n```python\nprint(6 * 7)\n```\n\n```text\n42\n```\n\n> What is 6 times 7?\n\nIt is **42**.\n');
    const shared = readIpynb(post.body.files[`${name}.ipynb`].content);
    assert.deepEqual(shared.messages.map((m) => m.id), ['n0000001', 'c0000002', 'q0000001']);
    assert.equal(await vscode.env.clipboard.readText(), r.url);
    assert.equal(r.url, `${gh.url}/gist/octocat/${r.gistId}`);
  });

  it('sharing again updates the same gist (a new revision), remembered outside the dialog file', async () => {
    const before = gh.requests.length;
    const r = await share({ publish: true, choices: { leaveOut: ['c0000001'] } });
    assert.equal(r.ok, true, r.message);
    assert.equal(r.updated, true);
    const patch = gh.requests.slice(before).find((q) => q.method === 'PATCH')!;
    assert.equal(patch.path, `/api/v3/gists/${r.gistId}`);
    assert.equal(gh.gists.size, 1);
    assert.equal(gh.gists.get(r.gistId!)!.revisions, 2);
    const list = await vscode.commands.executeCommand<{ gistId: string }[]>('dialogNotebook.manageShared', 'list');
    assert.deepEqual(list.map((x) => x.gistId), [r.gistId]);
    const file = new TextDecoder().decode(await vscode.workspace.fs.readFile(nb.uri));
    assert.ok(!file.includes(r.gistId!), 'the dialog file does not remember the share');
  });

  it('a 401, a 403 and a 422 say what to do and change nothing', async () => {
    const gist = [...gh.gists.values()][0];
    const revisions = gist.revisions;
    gh.failNext(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    const r401 = await share({ publish: true, choices: { leaveOut: ['c0000001'] } });
    assert.equal(r401.ok, false);
    assert.match(r401.message, /refused the sign-in \(401: Bad credentials\): sign in again and retry/);
    gh.failNext(403, { message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com/rest', status: '403' });
    const r403 = await share({ publish: true, choices: { leaveOut: ['c0000001'] } });
    assert.equal(r403.ok, false);
    assert.match(r403.message, /refused the request \(403: API rate limit exceeded\): the sign-in needs the gist scope, or a rate limit was hit/);
    gh.failNext(422, { message: 'Validation Failed', errors: [{ resource: 'Gist', code: 'missing_field', field: 'files' }], status: '422' });
    const r422 = await share({ publish: true, choices: { leaveOut: ['c0000001'] } });
    assert.equal(r422.ok, false);
    assert.match(r422.message, /refused the gist \(422: Validation Failed: files missing_field\): nothing was published/);
    assert.equal(gist.revisions, revisions);
    assert.equal(gh.gists.size, 1);
  });

  it('offline, it says GitHub could not be reached and publishes nothing', async () => {
    await ghe().update('uri', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
    try {
      const r = await share({ publish: true, choices: { leaveOut: ['c0000001'] } });
      assert.equal(r.ok, false);
      assert.match(r.message, /could not be reached .*: nothing was published\. Check the connection and try again\./);
    } finally {
      await ghe().update('uri', gh.url, vscode.ConfigurationTarget.Global);
    }
  });

  it('a gist deleted on GitHub is offered anew, then shared as a new gist', async () => {
    const old = [...gh.gists.keys()][0];
    gh.gists.delete(old);
    const r = await share({ publish: true, choices: { leaveOut: ['c0000001'] } });
    assert.equal(r.gone, true);
    assert.match(r.message, /was deleted on 127\.0\.0\.1:\d+\. Share the dialog as a new gist\?/);
    const anew = await share({ publish: true, anew: true, choices: { leaveOut: ['c0000001'] } });
    assert.equal(anew.ok, true, anew.message);
    assert.notEqual(anew.gistId, old);
    const list = await vscode.commands.executeCommand<{ gistId: string }[]>('dialogNotebook.manageShared', 'list');
    assert.deepEqual(list.map((x) => x.gistId), [anew.gistId]);
  });

  it('Open from URL opens the shared dialog as a new untitled dialog, nothing run', async () => {
    const r = (await vscode.commands.executeCommand<{ gistId: string }[]>('dialogNotebook.manageShared', 'list'))[0];
    const uri = await vscode.commands.executeCommand<vscode.Uri>('dialogNotebook.openFromUrl', `${gh.url}/gist/octocat/${r.gistId}`);
    assert.equal(uri.scheme, 'untitled');
    const opened = (await until(() => vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString()), 'the shared dialog open'))!;
    assert.equal(opened.notebookType, 'dialog-notebook');
    assert.deepEqual(opened.getCells().map((c) => c.document.getText()), ['# Shared dialog', 'print(6 * 7)', 'What is 6 times 7?']);
    assert.ok(opened.getCells().every((c) => c.executionSummary?.timing === undefined), 'nothing ran');
    assert.equal(new TextDecoder().decode(opened.cellAt(2).outputs[0].items[0].data), 'It is **42**.', 'the reply came along');
    // The raw .ipynb URL opens the same dialog.
    const raw = `${gh.url}/raw/${r.gistId}/${encodeURIComponent(`${name}.ipynb`)}`;
    const again = await vscode.commands.executeCommand<vscode.Uri>('dialogNotebook.openFromUrl', raw);
    assert.equal(again.scheme, 'untitled');
  });

  it('Manage Shared Dialogs updates the gist (a new revision), copies and opens its link', async () => {
    const r = (await vscode.commands.executeCommand<{ gistId: string; url: string }[]>('dialogNotebook.manageShared', 'list'))[0];
    const revisions = gh.gists.get(r.gistId)!.revisions;
    const updated = await vscode.commands.executeCommand<Result>('dialogNotebook.manageShared', 'update', r.gistId, gh.token);
    assert.equal(updated.ok, true, updated.message);
    assert.equal(gh.gists.get(r.gistId)!.revisions, revisions + 1);
    const copied = await vscode.commands.executeCommand<Result>('dialogNotebook.manageShared', 'copy', r.gistId);
    assert.equal(copied.message, r.url);
    assert.equal(await vscode.env.clipboard.readText(), r.url);
    const opened = await vscode.commands.executeCommand<Result>('dialogNotebook.manageShared', 'open', r.gistId);
    assert.equal(opened.message, r.url);
  });

  it('a share over the 10 MB a gist takes says so and sends nothing', async () => {
    const big = await freshDialog('share-big', [new Message({ id: 'b0000001', msgType: 'note', content: 'A long note. '.repeat(440_000) })]);
    const sent = gh.requests.length;
    const r = await vscode.commands.executeCommand<Result>('dialogNotebook.share', big.nb.uri, { token: gh.token, publish: true });
    assert.equal(r.ok, false);
    assert.match(r.message, /over the 10\.0 MB a gist takes: leave out outputs or big messages/);
    assert.equal(gh.requests.length, sent, 'nothing sent');
  });

  it('Manage Shared Dialogs deletes the gist and forgets it', async () => {
    const r = (await vscode.commands.executeCommand<{ gistId: string }[]>('dialogNotebook.manageShared', 'list'))[0];
    const res = await vscode.commands.executeCommand<Result>('dialogNotebook.manageShared', 'delete', r.gistId, gh.token);
    assert.equal(res.ok, true, res.message);
    assert.equal(gh.requests.at(-1)!.method, 'DELETE');
    assert.equal(gh.gists.size, 0);
    assert.deepEqual(await vscode.commands.executeCommand('dialogNotebook.manageShared', 'list'), []);
  });

  it('Export as HTML writes the page as one self-contained, sanitised file', async () => {
    const target = wsUri('scratch/share/page.html');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('dialogNotebook.exportHtml', nb.uri, target);
    assert.equal(uri.toString(), target.toString());
    const html = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<h1>Shared dialog<\/h1>/);
    assert.match(html, /<blockquote>\s*<p>What is 6 times 7\?<\/p>\s*<\/blockquote>/);
    assert.match(html, /<strong>42<\/strong>/);
    assert.ok(!/<script/i.test(html) && !/PINNED-CONTEXT/.test(html));
  });
});
