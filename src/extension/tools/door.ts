// One way in for every caller outside an answer (ARCHITECTURE.md, "Doors to one dialog"): VS Code's
// agents (lmTools.ts), agents over MCP and the dialog's own code through dialoghelper's routes. A door
// only decodes its wire and says who knocks; finding the dialog (dialoghelper's `dname`, opening it
// beside the active editor when it is not open), the current message each dialog keeps between calls, the
// workspace's trust, the confirmation naming the caller and the call itself are here, once.

import * as vscode from 'vscode';
import { JsonObject } from '../../core';
import { DIALOG_TOOLS, DialogToolDef, dialogTool, limitResult } from '../../core/tools';
import { DialogKernels } from '../kernel/dialogKernels';
import { NOTEBOOK_TYPE } from '../document/cells';
import { looksLikeDialog } from '../opening/opening';
import { dialogEditor } from '../commands/target';
import { ToolResult } from '../kernel/hostTools';
import { log } from '../log';
import { DialogToolSession, dialogName } from './dialogTools';
import { searchDialogsTool } from '../search/tool';

/** Who knocks: the door and, where the wire says it, the client (shown in confirmations and the log). */
export interface Caller {
  door: 'agent' | 'mcp' | 'dialoghelper';
  /** The client's own name ("claude-code", "GitHub Copilot"); none: the door's name alone. */
  client?: string;
}

/** How a caller is named to the user: "Claude Code (MCP)", "code in the dialog (dialoghelper)". */
export function callerName(c: Caller): string {
  const door = { agent: "VS Code's agent", mcp: 'an agent over MCP', dialoghelper: "the dialog's code (dialoghelper)" }[c.door];
  return c.client ? `${c.client} (${c.door === 'mcp' ? 'MCP' : door})` : door;
}

/** A call a door refuses before it reaches a dialog; `message` is what the caller reads. */
export class DoorError extends Error {}

/** How long a dialog opened for a caller may take to show up as an open document. */
const OPEN_WAIT_MS = 10000;

const openDialogs = () => vscode.workspace.notebookDocuments.filter((n) => n.notebookType === NOTEBOOK_TYPE);
const strip = (p: string) => p.replace(/\.ipynb$/i, '');

