// The extension's entry point: activate() only registers; each folder registers its own concern.

import * as vscode from 'vscode';
import { registerDialogOpening } from './opening';
import { registerDocument } from './document';
import { registerEditing } from './editing';
import { registerLook } from './look';
import { registerOutside } from './outside';
import { registerViews } from './views';
import { registerPanel } from './panel';
import { registerCommands } from './commands';
import { registerLog } from './log';
import { registerFork } from './fork';
import { registerAnswer } from './answer';
import { registerKernel } from './kernel';
import { registerCraft } from './craft/cache';
import { registerDialoghelper, registerTools } from './tools';
import { registerInline } from './inline';
import { registerMcp } from './mcp';
import { registerWeb } from './web';
import { registerSearch } from './search';
import { registerShare } from './share';

export function activate(context: vscode.ExtensionContext): void {
  registerLog(context).info(`Dialog Notebooks ${context.extension.packageJSON.version} activated`);
  // Dialogs as notebooks, room by room (docs/development.md). Opening first: a dialog double-clicked while
  // we activate already opens as a dialog. Then the document, before every other listener that reads a dialog.
  registerDialogOpening(context);
  registerDocument(context);
  registerEditing(context);
  registerLook(context);
  registerOutside(context);
  registerViews(context);
  registerPanel(context);
  registerCommands(context);
  registerFork(context);
  const answers = registerAnswer(context);
  const runner = registerKernel(context, answers);
  registerTools(context, () => answers.promptRunner.kernels);
  registerDialoghelper(context, runner);
  registerWeb(context);
  registerMcp(context, () => answers.promptRunner.kernels);
  registerCraft(context);
  registerInline(context);
  registerSearch(context);
  registerShare(context);
}

export function deactivate(): void {}
