// Choosing the editor: "Open as Dialog" on .ipynb files that look like dialogs, "Reopen with Jupyter"
// back, a setting that opens dialogs as dialogs by default, and "New Dialog" (craft/newDialog.ts).

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { CommandResult, DONE, reason, refuse } from '../commands/feedback';
import { config } from '../config';
import { log } from '../log';
import { offerDefault } from './openOffer';
import { newDialog } from '../craft/newDialog';
import { fileStat } from '../craft/files';

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
    // A local file's stat asks the disk, not the window: tabs change on every open and modified dot.
    const st = await fileStat(uri);
    if (!st) return false;
    const { mtime } = st;
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

function otherTabs(uri: vscode.Uri, notebookType: string): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => tabUri(t)?.toString() === uri.toString() && tabType(t) !== notebookType);
}

/** workspaceState: the file (and type) to open once the window has reloaded, when VS Code held on to its old editor's model. */
const PENDING_KEY = 'dialogNotebook.openAfterReload';
/** How long VS Code gets to drop a closed editor's notebook model. */
const RELEASE_MS = 3000;

const editorName = (notebookType: string) => (notebookType === NOTEBOOK_TYPE ? 'as a dialog' : 'with Jupyter');
const modelOf = (uri: vscode.Uri, notebookType: string) =>
  vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString() && n.notebookType !== notebookType);

/** Resolves once no notebook of another type than `notebookType` is open for `uri`; false after RELEASE_MS. */
async function released(uri: vscode.Uri, notebookType: string): Promise<boolean> {
  for (const end = Date.now() + RELEASE_MS; modelOf(uri, notebookType); ) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/**
 * Opens `uri` with `notebookType` where its current editor is. VS Code cannot hold one file in two
 * notebook types: replacing the editor in place fails ("could not be opened due to an unexpected
 * error") while something keeps the old model alive, as VS Code itself does after a double-click in the
 * Explorer. So the file's other editors are closed first (VS Code asks about unsaved changes); if the
 * open still fails, the file goes back to its editor and a reload, after which it opens, is offered.
 */
async function reopen(context: vscode.ExtensionContext, uri: vscode.Uri, notebookType: string): Promise<CommandResult> {
  const old = otherTabs(uri, notebookType);
  const viewColumn = old[0]?.group.viewColumn ?? vscode.ViewColumn.Active;
  if (old.length && !(await vscode.window.tabGroups.close(old).then(undefined, () => false))) return { ok: false, message: 'Cancelled.' };
  const name = uri.path.split('/').pop() ?? uri.path;
  // An extension's hold on the old model VS Code drops when the open conflicts; its own hold it keeps.
  const oldType = (await released(uri, notebookType)) ? undefined : modelOf(uri, notebookType)?.notebookType;
  try {
    await vscode.commands.executeCommand('vscode.openWith', uri, notebookType, { viewColumn, preview: false });
  } catch (e) {
    log.warn(`opening ${name} ${editorName(notebookType)}: ${reason(e)}`);
  }
  const opened = vscode.workspace.notebookDocuments.some((n) => n.uri.toString() === uri.toString() && n.notebookType === notebookType);
  if (opened) return DONE;
  // VS Code's error page in place of the editor: put the file back where it was and say what to do.
  const broken = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => tabUri(t)?.toString() === uri.toString() && tabType(t) === notebookType);
  await vscode.window.tabGroups.close(broken).then(undefined, () => false);
  const back = oldType ?? modelOf(uri, notebookType)?.notebookType;
  if (back) await vscode.commands.executeCommand('vscode.openWith', uri, back, { viewColumn, preview: false }).then(undefined, () => undefined);
  // Seen after a double-click in the Explorer: the Jupyter model outlives its closed editor (still held
  // 20 s after View: Close All Editors), while a file opened by Quick Open is let go at once.
  return { ok: false, message: offerReload(context, uri, notebookType) };
}

