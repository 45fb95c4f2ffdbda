// Validate's problems lead to the cell in the dialog (issue 12, item 8): opening a problem's cell URI,
// as a click in the Problems view does, reveals and selects the cell in the dialog editor instead of
// leaving a tab of the cell's raw text.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAll, openDialog, until } from './helpers';

const rawTab = (uri: vscode.Uri) =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());

describe('validate: a problem reveals its cell (issue 12)', function () {
  this.timeout(120000);
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await closeAll();
  });

  it('opening a problem’s cell shows the cell in the dialog, not a raw-cell tab', async () => {
    const nb = await openDialog('edge_duplicate_ids.ipynb');
    await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('dialogNotebook.validate', nb.uri);
    const cell = nb.cellAt(2);
    const diags = (await until(() => {
      const list = vscode.languages.getDiagnostics(cell.document.uri);
      return list.length ? list : undefined;
    }, 'the problem on cell 3'))!;
    assert.match(diags[0].message, /duplicate message id/);
    await vscode.commands.executeCommand('vscode.open', cell.document.uri, { selection: diags[0].range });
    const state = () => {
      const ed = vscode.window.activeNotebookEditor;
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => `${g.viewColumn}:${t.label}:${t.input?.constructor.name}`));
      return { rawTab: !!rawTab(cell.document.uri), dialog: ed?.notebook === nb, selected: ed?.selection.start, tabs };
    };
    await until(() => !state().rawTab && state().dialog && state().selected === 2, 'the cell revealed', 60000).catch(() => undefined);
    const s = state();
    assert.deepEqual([s.rawTab, s.dialog, s.selected], [false, true, 2], JSON.stringify(s));
  });
});
