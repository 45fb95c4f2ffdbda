// Opening a dialog and choosing its editor. What a double-click opens: defaultEditor.ts keeps VS Code's
// `*.ipynb` editor association in line with `dialogNotebook.openDialogsByDefault`. opening.ts: "Open as
// Dialog" on .ipynb files that look like dialogs, "Reopen with Jupyter" back, a dialog opened in Jupyter
// reopened as a dialog while the setting is on, and "New Dialog"; openOffer.ts offers the setting once
// when a dialog opens in Jupyter.

import * as vscode from 'vscode';
import { config } from '../config';
import { registerDefaultEditor } from './defaultEditor';
import { registerOpening } from './opening';

export function registerDialogOpening(context: vscode.ExtensionContext): void {
  // Before anything else: a dialog double-clicked while we activate already opens as a dialog.
  registerDefaultEditor(context, () => config.openDialogsByDefault);
  registerOpening(context);
}
