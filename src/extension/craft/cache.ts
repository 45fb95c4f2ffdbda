// The CRAFT files of a dialog (core/hist/craft.ts), read once per change: each file is kept with the
// mtime and size it had when read, and read again only when its stat differs, so a prompt costs a few
// stats, not a read and a parse per file. The panel's state is built synchronously: it takes the last
// context loaded for the dialog (`knownCraft`) and asks for a fresh one (`craftFor`) beside.

import * as vscode from 'vscode';
import { AimInfo, CraftContext, CraftFile, EMPTY_CRAFT, craftContext } from '../../core/hist';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { dialogFolder, fileStat, readDialogFile, shownPath, stackedFiles } from './files';

export const CRAFT_FILE = 'CRAFT.ipynb';

interface Read {
  stamp: string;
  file: CraftFile;
}

const reads = new Map<string, Read>();
/** The last context built per dialog and vision, with the files it was built from (by identity). */
const built = new Map<string, { files: CraftFile[]; craft: CraftContext }>();

/** The CRAFT files that apply to `nb`, root-most first (a CRAFT.ipynb is not its own context). */
function craftUris(nb: vscode.NotebookDocument): vscode.Uri[] {
  if (nb.isUntitled) return [];
  return stackedFiles(dialogFolder(nb), CRAFT_FILE).filter((u) => u.toString() !== nb.uri.toString());
}

async function craftFile(uri: vscode.Uri): Promise<CraftFile | undefined> {
  const stat = await fileStat(uri);
  const key = uri.toString();
  if (!stat) {
    reads.delete(key);
    return undefined;
  }
  const stamp = `${stat.mtime}:${stat.size}`;
  const had = reads.get(key);
  if (had?.stamp === stamp) return had.file;
  const name = shownPath(uri);
  let file: CraftFile;
  try {
    file = { name, dialog: await readDialogFile(uri) };
    log.info(`Read ${name}: ${file.dialog?.messages.length} messages of CRAFT context`);
  } catch (e) {
    file = { name, error: reason(e) };
    log.warn(`${name} could not be read, so prompts are answered without it: ${file.error}`);
  }
  reads.set(key, { stamp, file });
  return file;
}

const builtKey = (nb: vscode.NotebookDocument, aim: AimInfo | null) => `${nb.uri.toString()}|${aim?.supports_vision === false ? 'text' : 'vision'}`;

/** The CRAFT context of `nb` as its files are now (re-read only those that changed). */
export async function craftFor(nb: vscode.NotebookDocument, aim: AimInfo | null = null): Promise<CraftContext> {
  const files = (await Promise.all(craftUris(nb).map(craftFile))).filter((f): f is CraftFile => !!f);
  const key = builtKey(nb, aim);
  const had = built.get(key);
  if (had && had.files.length === files.length && had.files.every((f, k) => f === files[k])) return had.craft;
  const craft = files.length ? craftContext(files, aim) : EMPTY_CRAFT;
  built.set(key, { files, craft });
  return craft;
}

/** The CRAFT context last loaded for `nb` (none before the first `craftFor`). */
export function knownCraft(nb: vscode.NotebookDocument, aim: AimInfo | null = null): CraftContext {
  return built.get(builtKey(nb, aim))?.craft ?? EMPTY_CRAFT;
}
