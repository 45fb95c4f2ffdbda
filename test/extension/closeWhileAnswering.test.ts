// Closing or reverting a dialog while its reply streams (issue 28), with auto save on: the answer stops
// as the stop button stops it, nothing is written to the dialog afterwards, and it reopens as it is on
// disk. A pause in a stream never saves a partial reply as the answer: the file keeps the old reply until
// the new one is written, when the answer ends.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, aiRes, readIpynb } from '../../src/core';
import { cellOf, closeAll, execute, freshDialog as fresh, note, openDialog, readText, replyText, showDialog, until, useMockProviders } from './helpers';

const files = () => vscode.workspace.getConfiguration('files');

const freshDialog = () =>
  fresh('closeWhileAnswering', [
    new Message({ id: 'note0001', msgType: 'note', content: '# Close while answering' }),
    new Message({ id: 'prmt0001', msgType: 'prompt', content: 'Say hello.', output: 'Old reply.' }),
    new Message({ id: 'code0001', msgType: 'code', content: 'print(1)' }),
  ]);

/** A long stream (30 s: longer than a loaded machine takes to close or revert): 600 words, 50 ms apart. */
const LONG = { text: Array.from({ length: 600 }, (_, k) => `word${k} `), delayMs: 50 };

/** The tab showing `nb`, if any. */
const tabOf = (nb: vscode.NotebookDocument) =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputNotebook && t.input.uri.toString() === nb.uri.toString());
const isOpen = (name: string) => vscode.workspace.notebookDocuments.some((d) => d.uri.path.endsWith(`/${name}`));

describe('closing or reverting a dialog while it answers', function () {
  this.timeout(180000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
  before(async () => {
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
  });
  afterEach(closeAll);

  it('Revert and Close while a reply streams stops the answer; nothing is written; it reopens as on disk', async () => {
    const { name, nb } = await freshDialog();
    const bytes = await readText(name);
    ant.enqueue(LONG);
    const done = execute(nb, 'prmt0001');
    await until(() => replyText(cellOf(nb, 'prmt0001')).startsWith('word0 word1'), 'the reply to stream in');
    // The command acts on the active editor, and a loaded machine can switch it late: until the dialog's tab is gone.
    await until(async () => {
      if (!tabOf(nb)) return true;
      await showDialog(nb);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      return !tabOf(nb);
    }, 'the dialog\'s editor to close');
    await until(() => nb.isClosed, 'the dialog to close', 60000).catch((e: Error) => {
      // What kept it open: VS Code keeps a modified notebook until it is saved or reverted.
      throw new Error(`${e.message} (modified: ${nb.isDirty}; its reply: ${JSON.stringify(replyText(cellOf(nb, 'prmt0001')).slice(0, 40))})`);
    });
    assert.equal(await ant.requests[ant.requests.length - 1].closed, true, 'the answer was stopped: its stream was cut, not read to the end');
    await done;
    assert.equal(isOpen(name), false, 'no edit opened the dialog again');
    assert.equal(await readText(name), bytes, 'the file is as it was');
    // Reopened: the file as it is on disk, and the prompt answers normally.
    const again = await openDialog(name);
    assert.equal(replyText(cellOf(again, 'prmt0001')), 'Old reply.');
    assert.equal(again.isDirty, false);
    ant.enqueue({ text: ['Fresh answer.'] });
    await execute(again, 'prmt0001');
    await until(() => replyText(cellOf(again, 'prmt0001')).startsWith('Fresh answer.'), 'the next answer');
  });

  // Revert File in code-server 1.139 reloads no notebook (neither ours nor Jupyter's: the dialog turns
  // clean and keeps its cells), so what is checked is ours: the answer stops and writes nothing.
  it('Revert while a reply streams stops the answer; nothing is written; the cell says so', async () => {
    // Auto save off: the dialog is modified while it streams (a revert of a saved dialog does nothing).
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      const { name, nb } = await freshDialog();
      const bytes = await readText(name);
      // The revert comes while the stream pauses (no write in flight to mark the dialog modified again).
      ant.enqueue({ text: ['word0 ', 'word1 ', 'word2 '], delayMs: 10000 });
      const done = execute(nb, 'prmt0001');
      await until(() => replyText(cellOf(nb, 'prmt0001')).startsWith('word0') && nb.isDirty, 'the reply to stream in');
      // The revert acts on the active editor, which a loaded machine may not have switched yet: until it took.
      await until(async () => {
        await showDialog(nb);
        await vscode.commands.executeCommand('workbench.action.files.revert');
        return !nb.isDirty;
      }, 'the revert');
      assert.equal(await ant.requests[ant.requests.length - 1].closed, true, 'the answer was stopped: its stream was cut');
      await done;
      const n = (await until(() => note(nb, 'prmt0001'), 'the note on the cell'))!;
      assert.match(n.text, /stopped: dialog reverted/);
      assert.equal(nb.isDirty, false);
      assert.equal(await readText(name), bytes, 'the file is as it was');
      // A save now writes the file's reply, not the stopped stream.
      await nb.save();
      assert.equal(await readText(name), bytes, 'a save after the stop writes the old reply');
      ant.enqueue({ text: ['Fresh answer.'] });
      await execute(nb, 'prmt0001');
      await until(() => replyText(cellOf(nb, 'prmt0001')).startsWith('Fresh answer.'), 'the next answer');
    } finally {
      await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    }
  });

  it('auto save during a pause in the stream keeps the old reply on disk; the whole reply is saved when it ends', async () => {
    const { name, nb } = await freshDialog();
    const saves: string[] = [];
    const sub = vscode.workspace.onDidSaveNotebookDocument(async (d) => {
      if (d === nb) saves.push(aiRes(readIpynb(await readText(name)).messages.find((m) => m.id === 'prmt0001')!));
    });
    try {
      // A pause of 3 s after the first words: auto save (100 ms) saves the dialog meanwhile.
      ant.enqueue({ text: ['Partial ', 'answer', ' done.'], delayMs: 3000 });
      const done = execute(nb, 'prmt0001');
      await until(() => replyText(cellOf(nb, 'prmt0001')).startsWith('Partial'), 'the first words');
      await until(() => saves.length, 'a save during the pause');
      await done;
      await until(() => saves.some((r) => r.startsWith('Partial answer done.')), 'the whole reply saved');
      const partial = saves.filter((r) => !r.startsWith('Partial answer done.'));
      assert.ok(partial.length >= 1, 'saved while it streamed');
      for (const r of partial) assert.equal(r, 'Old reply.', 'a save while it streams writes the old reply');
    } finally {
      sub.dispose();
    }
  });
});
