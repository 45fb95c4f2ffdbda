// Explode a prompt's reply into cells after it (tagged, see core/explode.ts) and implode them back.

import * as vscode from 'vscode';
import { planExplodeReply, planImplodeReply } from '../core/explode';
import { CommandResult } from './commandFeedback';
import { commandTarget } from './commandTarget';
import { runPlan } from './moveCommands';

export function explodeReply(arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => planExplodeReply(d, d.messages[t.focus] ?? ''));
}

/** Implodes the reply of the given prompt, or of the prompt the given exploded cell belongs to. */
export function implodeReply(arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => planImplodeReply(d, d.messages[t.focus] ?? ''));
}

export function registerExplodeCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dialogNotebook.explodeReply', explodeReply),
    vscode.commands.registerCommand('dialogNotebook.implodeReply', implodeReply),
  );
}
