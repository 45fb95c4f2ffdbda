// The extension's entry point: activate() only registers; each folder registers its own concern.

import * as vscode from 'vscode';
import { registerNotebook } from './notebook';
import { registerViews } from './views';
import { registerPanel } from './panel';
import { registerCommands } from './commands';

export function activate(context: vscode.ExtensionContext): void {
  registerNotebook(context);
  registerViews(context);
  registerPanel(context);
  registerCommands(context);
}

export function deactivate(): void {}
