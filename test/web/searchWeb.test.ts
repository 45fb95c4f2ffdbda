// Message search in the browser's web-worker host (issue 53): the WebAssembly engine loads there, indexes
// the workspace's dialogs, finds a new dialog's reply and opens it at that message.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Dialog, Message, writeIpynb } from '../../src/core';
import { activate, closeAll, until, wsUri } from '../extension/helpers';

type Hit = { file: string; id: string; kind: string; snippet: string };
const query = async (q: string): Promise<Hit[]> => (await vscode.commands.executeCommand<Hit[]>('dialogNotebook.search.query', q)) ?? [];

describe('web: Search All Dialogs', function () {
  this.timeout(120000);
  after(closeAll);

  it('finds a reply in the browser and opens the dialog at it', async () => {
    await activate();
    const name = 'scratch/searchWeb/remembered.ipynb';
    const d = new Dialog([
      new Message({ id: 'bbbb0001', msgType: 'note', content: 'Notes' }),
      new Message({ id: 'bbbb0002', msgType: 'prompt', content: 'Which fruit?', output: 'The persimmonweb kumquat answer.' }),
    ]);
    await vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(writeIpynb(d)));
    const hits = (await until(async () => {
      const h = await query('persimmonweb kumquat');
      return h.length ? h : undefined;
    }, 'the reply found')) as Hit[];
    assert.deepEqual(hits.map((h) => [h.file, h.id, h.kind]), [[name, 'bbbb0002', 'reply']]);
    await vscode.commands.executeCommand('dialogNotebook.search.openHit', hits[0]);
    const ed = (await until(() => vscode.window.activeNotebookEditor?.notebook.uri.path.endsWith(name) && vscode.window.activeNotebookEditor, 'the dialog shown')) as vscode.NotebookEditor;
    await until(() => ed.selections[0]?.start === 1, 'the reply selected');
  });
});
