// Opening one cell of a dialog (a click on a Problems entry, a search result, a link to a cell URI)
// would show its raw text in a tab of its own: VS Code resolves cell URIs with the default editor of
// the notebook's file type, and ours is an option. Such a tab is closed and the cell revealed in the
// dialog instead.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../notebook/cells';
import { selectCells } from './target';
import { log } from '../log';

/** The dialog cell a cell URI names, among open dialogs. */
function dialogCell(uri: vscode.Uri): vscode.NotebookCell | undefined {
  const key = uri.toString();
  for (const nb of vscode.workspace.notebookDocuments) {
    if (nb.notebookType !== NOTEBOOK_TYPE || nb.uri.path !== uri.path) continue;
    const cell = nb.getCells().find((c) => c.document.uri.toString() === key);
    if (cell) return cell;
  }
  return undefined;
}

async function revealInstead(tab: vscode.Tab, cell: vscode.NotebookCell): Promise<void> {
  const column = tab.group.viewColumn;
  await vscode.window.tabGroups.close(tab);
  await vscode.window.showNotebookDocument(cell.notebook, { viewColumn: column });
  selectCells(cell.notebook, cell.index);
  log.info(`revealed cell ${cell.index + 1} in its dialog instead of a raw-cell tab`);
}

export function registerCellTabs(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      for (const tab of e.opened) {
        if (!(tab.input instanceof vscode.TabInputText) || tab.input.uri.scheme !== 'vscode-notebook-cell') continue;
        const cell = dialogCell(tab.input.uri);
        if (cell) void revealInstead(tab, cell).then(undefined, (err: unknown) => log.warn(`could not reveal the cell: ${String(err)}`));
      }
    }),
  );
}