/** Logs, and shows with one button, that `uri` opens with `notebookType` only after a reload; returns the text. */
function offerReload(context: vscode.ExtensionContext, uri: vscode.Uri, notebookType: string): string {
  const name = uri.path.split('/').pop() ?? uri.path;
  const text = `Click Reload Window to open ${name} ${editorName(notebookType)}: VS Code still holds it in its previous editor, so it opens ${editorName(notebookType)} only after a window reload.`;
  log.warn(text);
  const reload = 'Reload Window';
  void vscode.window.showWarningMessage(text, reload).then(async (pick) => {
    if (pick !== reload) return;
    await context.workspaceState.update(PENDING_KEY, { uri: uri.toString(), notebookType });
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
  });
  return text;
}

/** Opens the file a reload was asked for (see reopen). */
async function openPending(context: vscode.ExtensionContext): Promise<void> {
  const pending = context.workspaceState.get<{ uri: string; notebookType: string }>(PENDING_KEY);
  if (!pending) return;
  await context.workspaceState.update(PENDING_KEY, undefined);
  await reopen(context, vscode.Uri.parse(pending.uri), pending.notebookType);
}

export function registerOpening(context: vscode.ExtensionContext): void {
  const dialogFiles = new Set<string>();
  /** Files the user explicitly reopened with Jupyter: the default setting leaves those alone. */
  const keepJupyter = new Set<string>();
  /**
   * Files reopened without being asked, this session: never twice. A failed reopen puts the file back in
   * its editor, which becomes active again; without this, that would reopen it again, and so on.
   */
  const autoReopened = new Set<string>();
  const once = (uri: vscode.Uri) => !autoReopened.has(uri.toString()) && !!autoReopened.add(uri.toString());

  /**
   * A dialog tab VS Code could not fill (its page stays blank) because it still holds the file in
   * Jupyter: a click in the Explorer before the `*.ipynb` association existed (defaultEditor.ts) opened
   * a Jupyter preview. Only a reload lets go of that model: said once per file.
   */
  const checkStuck = async () => {
    const hasDoc = (uri: vscode.Uri, type: string) => vscode.workspace.notebookDocuments.some((n) => n.uri.toString() === uri.toString() && n.notebookType === type);
    const stuck = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => tabType(t) === NOTEBOOK_TYPE)
        .map(tabUri)
        .filter((u): u is vscode.Uri => !!u && !hasDoc(u, NOTEBOOK_TYPE) && hasDoc(u, JUPYTER_TYPE));
    if (!stuck().length) return;
    await new Promise((r) => setTimeout(r, RELEASE_MS));
    for (const uri of stuck()) if (once(uri)) offerReload(context, uri, NOTEBOOK_TYPE);
  };

  const refresh = async () => {
    const active = vscode.window.tabGroups.activeTabGroup.activeTab;
    void checkStuck();
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
    const uri = nb.uri;
    if (!(await sniffDialog(uri))) return;
    // The offer waits for an answer as long as it takes, holding the uri only, not the notebook.
    if (!config.openDialogsByDefault) offerDefault(context, () => reopen(context, uri, NOTEBOOK_TYPE));
    else if (once(uri)) await reopen(context, uri, NOTEBOOK_TYPE);
  };

  context.subscriptions.push(
    vscode.window.tabGroups.onDidChangeTabs(() => void refresh()),
    vscode.window.tabGroups.onDidChangeTabGroups(() => void refresh()),
    vscode.window.onDidChangeActiveNotebookEditor((ed) => void openByDefault(ed)),
    vscode.commands.registerCommand('dialogNotebook.openAsDialog', async (arg?: unknown): Promise<CommandResult> => {
      const uri = arg instanceof vscode.Uri ? arg : activeUri();
      if (!uri || !/\.ipynb$/i.test(uri.path)) return refuse('Open as Dialog works on an .ipynb file: open one first.');
      return reopen(context, uri, NOTEBOOK_TYPE);
    }),
    vscode.commands.registerCommand('dialogNotebook.reopenWithJupyter', async (arg?: unknown): Promise<CommandResult> => {
      const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeNotebookEditor?.notebook.uri ?? activeUri();
      if (!uri || !/\.ipynb$/i.test(uri.path)) return refuse('Reopen with Jupyter works on a dialog (.ipynb) file: open one first.');
      keepJupyter.add(uri.toString());
      return reopen(context, uri, JUPYTER_TYPE);
    }),
    vscode.commands.registerCommand('dialogNotebook.newDialog', newDialog),
  );
  void openPending(context).then(() => openByDefault(vscode.window.activeNotebookEditor));
  void refresh();
}
