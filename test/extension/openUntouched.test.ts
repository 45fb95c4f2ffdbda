// Opening writes nothing (issue 28.1), in the real VS Code with `files.autoSave: afterDelay` (the browser's
// default): in a workspace holding a `.venv` made with `--system-site-packages` (so its controller is the
// one preferred for every dialog and is selected as the dialog opens), every corpus dialog of the workspace
// (synthetic, every public one in .corpus/public, the UI fixtures; not what other suites left in scratch/)
// is opened and shown, and once the environments' controllers were selected and auto save had more than
// its delay to act, every file is byte-identical,
// no new file appeared beside them (no `<dialog>.py`), no dialog is dirty and none had a change event. A
// dialog whose kernelspec names another environment keeps it. In the web pass (no processes) there is no
// venv, and the public corpus is left to the desktop pass (the same serializer reads it; the web pass
// checks the browser's extension host on the synthetic edge cases, the fixtures and two public dialogs).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, activate, closeAll, until, wsUri } from './helpers';

/** The desktop's extension host (Node): the web pass's worker has a stand-in `process` without versions. */
const nodeHost = typeof process !== 'undefined' && !!process.versions?.node;
const files = () => vscode.workspace.getConfiguration('files');
const DELAY = 500;
/**
 * Once a dialog's controller is selected (on the desktop the .venv's, the preferred one, as it shows) an
 * edit would follow at once and auto save DELAY later: each dialog stays open this long after it showed.
 */
const SETTLE = 3 * DELAY + 1000;
/** How many dialogs are open at most; the last KEEP shown stay open into the next batch. */
const BATCH = 10;
const KEEP = 2;
const ANALYSIS = 'scratch/untouched/analysis.ipynb';
/** A dialog made in another environment, as Jupyter writes one. */
const ANALYSIS_TEXT = `${JSON.stringify(
  {
    cells: [
      { cell_type: 'code', execution_count: null, id: 'c0ffee01', metadata: {}, outputs: [], source: ['import pandas as pd'] },
      { cell_type: 'markdown', id: 'c0ffee02', metadata: { solveit_ai: true }, source: ['Why?\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\nBecause.'] },
    ],
    metadata: { kernelspec: { display_name: 'Python 3.12 (analysis)', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning' },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

async function snapshot(): Promise<Map<string, string>> {
  const uris = await vscode.workspace.findFiles('**/*.{ipynb,py}', '**/{node_modules,.venv}/**');
  const out = new Map<string, string>();
  for (const u of uris) out.set(vscode.workspace.asRelativePath(u, false), new TextDecoder().decode(await vscode.workspace.fs.readFile(u)));
  return out;
}

describe('opening writes nothing, with auto save on and a workspace .venv', function () {
  this.timeout(1800000);
  const venv = wsUri('.venv');
  const changed: string[] = [];
  let listen: vscode.Disposable | undefined;

  before(async () => {
    await activate();
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', DELAY, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.writeFile(wsUri(ANALYSIS), new TextEncoder().encode(ANALYSIS_TEXT));
    if (nodeHost) {
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', venv.fsPath]);
      const listed = await vscode.commands.executeCommand<{ executable?: string; lacks: string }[]>('dialogNotebook.refreshEnvironments');
      assert.ok(
        listed.some((e) => e.executable?.startsWith(venv.fsPath) && !e.lacks),
        `the .venv, with ipykernel, among ${JSON.stringify(listed)}`,
      );
    }
    listen = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType === NOTEBOOK_TYPE) changed.push(vscode.workspace.asRelativePath(e.notebook.uri, false));
    });
  });

  after(async () => {
    listen?.dispose();
    await closeAll();
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(wsUri('scratch/untouched'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    if (nodeHost) {
      await vscode.workspace.fs.delete(venv, { recursive: true, useTrash: false }).then(undefined, () => undefined);
      await vscode.commands.executeCommand('dialogNotebook.refreshEnvironments');
    }
  });

  it('every dialog opened and shown stays byte-identical and clean; a kernelspec of another environment stays', async () => {
    const before = await snapshot();
    const all = [...before.keys()].filter((p) => p.endsWith('.ipynb') && (!p.startsWith('scratch/') || p === ANALYSIS));
    const dialogs = nodeHost ? all : all.filter((p) => !p.startsWith('.corpus/'));
    if (nodeHost) assert.ok(dialogs.filter((p) => p.startsWith('.corpus/public/')).length >= 70, `the public corpus: ${dialogs.join(', ')}`);
    else assert.ok(dialogs.length >= 25, `the synthetic dialogs and fixtures: ${dialogs.join(', ')}`);
    const dirty: string[] = [];
    let opened = 0;
    // Shown one after another; every BATCH dialogs, those shown at least SETTLE ago (all but the last
    // KEEP, which stay open into the next batch) are checked and closed together: no batch waits idle for
    // its last dialog's delay, and a hundred open editors do not slow a loaded machine to a crawl.
    const open: { nb: vscode.NotebookDocument; path: string; shown: number }[] = [];
    const settle = async (keep: number) => {
      const done = open.splice(0, open.length - keep);
      const began = Date.now();
      await new Promise((r) => setTimeout(r, Math.max(0, Math.max(...done.map((d) => d.shown)) + SETTLE - Date.now())));
      const analysis = done.find((d) => d.path === ANALYSIS);
      if (analysis) {
        const spec = (analysis.nb.metadata.dialog as { meta?: { kernelspec?: unknown } }).meta?.kernelspec;
        assert.deepEqual(spec, { display_name: 'Python 3.12 (analysis)', language: 'python', name: 'python3' }, 'the kernelspec of another environment stays');
      }
      dirty.push(...done.filter((d) => d.nb.isDirty).map((d) => d.path));
      const uris = new Set(done.filter((d) => !d.nb.isDirty).map((d) => d.nb.uri.toString()));
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputNotebook && uris.has(t.input.uri.toString()));
      if (tabs.length) await vscode.window.tabGroups.close(tabs);
      console.log(`    (${done.length} checked and closed in ${Date.now() - began} ms)`);
    };
    for (const path of dialogs) {
      const uri = wsUri(path);
      // A file that cannot be read (edge_not_json) opens no dialog: it is still checked on disk below.
      const began = Date.now();
      await Promise.race([
        Promise.resolve(vscode.commands.executeCommand('vscode.openWith', uri, NOTEBOOK_TYPE)).then(undefined, () => undefined),
        new Promise((r) => setTimeout(r, 60000)),
      ]);
      const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString() && d.notebookType === NOTEBOOK_TYPE);
      if (!nb) continue;
      await until(() => vscode.window.activeNotebookEditor?.notebook === nb, `${path} shown`, 120000);
      console.log(`    (${path} open and shown in ${Date.now() - began} ms)`);
      opened++;
      open.push({ nb, path, shown: Date.now() });
      if (open.length >= BATCH) await settle(KEEP);
    }
    await settle(0);
    await closeAll();
    assert.ok(opened >= dialogs.length - 1, `opened ${opened} of ${dialogs.length}`);
    assert.ok(dialogs.includes(ANALYSIS));
    assert.deepEqual(dirty, [], 'no dialog is dirty');
    assert.deepEqual([...new Set(changed)], [], 'no dialog had a change');
    const after = await snapshot();
    assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'no file appeared or went');
    const differ = [...before].filter(([path, text]) => after.get(path) !== text).map(([path]) => path);
    assert.deepEqual(differ, [], 'every file byte-identical');
  });
});
