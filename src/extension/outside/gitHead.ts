// The dialog file's version at git HEAD (find_msgs' only_chg compares the open dialog with it). git runs
// behind the platform (src/node/gitHead.ts); the browser has none.

import * as vscode from 'vscode';
import { Dialog, DialogReadError, readIpynb } from '../../core';
import { platform } from '../platform';
import { reason } from '../commands/feedback';

/** The dialog at HEAD; null when HEAD does not hold the file (untracked, no commit yet); else why it cannot be read. */
export async function headDialog(nb: vscode.NotebookDocument): Promise<Dialog | null | string> {
  const read = platform().gitHeadText;
  if (!read) return 'only_chg needs git, which is not available in the browser';
  if (nb.uri.scheme !== 'file') return `only_chg needs git: ${nb.uri.toString()} is not a local file`;
  let text: string | null;
  try {
    text = await read(nb.uri.fsPath);
  } catch (e) {
    return `only_chg needs git: ${reason(e)}`;
  }
  if (text === null) return null;
  try {
    return readIpynb(text, nb.uri.path.split('/').pop());
  } catch (e) {
    if (e instanceof DialogReadError) return `the version of the dialog at git HEAD does not read as a dialog: ${e.message.split('\n', 1)[0]}`;
    throw e;
  }
}
