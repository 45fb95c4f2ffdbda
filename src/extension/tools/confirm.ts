// Asking the user before the AI's dialog tools act (`dialogNotebook.tools.confirm`): a modal showing the
// code to run or the messages to delete, with Allow / Allow for this dialog / Deny. "Allow for this
// dialog" lasts while the dialog is open in this window.

import * as vscode from 'vscode';
import { ToolKind } from '../../core/tools';
import { config } from '../config';

/** What the model reads for a call the user denied. */
export const DENIED = 'denied by the user';

const allowed = new Set<string>();

/** Whether a call of a tool of `kind` asks first, by the setting and what the user allowed. */
export function needsConfirm(nb: vscode.NotebookDocument, kind: ToolKind): boolean {
  const mode = config.toolsConfirm;
  if (mode === 'never' || kind === 'read' || allowed.has(nb.uri.toString())) return false;
  return mode === 'always' || kind === 'destructive';
}

/** Asks (modal); true when the call may run. */
export async function confirmCall(nb: vscode.NotebookDocument, question: string, detail: string): Promise<boolean> {
  const allow = { title: 'Allow' };
  const always = { title: 'Allow for this dialog' };
  // Deny is the modal's close affordance (Escape, the close button): VS Code adds no Cancel beside it.
  const deny = { title: 'Deny', isCloseAffordance: true };
  const pick = await vscode.window.showWarningMessage(question, { modal: true, detail }, allow, always, deny);
  if (pick === always) allowed.add(nb.uri.toString());
  return pick === allow || pick === always;
}

/** Forgets "Allow for this dialog" when the dialog closes. */
export function forgetOnClose(): vscode.Disposable {
  return vscode.workspace.onDidCloseNotebookDocument((nb) => allowed.delete(nb.uri.toString()));
}
