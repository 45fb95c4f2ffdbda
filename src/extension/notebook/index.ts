// Dialogs as notebooks: the serializer and where read cells' origins live, cell ids, the status bar, Edit Reply, opening, menu context keys, the .py written on save, pasting and dropping images and files into cells, sections and cells shown folded as saved, the images of prompts' thumbnails, outside changes merged in and the conflicts they leave.

import * as vscode from 'vscode';
import { registerDocument } from '../document';
import { registerEditing } from '../editing';
import { registerStatusBar } from './statusBar';
import { registerReplyEditor } from './replyEditor';
import { registerDialogOpening } from '../opening';
import { registerContextKeys } from './contextKeys';
import { registerExportOnSave } from './exportOnSave';
import { registerAttachPaste } from './attachPaste';
import { registerFolding } from './folding';
import { registerReplyImages } from './replyImages';
import { registerOutside } from '../outside';

export function registerNotebook(context: vscode.ExtensionContext): void {
  // Before anything else: a dialog double-clicked while we activate already opens as a dialog.
  registerDialogOpening(context);
  // The document before every other listener that reads a dialog (document/index.ts).
  registerDocument(context);
  registerEditing(context);
  registerStatusBar(context);
  registerReplyEditor(context);
  registerContextKeys(context);
  registerExportOnSave(context);
  registerAttachPaste(context);
  registerFolding(context);
  registerReplyImages(context);
  registerOutside(context);
}
