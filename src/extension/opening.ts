// Choosing the editor: "Open as Dialog" on .ipynb files that look like dialogs, "Reopen with Jupyter"
// back, a setting that opens dialogs as dialogs by default, and "New Dialog".

import * as vscode from 'vscode';
import { Dialog, Message } from '../core/model';
import { NOTEBOOK_TYPE, dlg2notebook } from './cells';

const JUPYTER_TYPE = 'jupyter-notebook';
/** Context key: fsPaths of open .ipynb files that look like dialogs (for the editor-title button). */
const DIALOG_FILES_KEY = 'dialogNotebook.dialogFiles';

/**
 * Whether notebook text looks like a Solveit dialog: a `solveit_ai` cell flag, the reply separator
 * line, or Solveit notebook metadata (`solveit`, `solveit_ver`, `solveit_dialog_mode`).
 */
export function looksLikeDialog(text: string): boolean {
  return /"solveit_ai"\s*:|<!-- SOLVEIT_SEPARATOR|"solveit(?:_ver|_dialog_mode)?"\s*:/.test(text);
}

export async function sniffDialog(uri: vscode.Uri): Promise<boolean> {
  try {
    return looksLikeDialog(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  } catch {
    return false;
  }
}

function tabUri(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  if (input instanceof vscode.TabInputNotebook || input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  return undefined;
}

function tabType(tab: vscode.Tab): string | undefined {
  return tab.input instanceof vscode.TabInputNotebook ? tab.input.notebookType : undefined;
}

function findTab(uri: vscode.Uri, notebookType?: string): vscode.Tab | undefined {
  for (const g of vscode.window.tabGroups.all) {
    for (const t of g.tabs) {
      if (tabUri(t)?.toString() === uri.toString() && (notebookType === undefined || tabType(t) === notebookType)) return t;
    }
  }
  return undefined;
}

function activeUri(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return tab ? tabUri(tab) : undefined;
}

/** Opens `uri` with `notebookType` where its current editor is, and closes that editor if it is clean. */
async function reopen(uri: vscode.Uri, notebookType: string): Promise<void> {
  const old = [...vscode.window.tabGroups.all.flatMap((g) => g.tabs)].find(
    (t) => tabUri(t)?.toString() === uri.toString() && tabType(t) !== notebookType,
  );
  const viewColumn = old?.group.viewColumn ?? vscode.ViewColumn.Active;
  await vscode.commands.executeCommand('vscode.openWith', uri, notebookType, { viewColumn, preview: false });
  if (old && !old.isDirty) await vscode.window.tabGroups.close(old, true);
}

export function registerOpening(context: vscode.ExtensionContext): void {
  const dialogFiles = new Set<string>();
  /** Files the user explicitly reopened with Jupyter: the default setting leaves those alone. */
  const keepJupyter = new Set<string>();

  const refresh = async () => {
    const uris = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map(tabUri);
    const next = new Set<string>();
    for (const u of uris) if (u && /\.ipynb$/i.test(u.path) && (await sniffDialog(u))) next.add(u.fsPath);
    if (next.size === dialogFiles.size && [...next].every((p) => dialogFiles.has(p))) return;
    dialogFiles.clear();
    for (const p of next) dialogFiles.add(p);
    await vscode.commands.executeCommand('setContext', DIALOG_FILES_KEY, [...dialogFiles]);
  };

  const openByDefault = async (nb: vscode.NotebookDocument) => {
    if (nb.notebookType !== JUPYTER_TYPE || nb.uri.scheme === 'untitled' || keepJupyter.has(nb.uri.toString())) return;
    if (!vscode.workspace.getConfiguration('dialogNotebook').get<boolean>('openDialogsByDefault')) return;
    if (!(await sniffDialog(nb.uri))) return;
    // The Jupyter tab appears just after the document opens.
    for (let k = 0; k < 20 && !findTab(nb.uri, JUPYTER_TYPE); k++) await new Promise((r) => setTimeout(r, 50));
    await reopen(nb.uri, NOTEBOOK_TYPE);
  };

  context.subscriptions.push(
    vscode.window.tabGroups.onDidChangeTabs(() => void refresh()),
    vscode.workspace.onDidOpenNotebookDocument((nb) => void openByDefault(nb)),
    vscode.commands.registerCommand('dialogNotebook.openAsDialog', async (arg?: unknown) => {
      const uri = arg instanceof vscode.Uri ? arg : activeUri();
      if (uri) await reopen(uri, NOTEBOOK_TYPE);
    }),
    vscode.commands.registerCommand('dialogNotebook.reopenWithJupyter', async (arg?: unknown) => {
      const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeNotebookEditor?.notebook.uri ?? activeUri();
      if (!uri) return;
      keepJupyter.add(uri.toString());
      await reopen(uri, JUPYTER_TYPE);
    }),
    vscode.commands.registerCommand('dialogNotebook.newDialog', async () => {
      const d = new Dialog([new Message({ msgType: 'prompt' })]);
      const nb = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, dlg2notebook(d));
      return vscode.window.showNotebookDocument(nb);
    }),
  );
  for (const nb of vscode.workspace.notebookDocuments) void openByDefault(nb);
  void refresh();
}
