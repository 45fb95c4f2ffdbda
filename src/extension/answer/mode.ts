// The dialog's mode (learning, concise, standard) in VS Code: a window status bar item showing it for the
// active dialog, and Dialog: Select Mode…, which writes it into the notebook metadata in the form the
// file already uses (core/answer/mode.ts) as one undoable edit.

import * as vscode from 'vscode';
import { DialogMode, MODES, ModeInfo, dialogMode, isMode, withMode } from '../../core/answer';
import { notebookMeta, notebookMetadataWith } from '../document/cells';
import { activeDialog, dialogEditor, onShownDialogChange } from '../commands/target';
import { config } from '../config';
import { log } from '../log';

const DESCRIPTIONS: Record<DialogMode, string> = {
  learning: 'a patient tutor: small steps, questions back, little code at a time',
  concise: 'terse, code-first answers; you run the code',
  standard: 'an ordinary assistant',
};

/** The mode of an open dialog (its metadata, else `dialogNotebook.defaultMode`). */
export function notebookMode(nb: vscode.NotebookDocument): ModeInfo {
  return dialogMode(notebookMeta(nb), config.defaultMode);
}

/** What the status item and the log say about a mode: where it comes from, and an unknown value kept. */
function modeNote(m: ModeInfo): string {
  if (m.unknown !== undefined) return `The file names the mode '${m.unknown}', which Dialog Notebooks does not know: it is kept in the file and answered as standard.`;
  return m.defaulted ? `The file names no mode: dialogNotebook.defaultMode (${m.mode}) applies.` : `Mode ${m.mode}, from the file.`;
}

/** The window status bar item of the active dialog's mode; a click runs Select Mode. */
export class ModeStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dialogNotebook.mode', vscode.StatusBarAlignment.Right, 101);
  private readonly subs: vscode.Disposable[] = [];
  private warned = new WeakSet<vscode.NotebookDocument>();

  constructor() {
    this.item.name = 'Dialog Mode';
    this.item.command = 'dialogNotebook.selectMode';
    this.subs.push(
      this.item,
      ...onShownDialogChange(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'defaultMode')) this.update();
      }),
    );
    this.update();
  }

  update(): void {
    const nb = dialogEditor()?.notebook;
    if (!nb) return this.item.hide();
    const m = notebookMode(nb);
    if (m.unknown !== undefined && !this.warned.has(nb)) {
      this.warned.add(nb);
      log.warn(`${nb.uri.path.split('/').pop()}: ${modeNote(m)}`);
    }
    this.item.text = `$(mortar-board) ${m.unknown !== undefined ? `${m.unknown}?` : m.mode}`;
    this.item.tooltip = `${modeNote(m)}\n\n${m.mode}: ${DESCRIPTIONS[m.mode]}. Click to select the dialog's mode.`;
    this.item.show();
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
  }
}

/**
 * Dialog: Select Mode…; `arg` (`'learning' | 'concise' | 'standard'`, for scripts) skips the pick, and a
 * dialog's Uri picks the dialog. Returns the mode written, if any.
 */
export async function selectModeCommand(arg?: unknown, target?: unknown): Promise<DialogMode | undefined> {
  const nb = activeDialog(isMode(arg) ? target : arg);
  if (!nb) {
    void vscode.window.showWarningMessage('Open a dialog to select its mode.');
    return undefined;
  }
  const now = notebookMode(nb);
  let mode: DialogMode | undefined = isMode(arg) ? arg : undefined;
  if (typeof arg === 'string' && !mode) {
    void vscode.window.showErrorMessage(`Not a mode: '${arg}'. The modes are ${MODES.join(', ')}.`);
    return undefined;
  }
  if (!mode) {
    const items = MODES.map((m) => ({ label: `${m}${m === now.mode && now.unknown === undefined ? ' $(check)' : ''}`, description: DESCRIPTIONS[m], mode: m }));
    mode = (await vscode.window.showQuickPick(items, { title: 'Dialog: Select Mode', placeHolder: `How the AI works in this dialog (now ${now.unknown ?? now.mode})` }))?.mode;
    if (!mode) return undefined;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(notebookMetadataWith(nb, withMode(notebookMeta(nb), mode)))]);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage('VS Code refused to change the dialog’s mode; nothing was changed.');
    return undefined;
  }
  log.info(`Mode of ${nb.uri.path.split('/').pop()}: ${mode} (${now.form === 'legacy' ? 'solveit_dialog_mode' : 'metadata.solveit'})`);
  return mode;
}
