// Settings read when used (issue 29.7), in the real VS Code against two local mock Anthropic servers:
// `dialogNotebook.anthropic.baseUrl` changed between two answers (through the Settings API, and by
// rewriting the workspace's .vscode/settings.json as another program would) sends the next answer to the
// new URL, without a reload.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message } from '../../src/core';
import { AnthropicScript, start } from '../mocks/anthropicServer';
import { MockServer } from '../mocks/mockHttp';
import { MOCK_KEYS, cellOf, closeAll, execute, freshDialog, replyText, until, useMockProviders, wsUri } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');

describe('settings are read when used', function () {
  this.timeout(180000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
  let other: MockServer<AnthropicScript>;
  const folderSettings = wsUri('.vscode/settings.json');
  let hadFolderSettings: Uint8Array | undefined;

  before(async () => {
    other = await start({ apiKey: MOCK_KEYS.anthropic });
    hadFolderSettings = await Promise.resolve(vscode.workspace.fs.readFile(folderSettings)).then(undefined, () => undefined);
  });
  after(async () => {
    await closeAll();
    if (hadFolderSettings) return void (await vscode.workspace.fs.writeFile(folderSettings, hadFolderSettings));
    await Promise.resolve(vscode.workspace.fs.delete(folderSettings)).then(undefined, () => undefined);
    await until(() => settings().inspect('anthropic.baseUrl')?.workspaceValue === undefined, 'the folder setting gone');
  });
  after(() => other?.close());

  const answer = async (nb: vscode.NotebookDocument, id: string, server: MockServer<AnthropicScript>, text: string) => {
    server.enqueue({ text: [text] });
    const before = server.requests.length;
    await execute(nb, id);
    await until(() => replyText(cellOf(nb, id)).startsWith(text), `the reply from ${server.url}`);
    assert.equal(server.requests.length, before + 1, `one request to ${server.url}`);
  };

  it('dialogNotebook.anthropic.baseUrl changed between two answers: the second goes to the new URL', async () => {
    const { nb } = await freshDialog('settingsLive', [
      new Message({ id: 'prmt0001', msgType: 'prompt', content: 'First.' }),
      new Message({ id: 'prmt0002', msgType: 'prompt', content: 'Second.' }),
      new Message({ id: 'prmt0003', msgType: 'prompt', content: 'Third.' }),
    ]);
    await answer(nb, 'prmt0001', ant, 'From the first server.');
    const first = ant.requests.length;

    await settings().update('anthropic.baseUrl', other.url, vscode.ConfigurationTarget.Global);
    await answer(nb, 'prmt0002', other, 'From the second server.');
    assert.equal(ant.requests.length, first, 'nothing more went to the old URL');

    // settings.json rewritten by another program (an editor, git): VS Code reports the change, the next answer follows.
    const text = `${JSON.stringify({ 'dialogNotebook.anthropic.baseUrl': ant.url }, null, 2)}\n`;
    await vscode.workspace.fs.writeFile(folderSettings, new TextEncoder().encode(text));
    await until(() => settings().get('anthropic.baseUrl') === ant.url, 'VS Code reading the rewritten settings.json');
    await answer(nb, 'prmt0003', ant, 'From the first server again.');
    assert.equal(other.requests.length, 1, 'nothing more went to the second URL');
  });
});
