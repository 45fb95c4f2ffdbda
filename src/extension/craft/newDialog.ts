// Dialog: New Dialog (`dialogNotebook.newDialog`): a new dialog file in a folder (the Explorer's folder,
// else the active dialog's, else the first workspace folder), named by the user, whose first messages
// are those of every TEMPLATE.ipynb of the folder and its parents, root-most first, with fresh ids, and
// whose metadata carries Solveit's mode (`dialogNotebook.defaultMode`). With no folder at all it is an
// untitled dialog. A template that cannot be read is left out, and the user told which.

import * as vscode from 'vscode';
import { writeIpynb } from '../../core/ipynb';
import { Dialog, dialogFromTemplates } from '../../core/model';
import { CommandResult, reason, refuse } from '../commands/feedback';
import { config } from '../config';
import { log } from '../log';
import { NOTEBOOK_TYPE, dlg2notebook } from '../document/cells';
import { dialogFolder, fileStat, readDialogFile, shownPath, stackedFiles } from './files';

export const TEMPLATE_FILE = 'TEMPLATE.ipynb';

/** The folder the new dialog goes in: the one given (a file's folder for a file), else the active dialog's, else the first workspace folder. */
async function targetFolder(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) {
    const s = await vscode.workspace.fs.stat(arg).then(
      (x) => x,
      () => undefined,
    );
    return s && s.type & vscode.FileType.Directory ? arg : dialogFolder({ uri: arg });
  }
  const active = vscode.window.activeNotebookEditor?.notebook;
  if (active && !active.isUntitled && active.uri.scheme !== 'untitled') return dialogFolder(active);
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** The templates that apply in `folder`, root-most first; unreadable ones are named in a warning. */
async function templates(folder: vscode.Uri): Promise<Dialog[]> {
  const found: Dialog[] = [];
  const bad: string[] = [];
  for (const uri of stackedFiles(folder, TEMPLATE_FILE)) {
    if (!(await fileStat(uri))) continue;
    try {
      found.push(await readDialogFile(uri));
    } catch (e) {
      bad.push(`${shownPath(uri)} (${reason(e)})`);
    }
  }
  if (bad.length) {
    const msg = `New Dialog left out templates that could not be read: ${bad.join(', ')}.`;
    log.warn(msg);
    void vscode.window.showWarningMessage(msg);
  }
  return found;
}

const fileName = (name: string) => (/\.ipynb$/i.test(name) ? name : `${name}.ipynb`);

async function askName(folder: vscode.Uri): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'New Dialog',
    prompt: `Name of the new dialog in ${shownPath(folder) || folder.path}`,
    value: 'dialog',
    validateInput: async (v) => {
      const n = v.trim();
      if (!n) return 'Type a name.';
      if (/[\\/:*?"<>|]/.test(n)) return 'A name, not a path: no / \\ : * ? " < > |';
      return (await fileStat(vscode.Uri.joinPath(folder, fileName(n)))) ? `${fileName(n)} exists already: choose another name.` : undefined;
    },
  });
}

/** `folder` (a Uri, from the Explorer) and `name` (for scripts) are optional; returns the new dialog's Uri, or a refusal. */
export async function newDialog(arg?: unknown, name?: unknown): Promise<vscode.Uri | CommandResult | undefined> {
  const folder = await targetFolder(arg);
  if (!folder) {
    const nb = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, dlg2notebook(dialogFromTemplates([], config.defaultMode)));
    await vscode.window.showNotebookDocument(nb);
    return nb.uri;
  }
  const given = typeof name === 'string' && name.trim() ? name.trim() : await askName(folder);
  if (!given) return undefined;
  const uri = vscode.Uri.joinPath(folder, fileName(given));
  if (await fileStat(uri)) return refuse(`${shownPath(uri)} exists already: New Dialog never overwrites a file. Choose another name.`);
  const d = dialogFromTemplates(await templates(folder), config.defaultMode);
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(writeIpynb(d)));
  } catch (e) {
    return refuse(`New Dialog could not write ${shownPath(uri)}: ${reason(e)}`);
  }
  log.info(`New dialog ${shownPath(uri)}: ${d.messages.length} messages`);
  await vscode.commands.executeCommand('vscode.openWith', uri, NOTEBOOK_TYPE);
  return uri;
}
