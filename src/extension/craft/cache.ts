// The CRAFT files of a dialog (core/hist/craft.ts), read once per change: the core's CraftStore keeps
// each with the mtime and size it had when read, so a prompt costs a stat per folder, not a read and a
// parse per file. The panel's state is built synchronously: it takes the last context loaded for the
// dialog (`knownCraft`) and asks for a fresh one (`craftFor`) beside.

import * as vscode from 'vscode';
import { AimInfo, CraftContext, CraftFile, CraftStamp, CraftStore } from '../../core/hist';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { dialogFolder, fileStat, readDialogFile, shownPath, stackedFiles } from './files';

export const CRAFT_FILE = 'CRAFT.ipynb';

const store = new CraftStore();

/** The CRAFT files that exist for `nb` now, root-most first (a CRAFT.ipynb is not its own context). */
async function found(nb: vscode.NotebookDocument): Promise<CraftStamp[]> {
  if (nb.isUntitled) return [];
  const uris = stackedFiles(dialogFolder(nb), CRAFT_FILE).filter((u) => u.toString() !== nb.uri.toString());
  const stats = await Promise.all(uris.map(fileStat));
  return uris.flatMap((u, k) => {
    const s = stats[k];
    return s ? [{ key: u.toString(), stamp: `${s.mtime}:${s.size}` }] : [];
  });
}

async function read(key: string): Promise<CraftFile> {
  const uri = vscode.Uri.parse(key);
  const name = shownPath(uri);
  try {
    const dialog = await readDialogFile(uri);
    log.info(`Read ${name}: ${dialog.messages.length} messages of CRAFT context`);
    return { name, dialog };
  } catch (e) {
    log.warn(`${name} could not be read, so prompts are answered without it: ${reason(e)}`);
    return { name, error: reason(e) };
  }
}

/** The CRAFT context of `nb` as its files are now (re-read only those that changed). */
export async function craftFor(nb: vscode.NotebookDocument, aim: AimInfo | null = null): Promise<CraftContext> {
  return store.context(nb.uri.toString(), await found(nb), read, aim);
}

/** The CRAFT context last loaded for `nb` (none before the first `craftFor`). */
export function knownCraft(nb: vscode.NotebookDocument, aim: AimInfo | null = null): CraftContext {
  return store.known(nb.uri.toString(), aim);
}

export function registerCraft(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.workspace.onDidCloseNotebookDocument((nb) => store.forget(nb.uri.toString())));
}
