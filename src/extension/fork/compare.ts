// Dialog: Compare with Parent: VS Code's diff editor on the markdown renderings (`dlg2md`) of a fork and
// its parent from the split message on, served read-only under their own scheme.

import * as vscode from 'vscode';
import { dlg2md } from '../../core/export';
import { findParent, forkPoint, lineageEntry, stemOf } from '../../core/fork';
import { Dialog } from '../../core/model';
import { savedDialog } from '../../core/reply';
import { dialogOf } from '../document/dialogCache';
import { NOTEBOOK_TYPE } from '../document/cells';
import { CommandResult, reason, refuse } from '../commands/feedback';
import { activeDialog } from '../commands/target';
import { LineageIndex, readDialog } from './lineageIndex';
import { ReadOnlyDocs } from '../views/readOnlyDocs';

export const COMPARE_SCHEME = 'dialog-compare';

/** `d` from message `from` on, as markdown. */
function dlg2mdFrom(d: Dialog, from: number): string {
  return dlg2md(new Dialog(from < 0 ? [] : d.messages.slice(from), d.name, d.meta));
}

/** The open dialog at `uri` as its editor shows it, else the file. */
async function dialogAt(uri: vscode.Uri): Promise<Dialog> {
  const nb = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString() && n.notebookType === NOTEBOOK_TYPE);
  return nb ? savedDialog(dialogOf(nb)) : readDialog(uri);
}

async function compareWithParent(docs: ReadOnlyDocs, index: LineageIndex, arg?: unknown): Promise<CommandResult> {
  const nb = activeDialog(arg);
  if (!nb) return refuse('Open a fork of a dialog to compare it with its parent.');
  const fork = savedDialog(dialogOf(nb));
  const self = stemOf(nb.uri.path);
  const entry = lineageEntry(nb.uri.path, fork);
  if (entry.problem) return refuse(`${self}: ${entry.problem}`);
  const l = entry.lineage;
  if (!l) return refuse(`${self} records no lineage: it is not a fork of another dialog.`);
  const link = findParent(entry, await index.entries())!;
  const parentUri = index.uriOf(link.path);
  if (link.foundBy === 'missing' || !parentUri) {
    return refuse(`The parent of ${self} is missing: no dialog at ${l.parent} and none holding its split message ${l.parentMsg}.`);
  }
  let parent: Dialog;
  try {
    parent = await dialogAt(parentUri);
  } catch (e) {
    return refuse(`Cannot read the parent ${stemOf(link.path)}: ${reason(e)}`);
  }
  const at = forkPoint(
    parent.messages.map((m) => m.id),
    fork.messages.map((m) => m.id),
    l,
  );
  // Under the fork's own path, so the compares of two forks never share a document.
  const left = vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `${nb.uri.path}/parent/${stemOf(link.path)}.md` });
  const right = vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `${nb.uri.path}/fork/${self}.md` });
  docs.put(left, dlg2mdFrom(parent, at.parent));
  docs.put(right, dlg2mdFrom(fork, at.fork));
  const title = `${stemOf(link.path)} ↔ ${self} (from split@${l.split})`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false });
  return { ok: true, message: title };
}

export function registerCompare(context: vscode.ExtensionContext, index: LineageIndex): void {
  const docs = new ReadOnlyDocs('Dialog: Compare with Parent');
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, docs),
    vscode.commands.registerCommand('dialogNotebook.compareWithParent', (arg?: unknown) => compareWithParent(docs, index, arg)),
  );
}
