// "Edit Reply": a prompt's reply opens as a markdown document beside the notebook, served by a small
// file system (`dialog-reply:`). Saving that document writes the reply back into the prompt cell as one
// undoable notebook edit; the notebook itself is saved as usual.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, PROMPT_LANG, cell2msg, cellLike, cellReply, cellState, cellType } from './cells';
import { applyMessage, resolveCell } from './edits';

export const REPLY_SCHEME = 'dialog-reply';

/** `dialog-reply:/<notebook name> <id>.reply.md?<notebook uri>#<cell id>` */
export function replyUri(cell: vscode.NotebookCell): vscode.Uri {
  const id = cellState(cell).id ?? '';
  const base = cell.notebook.uri.path.split('/').pop()?.replace(/\.ipynb$/i, '') || 'dialog';
  return vscode.Uri.from({ scheme: REPLY_SCHEME, path: `/${base} ${id}.reply.md`, query: cell.notebook.uri.toString(), fragment: id });
}

function promptCell(uri: vscode.Uri): vscode.NotebookCell {
  const nb = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.query);
  const cell = nb?.getCells().find((c) => cellState(c).id === uri.fragment && cellType(cellLike(c)) === 'prompt');
  if (!cell) throw vscode.FileSystemError.FileNotFound(uri);
  return cell;
}

class ReplyFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly mtimes = new Map<string, number>();

  stat(uri: vscode.Uri): vscode.FileStat {
    const text = cellReply(promptCell(uri));
    const mtime = this.mtimes.get(uri.toString()) ?? Date.now();
    return { type: vscode.FileType.File, ctime: 0, mtime, size: Buffer.byteLength(text) };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return new TextEncoder().encode(cellReply(promptCell(uri)));
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const cell = promptCell(uri);
    const m = cell2msg(cellLike(cell));
    m.output = new TextDecoder().decode(content);
    if (!(await applyMessage(cell, m))) throw vscode.FileSystemError.Unavailable('the notebook refused the edit');
    this.mtimes.set(uri.toString(), Date.now());
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/** Opens the reply of the prompt `arg` (or the selected cell) beside the notebook. */
export async function editReply(arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const cell = resolveCell(arg);
  if (!cell || cell.notebook.notebookType !== NOTEBOOK_TYPE || cellType(cellLike(cell)) !== 'prompt') {
    void vscode.window.showInformationMessage('Edit Reply works on a prompt cell of a dialog.');
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument(replyUri(cell));
  return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
}

/** Context key listing prompt cells (by cell uri), so "Edit Reply" shows on prompt cells only. */
function trackPromptCells(): vscode.Disposable {
  let last = '';
  const update = () => {
    const uris = vscode.workspace.notebookDocuments
      .filter((nb) => nb.notebookType === NOTEBOOK_TYPE)
      .flatMap((nb) => nb.getCells())
      .filter((c) => c.document.languageId === PROMPT_LANG)
      .map((c) => c.document.uri.toString());
    const key = uris.join('\n');
    if (key === last) return;
    last = key;
    void vscode.commands.executeCommand('setContext', 'dialogNotebook.promptCells', uris);
  };
  update();
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenNotebookDocument(update),
    vscode.workspace.onDidCloseNotebookDocument(update),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType === NOTEBOOK_TYPE && (e.contentChanges.length || e.cellChanges.some((c) => c.document))) update();
    }),
  );
}

export function registerReplyEditor(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    trackPromptCells(),
    vscode.workspace.registerFileSystemProvider(REPLY_SCHEME, new ReplyFileSystem(), { isCaseSensitive: true }),
    vscode.commands.registerCommand('dialogNotebook.editReply', editReply),
  );
}
