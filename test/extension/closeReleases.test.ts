// A closed dialog is let go: once VS Code has closed it, nothing of ours keeps its notebook alive, and
// with it every cell, their messages and the file's text. The controller's pick was kept per document,
// and VS Code never deselects a closed notebook, so every dialog opened in a session stayed in memory
// (the editor bench's extension host grew by each dialog it opened, 128 MB against 78 MB without us).
// Checked with a WeakRef and the extension host's own garbage collector (node:inspector), so the web
// pass, which has neither, skips it. The kernel part needs Debian's jupyter-server and python3-ipykernel.
import { Session } from 'node:inspector';
import * as vscode from 'vscode';
import { Message } from '../../src/core';
import { cellOf, closeAll, execute, freshDialog, replyText, setCellText, until, useMockProviders } from './helpers';

const nodeHost = typeof process !== 'undefined' && !!process.versions?.node;

function collectGarbage(): Promise<void> {
  const s = new Session();
  s.connect();
  return new Promise<void>((resolve, reject) => s.post('HeapProfiler.collectGarbage', (err) => (err ? reject(err) : resolve()))).finally(() => s.disconnect());
}

/** Opens a dialog, runs what `run` runs in it, closes it: a weak reference to the closed notebook. */
async function ranAndClosed(folder: string, run: (nb: vscode.NotebookDocument) => Promise<void>): Promise<WeakRef<vscode.NotebookDocument>> {
  const { nb } = await freshDialog(folder, [
    new Message({ id: 'note0001', msgType: 'note', content: '# A dialog' }),
    new Message({ id: 'code0001', msgType: 'code', content: 'x = 1' }),
    new Message({ id: 'ask00001', msgType: 'prompt', content: 'What is x?' }),
  ]);
  await run(nb);
  const closed = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidCloseNotebookDocument((d) => d === nb && (sub.dispose(), resolve()));
  });
  await closeAll();
  await closed;
  return new WeakRef(nb);
}

async function collected(ref: WeakRef<vscode.NotebookDocument>): Promise<void> {
  await until(async () => {
    await collectGarbage();
    return !ref.deref();
  }, 'the closed dialog to be collected (something still holds its notebook)');
}

describe('a closed dialog is let go', function () {
  this.timeout(120000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });

  it('keeps nothing of a dialog that was answered and closed', async function () {
    if (!nodeHost) this.skip();
    const ref = await ranAndClosed('closeReleases', async (nb) => {
      ant.enqueue({ text: ['x is 1.'] });
      await execute(nb, 'ask00001');
      await until(() => replyText(cellOf(nb, 'ask00001')).includes('x is 1.'), 'the reply');
    });
    await collected(ref);
  });
});

describe('a closed dialog is let go, after its code ran in a kernel', function () {
  this.timeout(300000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'], kernel: true });

  it('keeps nothing of a dialog whose code ran and whose prompt asked the kernel', async function () {
    if (!nodeHost) this.skip();
    const ref = await ranAndClosed('closeReleasesKernel', async (nb) => {
      await vscode.commands.executeCommand('notebook.execute', nb.uri); // the code only: the kernel runs
      await until(() => cellOf(nb, 'code0001').executionSummary?.success, 'the code run');
      await setCellText(cellOf(nb, 'ask00001'), 'What is $`x`?');
      ant.enqueue({ text: ['x is 1.'] });
      await execute(nb, 'ask00001');
      await until(() => replyText(cellOf(nb, 'ask00001')).includes('x is 1.'), 'the reply');
    });
    await collected(ref);
  });
});
