// The cell's look and handles: the per-cell status bar (statusBar.ts), "Edit Reply" (replyEditor.ts), the
// context keys that show a cell-title menu item only where it applies (contextKeys.ts), sections and cells
// shown folded as saved (folding.ts), the images of prompts' thumbnails for the reply renderer
// (replyImages.ts), pasting and dropping images and files into cells (attachPaste.ts), and the `.py`
// written beside a dialog on save (exportOnSave.ts). What a cell's outputs are is the document's
// (document/outputs.ts).

import * as vscode from 'vscode';
import { registerStatusBar } from './statusBar';
import { registerReplyEditor } from './replyEditor';
import { registerContextKeys } from './contextKeys';
import { registerExportOnSave } from './exportOnSave';
import { registerAttachPaste } from './attachPaste';
import { registerFolding } from './folding';
import { registerReplyImages } from './replyImages';

export function registerLook(context: vscode.ExtensionContext): void {
  registerStatusBar(context);
  registerReplyEditor(context);
  registerContextKeys(context);
  registerExportOnSave(context);
  registerAttachPaste(context);
  registerFolding(context);
  registerReplyImages(context);
}
