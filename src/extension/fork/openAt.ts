// Opening a dialog file with the dialog editor and selecting one of its messages.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { revealMessage } from '../views/sections';

/** Opens `uri` as a dialog and selects message `id` (at `index` when the id is not there); its notebook. */
export async function openDialogAt(uri: vscode.Uri, index: number, id?: string): Promise<vscode.NotebookDocument | undefined> {
  await vscode.commands.executeCommand('vscode.openWith', uri, NOTEBOOK_TYPE, { preview: false });
  const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString() && d.notebookType === NOTEBOOK_TYPE);
  if (nb) await revealMessage(nb.uri.toString(), index, id);
  return nb;
}
