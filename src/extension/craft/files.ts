// Files that stack from a folder up to its workspace folder (CRAFT.ipynb, TEMPLATE.ipynb, an nbdev
// settings.ini), read only through vscode.workspace.fs so that the extension also runs in the browser.

import * as vscode from 'vscode';
import { readIpynb } from '../../core/ipynb';
import { Dialog } from '../../core/model';
import { platform } from '../platform';

const parentOf = (uri: vscode.Uri) => vscode.Uri.joinPath(uri, '..');

/**
 * `folder` and each parent up to its workspace folder, root-most first; a folder outside every
 * workspace folder is alone.
 */
export function folderChain(folder: vscode.Uri): vscode.Uri[] {
  const root = vscode.workspace.getWorkspaceFolder(folder)?.uri;
  const chain = [folder];
  if (!root) return chain;
  const rootPath = root.path.replace(/\/+$/, '');
  for (let f = folder; f.path.replace(/\/+$/, '') !== rootPath && f.path.startsWith(`${rootPath}/`); ) {
    f = parentOf(f);
    chain.push(f);
  }
  return chain.reverse();
}

/** `name` in `folder` and each parent up to its workspace folder, root-most first (whether they exist or not). */
export function stackedFiles(folder: vscode.Uri, name: string): vscode.Uri[] {
  return folderChain(folder).map((f) => vscode.Uri.joinPath(f, name));
}

/** The folder a dialog lies in. */
export const dialogFolder = (nb: { uri: vscode.Uri }) => parentOf(nb.uri);

/** The stat of `uri` (its mtime and size), undefined when there is nothing (or no file) there. */
export async function fileStat(uri: vscode.Uri): Promise<{ mtime: number; size: number } | undefined> {
  // A prompt's answer stats its CRAFT files: a local file is asked of the disk, not of the window.
  const statFile = platform().statFile;
  if (uri.scheme === 'file' && statFile) return statFile(uri.fsPath);
  try {
    const s = await vscode.workspace.fs.stat(uri);
    return s.type & vscode.FileType.File ? s : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a dialog file (throws with the reason when it is not UTF-8 or not a dialog). */
export async function readDialogFile(uri: vscode.Uri): Promise<Dialog> {
  const bytes = await vscode.workspace.fs.readFile(uri);
  return readIpynb(new TextDecoder('utf-8', { fatal: true }).decode(bytes), uri.path.split('/').pop());
}

/** How the user knows a file: its path in the workspace. */
export const shownPath = (uri: vscode.Uri) => vscode.workspace.asRelativePath(uri, false);
