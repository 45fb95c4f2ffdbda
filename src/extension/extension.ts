// The extension's entry point: activate() only registers; each concern lives in its own module.

import * as vscode from 'vscode';
import { registerSerializer } from './serializer';
import { registerCellIds } from './cellIds';
import { registerStatusBar } from './statusBar';
import { registerCellCommands } from './cellCommands';
import { registerReplyEditor } from './replyEditor';
import { registerOpening } from './opening';
import { registerNavigation } from './navigation';

export function activate(context: vscode.ExtensionContext): void {
  registerSerializer(context);
  registerCellIds(context);
  registerStatusBar(context);
  registerCellCommands(context);
  registerReplyEditor(context);
  registerOpening(context);
  registerNavigation(context);
}

export function deactivate(): void {}
