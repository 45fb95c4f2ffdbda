// A Validate problem leads to its cell in the dialog (issue 12, item 8): opening a problem's URI as a
// click in the Problems view does (`openEditor` of the marker's resource, focus kept, preview) shows the
// dialog editor with that cell selected: no Jupyter editor in its place, no tab of raw text left.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAll, NOTEBOOK_TYPE, openDialog, until } from './helpers';

const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
const tabKinds = () => tabs().map((t) => `${t.label}:${t.input instanceof vscode.TabInputNotebook ? t.input.notebookType : t.input?.constructor.name}`);

describe('validate: a problem reveals its cell (issue 12)', function () {
  this.timeout(120000);
  afterEach(closeAll);

  it('opening a problem shows its cell selected in the dialog editor', async () => {
    const nb = await openDialog('edge_duplicate_ids.ipynb');
    await vscode.window.showNotebookDocument(nb);
    vscode.window.activeNotebookEditor!.selections = [new vscode.NotebookRange(0, 1)];
    const problems = (await vscode.commands.executeCommand<{ index: number; message: string }[]>('dialogNotebook.validate', nb.uri))!;
    const k = Math.max(...problems.map((p) => p.index));
    assert.ok(k > 0, JSON.stringify(problems));
    // The diagnostic of cell k, wherever Validate puts it (the cell's URI or one naming the cell).
    const [uri, [diag]] = vscode.languages.getDiagnostics().find(
      ([u, list]) => list.some((d) => d.source === 'dialog') && (u.toString() === nb.cellAt(k).document.uri.toString() || u.path === `${nb.uri.path}/cell ${k + 1}`),
    )!;
    await vscode.commands.executeCommand('vscode.open', uri, { selection: diag.range, preserveFocus: true, preview: true });

    const state = () => {
      const ed = vscode.window.activeNotebookEditor;
      return { type: ed?.notebook.notebookType, file: ed?.notebook.uri.toString(), selected: ed?.selection.start, tabs: tabKinds() };
    };
    const want = { type: NOTEBOOK_TYPE, file: nb.uri.toString(), selected: k };
    const settled = () => {
      const s = state();
      return s.type === want.type && s.file === want.file && s.selected === want.selected && s.tabs.length === 1;
    };
    await until(settled, 'the cell revealed in the dialog', 60000).catch(() => undefined);
    const s = state();
    assert.deepEqual(s, { ...want, tabs: [`edge_duplicate_ids.ipynb:${NOTEBOOK_TYPE}`] }, JSON.stringify(s));
  });
});
