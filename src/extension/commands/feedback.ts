// How surgery commands report: a refusal is an error message (nothing changed), a result an info
// message. Commands also return a CommandResult, so callers (and tests, where toasts are not shown)
// can see what happened through `executeCommand`.

import * as vscode from 'vscode';
import { log } from '../log';

export interface CommandResult {
  ok: boolean;
  message: string;
}

export const DONE: CommandResult = { ok: true, message: '' };

/** Shows why a command changed nothing; returns the failed result for `return refuse(…)`. */
export function refuse(text: string): CommandResult {
  log.warn(`refused: ${text}`);
  void vscode.window.showErrorMessage(text);
  return { ok: false, message: text };
}

export function inform(text: string): void {
  void vscode.window.showInformationMessage(text);
}

/** The message of an error thrown by a core operation. */
export function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
