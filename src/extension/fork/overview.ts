// Dialog: Overview: the seed's condensed numbered view (`dlg2overview`, one line per message) in a
// read-only editor that follows the dialog as it is edited.

import * as vscode from 'vscode';
import { dlg2overview } from '../../core/fork';
import { savedDialog } from '../../core/reply';
import { NOTEBOOK_TYPE } from '../document/cells';
import { dialogOf } from '../document/dialogCache';
import { refuse } from '../commands/feedback';
import { activeDialog } from '../commands/target';
import { readDialog } from './lineageIndex';

export const OVERVIEW_SCHEME = 'dialog-overview';
/** Typing fires a change per keystroke: the overview follows once it pauses. */
const SETTLE_MS = 200;

/** The overview document of a dialog: named after it, the dialog's own uri in the query. */
export function overviewUri(nb: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: OVERVIEW_SCHEME, path: `${nb.path.replace(/\.ipynb$/i, '')}.overview.txt`, query: nb.toString() });
}

class OverviewDocs implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  /** From the open dialog as its editor shows it, else from the file. */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const nb = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.query && n.notebookType === NOTEBOOK_TYPE);
    try {
      const text = dlg2overview(nb ? savedDialog(dialogOf(nb)) : await readDialog(vscode.Uri.parse(uri.query)));
      return text + '\n';
    } catch (e) {
      return `cannot read the dialog: ${e instanceof Error ? e.message : String(e)}\n`;
    }
  }
}

async function showOverview(arg?: unknown): Promise<vscode.TextDocument | undefined> {
  const nb = activeDialog(arg);
  if (!nb) {
    refuse('Open a dialog to see its overview.');
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument(overviewUri(nb.uri));
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
  return doc;
}

export function registerOverview(context: vscode.ExtensionContext): void {
  const docs = new OverviewDocs();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  // The open overview documents, kept from open/close events: every cell of a dialog is a text document
  // too, so searching `workspace.textDocuments` on each keystroke would cost a pass over all cells.
  const shown = new Set<string>();
  const track = (d: vscode.TextDocument, open: boolean) => {
    if (d.uri.scheme !== OVERVIEW_SCHEME) return;
    if (open) shown.add(d.uri.toString());
    else shown.delete(d.uri.toString());
  };
  vscode.workspace.textDocuments.forEach((d) => track(d, true));
  const follow = (nb: vscode.NotebookDocument) => {
    if (!shown.size) return;
    const uri = overviewUri(nb.uri);
    const key = uri.toString();
    if (!shown.has(key)) return;
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        docs.refresh(uri);
      }, SETTLE_MS),
    );
  };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(OVERVIEW_SCHEME, docs),
    vscode.commands.registerCommand('dialogNotebook.overview', showOverview),
    vscode.workspace.onDidOpenTextDocument((d) => track(d, true)),
    vscode.workspace.onDidCloseTextDocument((d) => track(d, false)),
    vscode.workspace.onDidChangeNotebookDocument((e) => follow(e.notebook)),
    { dispose: () => timers.forEach(clearTimeout) },
  );
}
