// How surgery commands report: a refusal is an error message (nothing changed), a result an info
// message. The last one is kept so tests (where toasts are not shown) can observe it.

import * as vscode from 'vscode';

export interface Feedback {
  kind: 'error' | 'info';
  text: string;
}

let last: Feedback | undefined;

export function lastFeedback(): Feedback | undefined {
  return last;
}

export function clearFeedback(): void {
  last = undefined;
}

/** Shows why a command changed nothing; returns false for `return refuse(…)`. */
export function refuse(text: string): false {
  last = { kind: 'error', text };
  void vscode.window.showErrorMessage(text);
  return false;
}

export function inform(text: string): void {
  last = { kind: 'info', text };
  void vscode.window.showInformationMessage(text);
}

/** The message of an error thrown by a core operation. */
export function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
