// Choosing the editor: "Open as Dialog" on .ipynb files that look like dialogs, "Reopen with Jupyter"
// back, a setting that opens dialogs as dialogs by default, and "New Dialog".

import * as vscode from 'vscode';
import { Dialog, Message } from '../../core/model';
import { NOTEBOOK_TYPE, dlg2notebook } from './cells';
import { CommandResult, DONE, refuse } from '../commands/feedback';
import { config } from '../config';

const JUPYTER_TYPE = 'jupyter-notebook';
/** Context key: fsPaths of .ipynb files open in other editors that look like dialogs ("Open as Dialog"). */
const DIALOG_FILES_KEY = 'dialogNotebook.dialogFiles';
/** Context key: the active editor is a dialog ("Reopen with Jupyter"); `notebookType` is not set for editor titles. */
const ACTIVE_KEY = 'dialogNotebook.dialogEditorActive';
const SETTLE_MS = 100;

/**
 * Whether notebook text looks like a Solveit dialog: a `solveit_ai` cell flag, the reply separator
 * line, or Solveit notebook metadata (`solveit`, `solveit_ver`, `solveit_dialog_mode`).
 */
export function looksLikeDialog(text: string): boolean {
  return /"solveit_ai"\s*:|<!-- SOLVEIT_SEPARATOR|"solveit(?:_ver|_dialog_mode)?"\s*:/.test(text);
}

/** Sniff results by uri, valid while the file's mtime is unchanged (tab events are frequent). */
const sniffed = new Map<string, { mtime: number; dialog: boolean }>();

export async function sniffDialog(uri: vscode.Uri): Promise<boolean> {
  try {
    const { mtime } = await vscode.workspace.fs.stat(uri);
    const hit = sniffed.get(uri.toString());
    if (hit && hit.mtime === mtime) return hit.dialog;
    const dialog = looksLikeDialog(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    sniffed.set(uri.toString(), { mtime, dialog });
    return dialog;
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

function activeUri(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return tab ? tabUri(tab) : undefined;
}

function otherTab(uri: vscode.Uri, notebookType: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => tabUri(t)?.toString() === uri.toString() && tabType(t) !== notebookType);
}

/** Opens `uri` with `notebookType` where its current editor is, and closes that editor if it is clean. */
async function reopen(uri: vscode.Uri, notebookType: string): Promise<void> {
  const old = otherTab(uri, notebookType);
  const viewColumn = old?.group.viewColumn ?? vscode.ViewColumn.Active;
  await vscode.commands.executeCommand('vscode.openWith', uri, notebookType, { viewColumn, preview: false });
  // VS Code usually replaces the editor in place; close what is left of it otherwise.
  const left = otherTab(uri, notebookType);
  if (left && !left.isDirty) await vscode.window.tabGroups.close(left, true).then(undefined, () => false);
}

export function registerOpening(context: vscode.ExtensionContext): void {
  const dialogFiles = new Set<string>();
  /** Files the user explicitly reopened with Jupyter: the default setting leaves those alone. */
  const keepJupyter = new Set<string>();

  const refresh = async () => {
    const active = vscode.window.tabGroups.activeTabGroup.activeTab;
    void vscode.commands.executeCommand('setContext', ACTIVE_KEY, !!active && tabType(active) === NOTEBOOK_TYPE);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => tabType(t) !== NOTEBOOK_TYPE);
    const next = new Set<string>();
    for (const u of tabs.map(tabUri)) if (u && /\.ipynb$/i.test(u.path) && (await sniffDialog(u))) next.add(u.fsPath);
    if (next.size === dialogFiles.size && [...next].every((p) => dialogFiles.has(p))) return;
    dialogFiles.clear();
    for (const p of next) dialogFiles.add(p);
    await vscode.commands.executeCommand('setContext', DIALOG_FILES_KEY, [...dialogFiles]);
  };

  /**
   * Acts when a Jupyter editor becomes active (and is still active a moment later). A caller awaiting
   * `showNotebookDocument` on such a file never sees its editor settle, since the editor is replaced.
   */
  const openByDefault = async (ed: vscode.NotebookEditor | undefined) => {
    const nb = ed?.notebook;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    if (vscode.window.activeNotebookEditor !== ed) return;
    if (!nb || nb.notebookType !== JUPYTER_TYPE || nb.uri.scheme === 'untitled' || keepJupyter.has(nb.uri.toString())) return;
    if (!config.openDialogsByDefault) return;
    if (await sniffDialog(nb.uri)) await reopen(nb.uri, NOTEBOOK_TYPE);
  };

  context.subscriptions.push(
    vscode.window.tabGroups.onDidChangeTabs(() => void refresh()),
    vscode.window.tabGroups.onDidChangeTabGroups(() => void refresh()),
    vscode.window.onDidChangeActiveNotebookEditor((ed) => void openByDefault(ed)),
    vscode.commands.registerCommand('dialogNotebook.openAsDialog', async (arg?: unknown): Promise<CommandResult> => {
      const uri = arg instanceof vscode.Uri ? arg : activeUri();
      if (!uri || !/\.ipynb$/i.test(uri.path)) return refuse('Open as Dialog works on an .ipynb file: open one first.');
      await reopen(uri, NOTEBOOK_TYPE);
      return DONE;
    }),
    vscode.commands.registerCommand('dialogNotebook.reopenWithJupyter', async (arg?: unknown): Promise<CommandResult> => {
      const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeNotebookEditor?.notebook.uri ?? activeUri();
      if (!uri || !/\.ipynb$/i.test(uri.path)) return refuse('Reopen with Jupyter works on a dialog (.ipynb) file: open one first.');
      keepJupyter.add(uri.toString());
      await reopen(uri, JUPYTER_TYPE);
      return DONE;
    }),
    vscode.commands.registerCommand('dialogNotebook.newDialog', async () => {
      const d = new Dialog([new Message({ msgType: 'prompt' })]);
      const nb = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, dlg2notebook(d));
      return vscode.window.showNotebookDocument(nb);
    }),
  );
  void openByDefault(vscode.window.activeNotebookEditor);
  void refresh();
}
