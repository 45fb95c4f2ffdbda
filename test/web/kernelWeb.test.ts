// Code cells from the browser: on a Jupyter Server reached by URL + token (started by test/web/pass.mjs
// with allow_origin for the workbench), through @jupyterlab/services with fetch and the browser's
// WebSocket; without a URL the browser says in one line that only the desktop starts a local server.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message } from '../../src/core';
import { BROWSER_REASON } from '../../src/extension/jupyter/serverChoice';
import { cellOf, closeAll, execute, freshDialog, note, until } from '../extension/helpers';
import { webConfig } from './config';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const code = (id: string, content: string) => new Message({ id, msgType: 'code', content });
const stdout = (cell: vscode.NotebookCell) =>
  cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === 'application/vnd.code.notebook.stdout')
    .map((i) => new TextDecoder().decode(i.data))
    .join('');

describe('web: code cells from the browser', function () {
  this.timeout(180000);
  afterEach(closeAll);
  after(async () => {
    await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('dialogNotebook.setJupyterToken', '');
  });

  it('without a server URL, says that only the desktop starts a local server, and changes nothing', async () => {
    await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
    const { nb } = await freshDialog('kernel-web', [code('loc00001', 'print(1)')]);
    await execute(nb, 'loc00001');
    const n = (await until(() => note(nb, 'loc00001'), 'the note on the cell'))!;
    assert.equal(n.tooltip, BROWSER_REASON);
    assert.equal(cellOf(nb, 'loc00001').outputs.length, 0);
    assert.equal(nb.isDirty, false);
  });

  it('runs a cell on a Jupyter Server by URL + token', async () => {
    const jupyter = webConfig().jupyter;
    assert.ok(jupyter, 'the pass started a Jupyter Server');
    await settings().update('jupyter.serverUrl', jupyter.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('dialogNotebook.setJupyterToken', jupyter.token);
    const { nb } = await freshDialog('kernel-web', [code('rmte0001', "print('from the browser', 6 * 7)")]);
    await execute(nb, 'rmte0001');
    await until(() => stdout(cellOf(nb, 'rmte0001')).includes('42'), 'the output', 120000);
    assert.equal(stdout(cellOf(nb, 'rmte0001')), 'from the browser 42\n');
    assert.equal(cellOf(nb, 'rmte0001').executionSummary?.success, true);
  });
});
