// The `#ai` files of a dialog open in VS Code (`![](pic.png#ai)`), read for the history preview by the
// guarded reader of src/node: never in an untrusted workspace, only inside the dialog's workspace folder
// (its own folder when it is in none), regular files up to `dialogNotebook.history.maxFileBytes`.
import * as vscode from 'vscode';
import { DEFAULT_MAX_FILE_BYTES, FileRefs, fileRefs } from '../../core/hist';
import { Message } from '../../core/model';
import { config } from '../config';
import { platform } from '../platform';

export async function dialogFiles(nb: vscode.NotebookDocument, messages: readonly Message[]): Promise<FileRefs> {
  const refs = fileRefs(messages);
  const none = (reason: string) => new Map(refs.map((r) => [r, reason]));
  if (!refs.length) return new Map();
  if (!vscode.workspace.isTrusted) return none('the workspace is not trusted');
  const read = platform().readFileRefs;
  if (!read) return none('files are read only in the desktop VS Code');
  if (nb.uri.scheme !== 'file') return none('the dialog is not a local file');
  const base = vscode.Uri.joinPath(nb.uri, '..').fsPath;
  const folder = vscode.workspace.getWorkspaceFolder(nb.uri);
  const scope = folder?.uri.scheme === 'file' ? { base, root: folder.uri.fsPath, rootName: 'the workspace folder' } : { base, root: base, rootName: "the dialog's folder" };
  return read({ ...scope, maxBytes: config.maxFileBytes(DEFAULT_MAX_FILE_BYTES) }, refs);
}
