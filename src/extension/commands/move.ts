// Moving, splitting and merging cells through the core surgery: each command plans against a snapshot
// of the dialog, refuses with the core's reason when the plan is impossible, and applies one edit.

import * as vscode from 'vscode';
import { planMoveMsgs, planMoveSection } from '../../core/surgery';
import { planMergeMsgs, planSplitMsgAt } from '../../core/surgery';
import { cpLen } from '../../core/python';
import { CommandResult } from './feedback';
import { NO_TARGET, Target, commandTarget } from './target';
import { runPlan } from './runPlan';
import { Dialog, Message } from '../../core/model';
import { snapshotDialog } from '../editing/edits';

function needCells(t: Target): number[] {
  if (!t.indices.length) throw new Error(NO_TARGET);
  return t.indices;
}

export function moveCells(dir: 'up' | 'down', arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => {
    const ks = needCells(t);
    const ids = ks.map((k) => d.messages[k]);
    if (dir === 'up') {
      if (ks[0] === 0) throw new Error('The selection is already at the top of the dialog.');
      return planMoveMsgs(d, ids, { before: d.messages[ks[0] - 1] });
    }
    const last = ks[ks.length - 1];
    if (last >= d.messages.length - 1) throw new Error('The selection is already at the bottom of the dialog.');
    return planMoveMsgs(d, ids, { after: d.messages[last + 1] });
  });
}

export function moveSectionCmd(dir: 'up' | 'down', arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => {
    needCells(t);
    return planMoveSection(d, d.messages[t.focus], dir);
  });
}

/** The cursor offset (in code points) inside the cell's text editor, or undefined when it has none. */
function cursorOffset(cell: vscode.NotebookCell): number | undefined {
  const ed = vscode.window.visibleTextEditors.find((e) => e.document === cell.document) ?? (vscode.window.activeTextEditor?.document === cell.document ? vscode.window.activeTextEditor : undefined);
  if (!ed) return undefined;
  return cpLen(cell.document.getText().slice(0, cell.document.offsetAt(ed.selection.active)));
}

/** Splits the cell at the cursor; `pos` (code points) overrides the cursor, for callers and tests. */
export function splitCell(arg?: unknown, pos?: number): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d, nb }, t) => {
    needCells(t);
    const k = t.focus;
    const at = pos ?? cursorOffset(nb.cellAt(k));
    if (at === undefined) throw new Error('Put the cursor in the cell where it should be split.');
    return planSplitMsgAt(d, d.messages[k], at);
  });
}

/** The messages a merge takes: the selected ones, or the focused one and the next. */
function mergePicks(d: Dialog, t: Target): Message[] {
  const ks = needCells(t);
  const picked = ks.length > 1 ? ks : ks[0] + 1 < d.messages.length ? [ks[0], ks[0] + 1] : ks;
  return picked.map((k) => d.messages[k]);
}

/**
 * Merges the selected cells (or the given / active cell with the next one) into the first. Messages of
 * different types merge into a note whose text and metadata combine theirs, so that is asked first;
 * `mixed` answers the question (tests, callers that asked already).
 */
export async function mergeCells(arg?: unknown, mixed?: boolean): Promise<CommandResult> {
  const t = commandTarget(arg);
  if (t && t.indices.length && mixed !== true) {
    const types = [...new Set(mergePicks(snapshotDialog(t.nb).d, t).map((m) => m.msgType))];
    if (types.length > 1) {
      const yes = 'Merge into a Note';
      const what = `These messages are of different types (${types.join(', ')}): merged, they become one note, a prompt as "## AI Prompt / ## AI Response" text and code as a fenced block, with the metadata of all of them (the first one's winning).`;
      const ok = mixed ?? (await vscode.window.showWarningMessage(`${what} Merge them?`, { modal: true }, yes)) === yes;
      if (!ok) return { ok: false, message: `Not merged: ${what}` };
    }
  }
  return runPlan(t, ({ d }, t) => planMergeMsgs(d, mergePicks(d, t)));
}

export function registerMoveCommands(context: vscode.ExtensionContext): void {
  const reg = (id: string, fn: (arg?: unknown, ...rest: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  reg('dialogNotebook.moveUp', (arg) => moveCells('up', arg));
  reg('dialogNotebook.moveDown', (arg) => moveCells('down', arg));
  reg('dialogNotebook.moveSectionUp', (arg) => moveSectionCmd('up', arg));
  reg('dialogNotebook.moveSectionDown', (arg) => moveSectionCmd('down', arg));
  reg('dialogNotebook.splitCell', (arg, pos) => splitCell(arg, typeof pos === 'number' ? pos : undefined));
  reg('dialogNotebook.mergeCells', (arg, mixed) => mergeCells(arg, typeof mixed === 'boolean' ? mixed : undefined));
}
