// Dialogs as notebooks: the serializer, cell ids, the status bar, Edit Reply, opening, menu context keys.

import * as vscode from 'vscode';
import { registerSerializer } from './serializer';
import { registerCellIds } from './ids';
import { registerStatusBar } from './statusBar';
import { registerReplyEditor } from './replyEditor';
import { registerOpening } from './opening';
import { registerContextKeys } from './contextKeys';

export function registerNotebook(context: vscode.ExtensionContext): void {
  registerSerializer(context);
  registerCellIds(context);
  registerStatusBar(context);
  registerReplyEditor(context);
  registerOpening(context);
  registerContextKeys(context);
}
