// Where Validate's problems live. Not on the cells' own URIs: VS Code opens a cell URI (what a click in
// the Problems view does) with the first notebook editor registered for cells of *.ipynb files,
// Jupyter's, which then replaces the dialog's editor, and no option or association changes that. So each
// problem is on a URI of our own scheme naming the dialog and the cell: VS Code opens it as a text tab
// (its text is the problems), which is closed at once and the cell revealed in the dialog instead.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { editorOf, selectCells } from './target';
import { inform } from './feedback';
import { log } from '../log';

const SCHEME = 'dialog-problem';

/** The URI the problems of `cell` are listed under: "cell N" of the dialog's path. */
export function problemUri(cell: vscode.NotebookCell): vscode.Uri {
  const query = new URLSearchParams({ dialog: cell.notebook.uri.toString(), cell: cell.document.uri.toString(), index: String(cell.index) });
  return vscode.Uri.from({ scheme: SCHEME, path: `${cell.notebook.uri.path}/cell ${cell.index + 1}`, query: query.toString() });
}

/** Whether a problem URI belongs to the dialog `nb`. */
export function isProblemOf(uri: vscode.Uri, nb: vscode.NotebookDocument): boolean {
  return uri.scheme === SCHEME && new URLSearchParams(uri.query).get('dialog') === nb.uri.toString();
}

const openDialog = (key: string) => vscode.workspace.notebookDocuments.find((n) => n.notebookType === NOTEBOOK_TYPE && n.uri.toString() === key);

/** Shows the dialog a problem URI names (opening it as a dialog if it was closed) with its cell selected. */
async function revealProblem(uri: vscode.Uri, column: vscode.ViewColumn): Promise<void> {
  const q = new URLSearchParams(uri.query);
  const key = q.get('dialog') ?? '';
  let nb = openDialog(key);
  if (nb) await vscode.window.showNotebookDocument(nb, { viewColumn: editorOf(nb)?.viewColumn ?? column });
  else {
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.parse(key), NOTEBOOK_TYPE, column);
    nb = openDialog(key);
  }
  if (!nb) return;
  // The cell by its URI (it may have moved since Validate ran); after a reopen, by its index then.
  const cell = nb.getCells().find((c) => c.document.uri.toString() === q.get('cell'));
  const index = cell?.index ?? Number(q.get('index'));
  if (index >= nb.cellCount) {
    inform('That cell is no longer in the dialog: run Validate Dialog again.');
    return;
  }
  selectCells(nb, index);
  log.info(`revealed cell ${index + 1} of ${nb.uri.path.split('/').pop()} for a Validate problem`);
}

export function registerProblemLinks(context: vscode.ExtensionContext, diags: vscode.DiagnosticCollection): void {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      provideTextDocumentContent: (uri) => (diags.get(uri) ?? []).map((d) => d.message).join('\n'),
    }),
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      for (const tab of e.opened) {
        if (!(tab.input instanceof vscode.TabInputText) || tab.input.uri.scheme !== SCHEME) continue;
        const uri = tab.input.uri;
        const column = tab.group.viewColumn;
        void vscode.window.tabGroups
          .close(tab)
          .then(() => revealProblem(uri, column))
          .then(undefined, (err: unknown) => log.warn(`could not reveal the cell of a problem: ${String(err)}`));
      }
    }),
  );
}
