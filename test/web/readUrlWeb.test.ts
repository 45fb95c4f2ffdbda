// read_url from the browser (issue 52): in the web-worker host the page is read with the browser's fetch.
// The pass (test/web/pass.mjs) scripts the Anthropic mock to read two pages of a local site: one that lets
// browsers read it comes back as Markdown; one that refuses cross-origin reads, as most sites do, comes back
// as an error saying so and what to do. Both calls are recorded in the reply.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, aiRes, fmt2hist, readIpynb, replyUsage } from '../../src/core';
import { cellOf, closeAll, execute, freshDialog, readText, replyText, save, until } from '../extension/helpers';
import { webConfig } from './config';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const SETTINGS = ['anthropic.baseUrl', 'web.confirm', 'web.allowPrivateAddresses'];

describe('web: read_url from the browser', function () {
  this.timeout(120000);
  after(async () => {
    await closeAll();
    for (const k of SETTINGS) await settings().update(k, undefined, vscode.ConfigurationTarget.Global);
    await settings().update('model', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it("a page that lets browsers read it comes back as Markdown; one that refuses cross-origin reads says so; the reply records both", async () => {
    const mock = webConfig().readUrl;
    assert.ok(mock, 'the pass started the read_url mock and site');
    await settings().update('anthropic.baseUrl', mock.url, vscode.ConfigurationTarget.Global);
    await settings().update('web.confirm', 'never', vscode.ConfigurationTarget.Global);
    await settings().update('web.allowPrivateAddresses', true, vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('dialogNotebook.setApiKey', 'anthropic', mock.key), true);
    assert.equal(await vscode.commands.executeCommand('dialogNotebook.selectModel', 'anthropic:web-read'), 'anthropic:web-read');
    const { name, nb } = await freshDialog('read-url-web', [new Message({ id: 'read0001', msgType: 'prompt', content: `Summarise ${mock.site}/open/article.html` })]);
    await execute(nb, 'read0001');
    await until(() => replyUsage(replyText(cellOf(nb, 'read0001'))) !== null, 'the reply with its usage block');
    assert.ok(await save(nb));
    const reply = aiRes(readIpynb(await readText(name)).messages.find((m) => m.id === 'read0001')!);
    const results = fmt2hist(reply)
      .flatMap((m) => m.content)
      .flatMap((p) => (p.type === 'tool_result' ? [p.text] : []));
    assert.equal(results.length, 2, reply);
    assert.ok(results[0].startsWith('# Widgets\n\nWidgets are **small** parts.'), results[0]);
    assert.ok(!results[0].includes('script text') && !results[0].includes('Nav one'), 'scripts and navigation left out');
    assert.match(results[1], /cross-origin reads \(CORS\).*VS Code desktop reads any site/);
    assert.match(reply, /Widgets come in two sizes\./);
  });
});
