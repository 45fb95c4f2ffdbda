// Dialog: Open Changes as Text, on the title bar of VS Code's notebook diff (Source Control, the Timeline):
// the same two versions as readable text (`dlg show`, git's textconv) in VS Code's text diff, word wrapped.
// VS Code's notebook diff draws every cell's text with word wrap off, fixed in its code with no setting or
// API to change it, so the edited words at the end of a long note are cut off at the right edge; a text
// diff takes `editor.wordWrap`, on for Markdown by default, which these documents are.

import * as vscode from 'vscode';
import { dlg2show } from '../../core/export';
import { Dialog } from '../../core/model';
import { readIpynb } from '../../core/ipynb';
import { savedDialog } from '../../core/reply';
import { dialogOf } from '../document/dialogCache';
import { CommandResult, reason, refuse } from '../commands/feedback';
import { ReadOnlyDocs } from './readOnlyDocs';

export const CHANGES_SCHEME = 'dialog-changes';
export const CHANGES_COMMAND = 'dialogNotebook.openChangesAsText';

const nameOf = (uri: vscode.Uri) => uri.path.replace(/^.*\//, '');

/** The dialog at `uri`: an open notebook as its editor shows it, else the file (git's `git:` versions too). */
async function dialogAt(uri: vscode.Uri): Promise<Dialog> {
  const nb = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString());
  if (nb) return savedDialog(dialogOf(nb));
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    text = (await vscode.workspace.openTextDocument(uri)).getText();
  }
  // A file that did not exist on that side (added, deleted) is an empty dialog.
  return text.trim() ? readIpynb(text, nameOf(uri)) : new Dialog();
}

/** The two sides of the active notebook diff, else of `arg` (`[original, modified]` uris, for scripts). */
function sides(arg?: unknown): [vscode.Uri, vscode.Uri] | undefined {
  if (Array.isArray(arg) && arg.length === 2 && arg.every((u) => u instanceof vscode.Uri)) return arg as [vscode.Uri, vscode.Uri];
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputNotebookDiff || input instanceof vscode.TabInputTextDiff) return [input.original, input.modified];
  return undefined;
}

async function openChangesAsText(docs: ReadOnlyDocs, arg?: unknown): Promise<CommandResult> {
  const pair = sides(arg);
  if (!pair) return refuse('Open the changes of a dialog first (click it in Source Control or the Timeline), then Open Changes as Text.');
  const [original, modified] = pair;
  let texts: string[];
  try {
    texts = (await Promise.all([dialogAt(original), dialogAt(modified)])).map(dlg2show);
  } catch (e) {
    return refuse(`Cannot show these changes as text: ${reason(e)}`);
  }
  // Under the dialog's own path (two diffs never share a document); .md: Markdown is word wrapped by default.
  const name = nameOf(modified);
  const left = vscode.Uri.from({ scheme: CHANGES_SCHEME, path: `${modified.path}/before/${name}.md` });
  const right = vscode.Uri.from({ scheme: CHANGES_SCHEME, path: `${modified.path}/after/${name}.md` });
  docs.put(left, texts[0]);
  docs.put(right, texts[1]);
  const title = `${name} (changes as text)`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false });
  return { ok: true, message: title };
}

export function registerChangesAsText(context: vscode.ExtensionContext): void {
  const docs = new ReadOnlyDocs('Dialog: Open Changes as Text');
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(CHANGES_SCHEME, docs),
    vscode.commands.registerCommand(CHANGES_COMMAND, (arg?: unknown) => openChangesAsText(docs, arg)),
  );
}
