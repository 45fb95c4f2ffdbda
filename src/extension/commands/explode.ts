// Explode a prompt's reply into cells after it (tagged, see core/explode.ts) and implode them back.

import * as vscode from 'vscode';
import { planExplodeReply, planImplodeReply } from '../../core/reply';
import { CommandResult } from './feedback';
import { Dialog, Message } from '../../core/model';
import { NO_TARGET, Target, commandTarget } from './target';
import { runPlan } from './runPlan';

/** The focused message; with none selected the command refuses (an empty id would match by prefix). */
function focused(d: Dialog, t: Target): Message {
  const m = d.messages[t.focus];
  if (!m) throw new Error(NO_TARGET);
  return m;
}

export function explodeReply(arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => planExplodeReply(d, focused(d, t)));
}

/** Implodes the reply of the given prompt, or of the prompt the given exploded cell belongs to. */
export function implodeReply(arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => planImplodeReply(d, focused(d, t)));
}

export function registerExplodeCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dialogNotebook.explodeReply', explodeReply),
    vscode.commands.registerCommand('dialogNotebook.implodeReply', implodeReply),
  );
}
