// Saving a dialog with exported code cells also writes `<dialog>.py` beside it from `dlg2py`, as Solveit
// does (solveit-features: skipped inside an nbdev project, whose own tools export the code), when
// `dialogNotebook.exportPythonOnSave` is on. A failed write is a warning: the dialog is saved all the same.

import * as vscode from 'vscode';
import { dlg2py, exported } from '../../core/model';
import { savedDialog } from '../../core/reply';
import { reason } from '../commands/feedback';
import { config } from '../config';
import { log } from '../log';
import { NOTEBOOK_TYPE } from '../document/cells';
import { dialogOf } from '../document/dialogCache';

const NBDEV_INI = /^\s*(?:#.*\bnbdev\b|nbdev\w*\s*=|nbs_path\s*=)/im;
const NBDEV_TOML = /^\s*\[tool\.nbdev\]/m;

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** Whether `folder` or a folder above it holds an nbdev `settings.ini` or a `pyproject.toml` with `[tool.nbdev]`. */
export async function inNbdevProject(folder: vscode.Uri): Promise<boolean> {
  for (let f = folder; ; ) {
    const ini = await readText(vscode.Uri.joinPath(f, 'settings.ini'));
    if (ini !== undefined && NBDEV_INI.test(ini)) return true;
    const toml = await readText(vscode.Uri.joinPath(f, 'pyproject.toml'));
    if (toml !== undefined && NBDEV_TOML.test(toml)) return true;
    const up = vscode.Uri.joinPath(f, '..');
    if (up.path === f.path) return false;
    f = up;
  }
}

/** `name.ipynb` → `name.py`, beside it. */
export const pythonBeside = (uri: vscode.Uri) => uri.with({ path: uri.path.replace(/(\.ipynb)?$/i, '.py') });

async function exportOnSave(nb: vscode.NotebookDocument): Promise<void> {
  if (nb.notebookType !== NOTEBOOK_TYPE || nb.isUntitled || !config.exportPythonOnSave) return;
  const d = savedDialog(dialogOf(nb));
  if (!d.messages.some((m) => m.msgType === 'code' && exported(m))) return;
  const folder = vscode.Uri.joinPath(nb.uri, '..');
  if (await inNbdevProject(folder)) return void log.info(`${vscode.workspace.asRelativePath(nb.uri, false)} is in an nbdev project: no .py written beside it.`);
  const py = pythonBeside(nb.uri);
  try {
    await vscode.workspace.fs.writeFile(py, new TextEncoder().encode(`${dlg2py(d)}\n`));
    log.info(`Wrote the exported code to ${vscode.workspace.asRelativePath(py, false)}`);
  } catch (e) {
    const msg = `The dialog was saved, but its exported code could not be written to ${vscode.workspace.asRelativePath(py, false)}: ${reason(e)}. Turn off dialogNotebook.exportPythonOnSave to stop trying.`;
    log.warn(msg);
    void vscode.window.showWarningMessage(msg);
  }
}

export function registerExportOnSave(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.workspace.onDidSaveNotebookDocument((nb) => void exportOnSave(nb)));
}
