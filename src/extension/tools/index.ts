// The AI's dialog tools (issue 32): the Toggle Tools command and status item, the confirmations, and the
// tools as Language Model Tools for VS Code's agents. The answer path takes them through answer/toolbox.ts.

import * as vscode from 'vscode';
import { DialogKernels } from '../kernel/dialogKernels';
import { forgetOnClose } from './confirm';
import { forgetCurrentOnClose } from './door';
import { registerLmTools } from './lmTools';
import { ToolsStatusItem, toggleToolsCommand } from './toggle';
import { CodeRunner } from '../kernel/runner';
import { DialoghelperServer } from './dialoghelperServer';

export function registerTools(context: vscode.ExtensionContext, kernels: () => DialogKernels | undefined): void {
  context.subscriptions.push(new ToolsStatusItem(), forgetOnClose(), forgetCurrentOnClose(), vscode.commands.registerCommand('dialogNotebook.toggleTools', toggleToolsCommand), ...registerLmTools(kernels));
}

/** dialoghelper in the dialogs' kernels reaches the open dialog (issue 45). */
export function registerDialoghelper(context: vscode.ExtensionContext, runner: CodeRunner): DialoghelperServer {
  const server = new DialoghelperServer(runner);
  context.subscriptions.push(server);
  return server;
}