/** The open dialog `dname` names: dialoghelper's name (workspace-relative, no `.ipynb`), or an absolute path. */
export function openDialog(dname: string): vscode.NotebookDocument | undefined {
  const want = strip(dname.trim().replace(/^\.\//, ''));
  return openDialogs().find((n) => dialogName(n) === want || strip(n.uri.fsPath) === want || strip(n.uri.path) === want);
}

/** The `.ipynb` file `dname` names in the workspace (relative to a workspace folder, or absolute). */
async function dialogFile(dname: string): Promise<vscode.Uri | undefined> {
  const rel = strip(dname.trim().replace(/^\.\//, '')) + '.ipynb';
  const candidates = rel.startsWith('/') ? [vscode.Uri.file(rel)] : (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, rel));
  for (const uri of candidates) {
    // Only files inside the workspace: a door never reaches beyond what the window shows.
    if (!vscode.workspace.getWorkspaceFolder(uri)) continue;
    if (await vscode.workspace.fs.stat(uri).then(() => true, () => false)) return uri;
  }
  return undefined;
}

/**
 * The dialog a call names (`dname`), or the active one when it names none. A dialog that is not open is
 * opened as a dialog beside the active editor (focus stays where it is); a file that is not a dialog, or is
 * open in another editor, is refused with what to do.
 */
export async function resolveDialog(dname: string | undefined | null): Promise<vscode.NotebookDocument> {
  if (!dname || !dname.trim()) {
    const nb = dialogEditor()?.notebook ?? (openDialogs().length === 1 ? openDialogs()[0] : undefined);
    if (nb) return nb;
    throw new DoorError(`No dialog is active: name one with dname. The open dialogs are: ${openDialogs().map(dialogName).join(', ') || 'none'}.`);
  }
  const open = openDialog(dname);
  if (open) return open;
  const uri = await dialogFile(dname);
  if (!uri) throw new DoorError(`No dialog ${dname}.ipynb in the workspace. The open dialogs are: ${openDialogs().map(dialogName).join(', ') || 'none'}.`);
  if (vscode.workspace.notebookDocuments.some((n) => n.uri.toString() === uri.toString()))
    throw new DoorError(`${dname} is open in another notebook editor: run "Dialog: Open as Dialog" on it first.`);
  if (!looksLikeDialog(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)))) throw new DoorError(`${dname}.ipynb is not a dialog (no Solveit prompts or metadata).`);
  log.info(`Opening ${dname} beside, for a caller`);
  const isIt = (n: vscode.NotebookDocument) => n.notebookType === NOTEBOOK_TYPE && n.uri.toString() === uri.toString();
  // The document may be announced after the command returns: wait for it a while.
  let sub: vscode.Disposable | undefined;
  const opened = new Promise<vscode.NotebookDocument | undefined>((resolve) => {
    sub = vscode.workspace.onDidOpenNotebookDocument((n) => isIt(n) && resolve(n));
    setTimeout(() => resolve(undefined), OPEN_WAIT_MS);
  });
  // Beside, without the focus: VS Code leaves a `background` tab unloaded (no document until it is shown),
  // and the user sees the caller's edits land.
  await vscode.commands.executeCommand('vscode.openWith', uri, NOTEBOOK_TYPE, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
  const nb = openDialogs().find(isIt) ?? (await opened);
  sub?.dispose();
  if (!nb) throw new DoorError(`${dname} could not be opened as a dialog; open it with "Dialog: Open as Dialog".`);
  return nb;
}

/** dialoghelper's `list_dialogs`: the workspace's dialogs by name, and which are open in this window. */
export async function listDialogs(): Promise<{ name: string; open: boolean }[]> {
  const files = await vscode.workspace.findFiles('**/*.ipynb', '**/{node_modules,.git,.ipynb_checkpoints}/**', 5000);
  const names = new Set(files.map((u) => strip(vscode.workspace.asRelativePath(u, false))));
  const open = new Set(openDialogs().map(dialogName));
  for (const n of open) names.add(n);
  return [...names].sort().map((name) => ({ name, open: open.has(name) }));
}

/** The tools a caller may use here: the read tools only in an untrusted workspace. */
export function doorTools(): readonly DialogToolDef[] {
  return vscode.workspace.isTrusted ? DIALOG_TOOLS : DIALOG_TOOLS.filter((t) => t.kind === 'read');
}

export interface DoorCallOptions {
  kernels?: DialogKernels;
  /** Ask as `dialogNotebook.tools.confirm` says (default), or not (the caller's host asked already). */
  confirm?: boolean;
  /** The current message to start from; default: where the previous call on this dialog left it. */
  current?: string | null;
  signal?: AbortSignal;
  /** python: interrupt it after this long (ms), returning what came so far. */
  timeLimitMs?: number;
  /** Cut the result's text to this many characters, saying how to read the rest (0 or none: whole). */
  maxChars?: number;
}

/** Each dialog's current message between callers' calls: the message last added or updated (chaining). */
const currents = new Map<string, string | null>();

/** Runs one dialog tool call for `caller` on `nb`: one undoable edit, asked first where the setting says. */
export async function callDialogTool(caller: Caller, nb: vscode.NotebookDocument, name: string, args: JsonObject, opts: DoorCallOptions = {}): Promise<ToolResult> {
  const def = dialogTool(name);
  if (!def) return { ok: false, text: `Error: there is no dialog tool ${name}.`, printed: '' };
  if (!doorTools().includes(def)) return { ok: false, text: `Error: ${name} changes the dialog, which an untrusted workspace does not allow; the user must trust the workspace first.`, printed: '' };
  const key = nb.uri.toString();
  const session = new DialogToolSession(nb, [def], { kernels: opts.kernels, confirm: opts.confirm, current: opts.current !== undefined ? opts.current : (currents.get(key) ?? null), who: callerName(caller), timeLimitMs: opts.timeLimitMs });
  log.info(`${callerName(caller)} calls ${name} on ${dialogName(nb)}`);
  const r = await session.call(name, args, opts.signal);
  currents.set(key, session.currentMessage);
  return opts.maxChars ? { ...r, text: limitResult(r.text, opts.maxChars, name, args) } : r;
}

/** The dialog's current message as the last call left it (none yet: null). */
export function currentMessage(nb: vscode.NotebookDocument): string | null {
  return currents.get(nb.uri.toString()) ?? null;
}

/** Forgets a dialog's current message when it closes. */
export function forgetCurrentOnClose(): vscode.Disposable {
  return vscode.workspace.onDidCloseNotebookDocument((nb) => currents.delete(nb.uri.toString()));
}

/** A call of a tool on the whole workspace (search_dialogs, core/tools WORKSPACE_TOOLS): no dialog to find or open. */
export async function callWorkspaceTool(caller: Caller, name: string, args: JsonObject): Promise<ToolResult> {
  log.info(`${callerName(caller)} calls ${name}`);
  return searchDialogsTool(args);
}
