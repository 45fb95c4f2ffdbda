// Answering prompts from the browser: the real SDKs in the web-worker host call the mock servers the web
// pass started (test/web/pass.mjs), which answer CORS as providers that allow browsers do (Anthropic only
// with its direct-browser-access header); keys in SecretStorage. pass.mjs then checks the requests came
// from the workbench's origin.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, REPLY_SEP, aiRes, readIpynb, replyUsage } from '../../src/core';
import { cellOf, closeAll, execute, freshDialog, readText, replyText, save, until } from '../extension/helpers';
import { webConfig } from './config';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const dialog = () =>
  freshDialog('answer-web', [
    new Message({ id: 'note0001', msgType: 'note', content: '# From the browser' }),
    new Message({ id: 'prmt0001', msgType: 'prompt', content: 'Say hello.' }),
  ]);

describe('web: answering prompts from the browser', function () {
  this.timeout(120000);
  after(async () => {
    await closeAll();
    for (const k of ['anthropic.baseUrl', 'openai.baseUrl']) await settings().update(k, undefined, vscode.ConfigurationTarget.Global);
    await settings().update('model', undefined, vscode.ConfigurationTarget.Workspace);
  });

  for (const provider of ['anthropic', 'openai'] as const) {
    it(`answers with ${provider === 'anthropic' ? 'Anthropic' : 'an OpenAI-compatible endpoint'}, the key in SecretStorage, and saves the reply`, async () => {
      const mock = webConfig()[provider];
      assert.ok(mock, `the pass started a ${provider} mock`);
      await settings().update(`${provider}.baseUrl`, mock.url, vscode.ConfigurationTarget.Global);
      assert.equal(await vscode.commands.executeCommand('dialogNotebook.setApiKey', provider, mock.key), true);
      assert.equal(await vscode.commands.executeCommand('dialogNotebook.selectModel', `${provider}:web-e2e`), `${provider}:web-e2e`);
      const { name, nb } = await dialog();
      await execute(nb, 'prmt0001');
      await until(() => replyUsage(replyText(cellOf(nb, 'prmt0001'))) !== null, 'the reply with its usage block');
      const reply = replyText(cellOf(nb, 'prmt0001'));
      assert.ok(reply.startsWith(mock.replies[0]), reply);
      assert.ok(await save(nb));
      const saved = await readText(name);
      assert.equal(aiRes(readIpynb(saved).messages.find((m) => m.id === 'prmt0001')!), reply);
      const cell = (JSON.parse(saved) as { cells: { id: string; source: string[] }[] }).cells.find((c) => c.id === 'prmt0001')!;
      assert.equal(cell.source.join(''), `Say hello.${REPLY_SEP}${reply}`, 'saved in Solveit’s format: the prompt, the separator, the reply');
    });
  }
});
