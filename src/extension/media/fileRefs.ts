// The `#ai` files of a dialog open in VS Code (`![](pic.png#ai)`), read for the history preview by the
// guarded reader of src/node (local files on the desktop) or through workspace.fs (fileRefsFs.ts): never in
// an untrusted workspace, only inside the dialog's workspace folder (its own folder when it is in none),
// regular files up to `dialogNotebook.history.maxFileBytes`.
import * as vscode from 'vscode';
import { DEFAULT_MAX_FILE_BYTES, FileRefs, fileRefs } from '../../core/hist';
import { Message } from '../../core/model';
import { config } from '../config';
import { platform } from '../platform';
import { readFileRefsFs } from './fileRefsFs';

export async function dialogFiles(nb: vscode.NotebookDocument, messages: readonly Message[]): Promise<FileRefs> {
  const refs = fileRefs(messages);
  const none = (reason: string) => new Map(refs.map((r) => [r, reason]));
  if (!refs.length) return new Map();
  if (!vscode.workspace.isTrusted) return none('the workspace is not trusted');
  if (nb.isUntitled) return none('the dialog is not saved in a folder yet');
  const maxBytes = config.maxFileBytes(DEFAULT_MAX_FILE_BYTES);
  const dir = vscode.Uri.joinPath(nb.uri, '..');
  const folder = vscode.workspace.getWorkspaceFolder(nb.uri);
  const inFolder = folder && folder.uri.scheme === nb.uri.scheme && folder.uri.authority === nb.uri.authority;
  const [root, rootName] = inFolder ? [folder.uri, 'the workspace folder'] : [dir, "the dialog's folder"];
  const readLocal = platform().readFileRefs;
  // Local files through Node, which sees links and devices; anything else (the browser, virtual
  // workspaces) through VS Code's file system API.
  if (nb.uri.scheme === 'file' && readLocal) return readLocal({ base: dir.fsPath, root: root.fsPath, rootName, maxBytes }, refs);
  return readFileRefsFs({ base: dir, root, rootName, maxBytes }, refs);
}
