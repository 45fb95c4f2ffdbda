// Dialog: Toggle Tools: the dialog's Use tools switch (`metadata.solveit.use_tools`), written in the form
// the file already uses (core/answer/mode.ts withTools) as one undoable edit, and shown in the status bar
// beside the mode.

import * as vscode from 'vscode';
import { dialogUsesTools, withTools } from '../../core/answer';
import { notebookMeta, notebookMetadataWith } from '../document/cells';
import { activeDialog, dialogEditor, onShownDialogChange } from '../commands/target';
import { log } from '../log';

/** Flips the switch of the active dialog (or of the dialog `target` names); `on` sets it. Returns the state written. */
export async function toggleToolsCommand(target?: unknown, on?: unknown): Promise<boolean | undefined> {
  if (typeof target === 'boolean') [target, on] = [undefined, target];
  const nb = activeDialog(target);
  if (!nb) {
    void vscode.window.showWarningMessage('Open a dialog to turn its tools on or off.');
    return undefined;
  }
  const next = typeof on === 'boolean' ? on : !dialogUsesTools(notebookMeta(nb));
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(notebookMetadataWith(nb, withTools(notebookMeta(nb), next)))]);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage('VS Code refused to change the dialog’s tools switch; nothing was changed.');
    return undefined;
  }
  log.info(`Tools of ${nb.uri.path.split('/').pop()}: ${next ? 'on (the AI may read and edit the dialog and run Python)' : 'off'}`);
  return next;
}

/** The window status bar item beside the mode: whether the AI gets the dialog tools; a click toggles. */
export class ToolsStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dialogNotebook.tools', vscode.StatusBarAlignment.Right, 100.5);
  private readonly subs: vscode.Disposable[] = [];

  constructor() {
    this.item.name = 'Dialog Tools';
    this.item.command = 'dialogNotebook.toggleTools';
    this.subs.push(
      this.item,
      ...onShownDialogChange(() => this.update()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
    );
    this.update();
  }

  update(): void {
    const nb = dialogEditor()?.notebook;
    if (!nb) return this.item.hide();
    const on = dialogUsesTools(notebookMeta(nb));
    this.item.text = on ? '$(tools) tools' : '$(circle-slash) tools';
    const trust = vscode.workspace.isTrusted ? '' : '\n\nThis workspace is not trusted: the AI gets only the tools that read.';
    this.item.tooltip = on
      ? `Use tools is on: the AI may read and edit this dialog and run Python in its kernel (asking first as dialogNotebook.tools.confirm says). Click to turn it off.${trust}`
      : `Use tools is off: the AI gets only the dialog tools a prompt names (&\`add_msg\`). Click to turn it on.${trust}`;
    this.item.show();
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
  }
}
