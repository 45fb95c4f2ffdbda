// Tokens a dialog spent this session outside its replies (ghost text, Edit with AI): no reply records
// them, so they live here, per notebook, until the window closes, and count in the status bar's total.

import * as vscode from 'vscode';
import { Usage, addUsage } from '../../core/answer';

const spent = new Map<string, Usage>();
const changed = new vscode.EventEmitter<vscode.NotebookDocument>();

/** Fires with the notebook whose session usage grew. */
export const onDidChangeSessionUsage = changed.event;

export function addSessionUsage(nb: vscode.NotebookDocument, u: Usage): void {
  const key = nb.uri.toString();
  const had = spent.get(key);
  spent.set(key, had ? addUsage(had, u) : u);
  changed.fire(nb);
}

/** What `nb` spent this session outside its replies; undefined when nothing. */
export function sessionUsage(nb: vscode.NotebookDocument): Usage | undefined {
  return spent.get(nb.uri.toString());
}
