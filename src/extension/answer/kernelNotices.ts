// What a prompt's use of the kernel could not do (a reference that is not a tool, an untrusted workspace,
// values that no running kernel holds) is said once per dialog in the Output channel, not on every answer:
// a dialog whose history names an undefined `&`tool`` would otherwise repeat it for every prompt after.
// The answered prompt's status bar says it each time, quietly.

import * as vscode from 'vscode';
import { log } from '../log';

const said = new Map<string, Set<string>>();

/** Logs `text` as a warning unless it was said for this dialog already; true when it is new. */
export function sayOnce(nb: vscode.NotebookDocument, text: string): boolean {
  const key = nb.uri.toString();
  let s = said.get(key);
  if (!s) said.set(key, (s = new Set()));
  if (s.has(text)) return false;
  s.add(text);
  log.warn(text);
  return true;
}

/** What was said for the dialog at `uri` (the `dialogNotebook.kernelNotices` command, for tests). */
export function kernelNotices(uri: string): string[] {
  return [...(said.get(uri) ?? [])];
}

/** A closed dialog is told again when it is opened again. */
export function forgetNotices(nb: vscode.NotebookDocument): void {
  said.delete(nb.uri.toString());
}
