// Copy / cut / paste messages between dialogs. The payload (core surgeryClipboard: content, outputs,
// flags and attachments as base64) goes on the system clipboard as JSON and is also kept in memory,
// because a browser-hosted VS Code may deny clipboard access.

import * as vscode from 'vscode';
import { ClipboardPayload, CLIPBOARD_KIND, copyMsgs, planCutMsgs, planPasteMsgs } from '../../core/surgery';
import { CommandResult, inform, reason, refuse } from './feedback';
import { NO_TARGET, Target, commandTarget } from './target';
import { Dialog, Message, withFoldedSections } from '../../core/model';
import { named } from './named';
import { runPlan } from './runPlan';
import { snapshotDialog } from '../editing/edits';

let buffer: ClipboardPayload | undefined;

/** The target's messages; a folded heading brings its section along (as in Solveit). */
export function chosen(d: Dialog, t: Target): Message[] {
  return withFoldedSections(d.messages, t.indices.map((k) => d.messages[k]));
}

function withTimeout<T>(p: Thenable<T>, ms: number, dflt: T): Promise<T> {
  return Promise.race([Promise.resolve(p).catch(() => dflt), new Promise<T>((r) => setTimeout(() => r(dflt), ms))]);
}

export async function storeClipboard(p: ClipboardPayload): Promise<void> {
  buffer = p;
  await withTimeout(vscode.env.clipboard.writeText(JSON.stringify(p)), 1000, undefined);
}

/** The payload on the system clipboard if it holds one, else the last one copied in this window. */
export async function loadClipboard(): Promise<ClipboardPayload | undefined> {
  const text = await withTimeout(vscode.env.clipboard.readText(), 1000, '');
  if (text.includes(CLIPBOARD_KIND)) {
    try {
      const p = JSON.parse(text) as ClipboardPayload;
      if (p?.kind === CLIPBOARD_KIND) return p;
    } catch {
      // not ours after all: fall back to the buffer
    }
  }
  return buffer;
}

export async function copyMessages(arg?: unknown): Promise<CommandResult> {
  const t = commandTarget(arg);
  if (!t || !t.indices.length) return refuse(NO_TARGET);
  const { d } = snapshotDialog(t.nb);
  const msgs = chosen(d, t);
  try {
    await storeClipboard(copyMsgs(d, msgs));
  } catch (e) {
    return refuse(named(reason(e), d));
  }
  const message = `Copied ${msgs.length} message(s).`;
  inform(message);
  return { ok: true, message };
}

export async function cutMessages(arg?: unknown): Promise<CommandResult> {
  let payload: ClipboardPayload | undefined;
  const ok = await runPlan(commandTarget(arg), ({ d }, t) => {
    if (!t.indices.length) throw new Error(NO_TARGET);
    const plan = planCutMsgs(d, chosen(d, t));
    payload = plan.result;
    return { edits: plan.edits, result: [] };
  });
  if (ok.ok && payload) await storeClipboard(payload);
  return ok;
}

/** Pastes after the selected cell (or at the end of the active dialog when nothing is selected). */
export async function pasteMessages(arg?: unknown): Promise<CommandResult> {
  const payload = await loadClipboard();
  if (!payload) return refuse('Nothing to paste: copy or cut dialog messages first.');
  return runPlan(commandTarget(arg), ({ d }, t) => {
    const last = t.indices[t.indices.length - 1];
    return planPasteMsgs(d, payload, last === undefined ? {} : { after: d.messages[last] });
  });
}

export function registerClipboardCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dialogNotebook.copyMessages', copyMessages),
    vscode.commands.registerCommand('dialogNotebook.cutMessages', cutMessages),
    vscode.commands.registerCommand('dialogNotebook.pasteMessages', pasteMessages),
  );
}
