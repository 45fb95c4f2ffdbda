// "Edit Reply": a prompt's reply opens as a markdown document beside the notebook, served by a small
// file system (`dialog-reply:`). Saving that document writes the reply back into the prompt cell as one
// undoable notebook edit; the notebook itself is saved as usual.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, cell2msg, cellLike, cellReply, cellState, cellType } from '../document/cells';
import { CommandResult, DONE, refuse } from '../commands/feedback';
import { applyMessage } from '../editing/edits';
import { resolveCell } from '../commands/target';

export const REPLY_SCHEME = 'dialog-reply';

/** `dialog-reply:/<notebook name> <id>.reply.md?<notebook uri>#<cell id>` */
export function replyUri(cell: vscode.NotebookCell): vscode.Uri {
  const id = cellState(cell).id ?? '';
  const base = cell.notebook.uri.path.split('/').pop()?.replace(/\.ipynb$/i, '') || 'dialog';
  return vscode.Uri.from({ scheme: REPLY_SCHEME, path: `/${base} ${id}.reply.md`, query: cell.notebook.uri.toString(), fragment: id });
}

/** The prompt cell whose reply `uri` serves (FileNotFound when it is gone). */
export function promptCell(uri: vscode.Uri): vscode.NotebookCell {
  const nb = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.query && n.notebookType === NOTEBOOK_TYPE);
  const cell = nb?.getCells().find((c) => cellState(c).id === uri.fragment && cellType(cellLike(c)) === 'prompt');
  if (!cell) throw vscode.FileSystemError.FileNotFound(uri);
  return cell;
}

/** The reply of the prompt behind `uri`, undefined when that prompt is gone. */
function replyOf(uri: vscode.Uri): string | undefined {
  try {
    return cellReply(promptCell(uri));
  } catch {
    return undefined;
  }
}

interface Served {
  uri: vscode.Uri;
  /** undefined: the prompt is gone (the document was told it was deleted). */
  text: string | undefined;
  mtime: number;
}

/**
 * The replies as files. Each served reply keeps the text and mtime it was last seen with: the mtime
 * moves only when the reply changes, so VS Code neither reports a false save conflict nor misses a
 * change. A notebook edit that changes a served reply (an undo, the panel) fires a change event, so an
 * open, unmodified reply document reloads instead of showing a stale reply.
 */
class ReplyFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly served = new Map<string, Served>();

  /** Records `text` as what `uri` holds now, with a later mtime when it changed. */
  private record(uri: vscode.Uri, text: string | undefined): Served {
    const last = this.served.get(uri.toString());
    if (last && last.text === text) return last;
    const entry = { uri, text, mtime: Math.max(Date.now(), (last?.mtime ?? 0) + 1) };
    this.served.set(uri.toString(), entry);
    return entry;
  }

  private current(uri: vscode.Uri): { text: string; mtime: number } {
    const text = cellReply(promptCell(uri));
    return { text, mtime: this.record(uri, text).mtime };
  }

  /** Tells VS Code about every served reply of `nb` that is no longer what was served. */
  notebookChanged(nb: vscode.NotebookDocument): void {
    const events: vscode.FileChangeEvent[] = [];
    for (const s of this.served.values()) {
      if (s.uri.query !== nb.uri.toString()) continue;
      const text = replyOf(s.uri);
      if (text === s.text) continue;
      const type = text === undefined ? vscode.FileChangeType.Deleted : s.text === undefined ? vscode.FileChangeType.Created : vscode.FileChangeType.Changed;
      events.push({ type, uri: s.uri });
      this.record(s.uri, text);
    }
    if (events.length) this.changed.fire(events);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const { text, mtime } = this.current(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime, size: new TextEncoder().encode(text).length };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return new TextEncoder().encode(this.current(uri).text);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const cell = promptCell(uri);
    const m = cell2msg(cellLike(cell));
    const text = new TextDecoder().decode(content);
    m.output = text;
    // Recorded first: the notebook change this write causes is no news to the document being saved.
    const before = replyOf(uri);
    this.record(uri, text);
    if (!(await applyMessage(cell, m))) {
      this.record(uri, before);
      throw vscode.FileSystemError.Unavailable('the notebook refused the edit');
    }
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
export async function editReply(arg?: unknown): Promise<CommandResult & { editor?: vscode.TextEditor }> {
  const cell = resolveCell(arg);
  if (!cell || cellType(cellLike(cell)) !== 'prompt') return refuse('Edit Reply works on a prompt cell of a dialog: select one first.');
  const doc = await vscode.workspace.openTextDocument(replyUri(cell));
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  return { ...DONE, editor };
}

export function registerReplyEditor(context: vscode.ExtensionContext): void {
  const fs = new ReplyFileSystem();
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(REPLY_SCHEME, fs, { isCaseSensitive: true }),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType === NOTEBOOK_TYPE) fs.notebookChanged(e.notebook);
    }),
    vscode.commands.registerCommand('dialogNotebook.editReply', editReply),
  );
}
