// The commands behind Solveit's command-mode keys that had none yet (package.json binds them when
// `dialogNotebook.keymap` is "solveit"; see docs/keyboard.md): add a message above / below, delete,
// duplicate, a note's heading level, fold / unfold a section, collapse an input / output. Each acts on
// the selected cells of the active dialog (or the cell a menu passes) and is one undo step.

import * as vscode from 'vscode';
import { truthy, withHeadingLevel } from '../../core/model';
import { copyMsgs, planDelMsgs, planPasteMsgs } from '../../core/surgery';
import { cell2msg, cellLike, notebookMeta } from '../document/cells';
import { applyMessage } from '../editing/edits';
import { foldSectionAt, toggleCollapsedAt } from '../look/folding';
import { addCell } from './cell';
import { chosen } from './clipboard';
import { CommandResult, DONE, reason, refuse } from './feedback';
import { runPlan } from './runPlan';
import { NO_TARGET, commandTarget } from './target';

/** The type of a message added by a key: code when the dialog's "Default Code" is on, else a prompt (as in Solveit). */
function newMessageType(nb: vscode.NotebookDocument): string {
  const s = notebookMeta(nb).solveit;
  return s && typeof s === 'object' && !Array.isArray(s) && truthy((s as { default_code?: unknown }).default_code) ? 'code' : 'prompt';
}

function addMessage(above: boolean, arg?: unknown): Promise<CommandResult> {
  const t = commandTarget(arg);
  if (!t) return Promise.resolve(refuse('Open a dialog to add a message to it.'));
  return addCell(newMessageType(t.nb), arg, above);
}

/** Deletes the selected messages (a folded heading: with its section). */
function deleteMessages(arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => {
    if (!t.indices.length) throw new Error(NO_TARGET);
    const plan = planDelMsgs(d, chosen(d, t));
    return { edits: plan.edits, result: [] };
  });
}

/** Copies of the selected messages (fresh ids) right below the last one; the copies are selected. */
function duplicateMessages(arg?: unknown): Promise<CommandResult> {
  return runPlan(commandTarget(arg), ({ d }, t) => {
    if (!t.indices.length) throw new Error(NO_TARGET);
    const msgs = chosen(d, t);
    return planPasteMsgs(d, copyMsgs(d, msgs), { after: msgs[msgs.length - 1] });
  });
}

/** The level a keybinding passes: `{ level: n }` or `n`. */
function levelArg(arg: unknown): number | undefined {
  if (typeof arg === 'number') return arg;
  const l = arg && typeof arg === 'object' ? (arg as { level?: unknown }).level : undefined;
  return typeof l === 'number' ? l : undefined;
}

/** Makes the selected note a heading of the given level (1–6), as Solveit's 1–6 keys do. */
async function setHeadingLevel(arg?: unknown): Promise<CommandResult> {
  let level = levelArg(arg);
  const t = commandTarget(level === undefined ? arg : undefined);
  if (!t || t.focus < 0) return refuse(NO_TARGET);
  if (level === undefined) {
    const pick = await vscode.window.showQuickPick(['1', '2', '3', '4', '5', '6'].map((l) => ({ label: `${'#'.repeat(+l)} Heading ${l}`, level: +l })), { placeHolder: 'Heading level' });
    if (!pick) return { ok: false, message: 'Cancelled.' };
    level = pick.level;
  }
  const cell = t.nb.cellAt(t.focus);
  const m = cell2msg(cellLike(cell));
  if (m.msgType !== 'note') return refuse('Only a note can be a heading: make this cell a note first (Ctrl+Shift+K).');
  try {
    m.content = withHeadingLevel(m.content, level);
  } catch (e) {
    return refuse(reason(e));
  }
  return (await applyMessage(cell, m)) ? DONE : refuse('VS Code refused the edit.');
}

async function foldSection(fold: boolean, arg?: unknown): Promise<CommandResult> {
  const t = commandTarget(arg);
  if (!t || t.focus < 0 || !t.editor) return refuse(NO_TARGET);
  const done = await foldSectionAt(t.editor, t.focus, fold);
  if (done === undefined) return refuse('This cell is in no section: sections begin at a note that is a heading (# …).');
  return done ? DONE : refuse('VS Code refused the edit.');
}

/**
 * Collapses or expands the input / output of the selected cells. A key passes `{ collapse }`, read from the
 * focused cell's real state in VS Code's view (its `notebookCellInputIsCollapsed` context key), so one press
 * acts also after VS Code's own gutter or buttons collapsed the cell; else the flags decide (toggleCollapsedAt).
 */
async function toggleCollapsed(part: 'input' | 'output', arg?: unknown): Promise<CommandResult> {
  const collapse = arg && typeof arg === 'object' && typeof (arg as { collapse?: unknown }).collapse === 'boolean' ? (arg as { collapse: boolean }).collapse : undefined;
  if (collapse !== undefined) arg = undefined;
  const t = commandTarget(arg);
  if (!t || !t.indices.length || !t.editor) return refuse(NO_TARGET);
  // Only code cells and prompts (their reply) have an output.
  const cells = part === 'input' ? t.indices : t.indices.filter((k) => t.nb.cellAt(k).kind === vscode.NotebookCellKind.Code);
  if (!cells.length) return refuse('Only code cells and prompts have an output to collapse.');
  return (await toggleCollapsedAt(t.editor, cells, part, collapse)) ? DONE : refuse('VS Code refused the edit.');
}

export function registerKeymapCommands(context: vscode.ExtensionContext): void {
  const reg = (id: string, fn: (arg?: unknown) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  reg('dialogNotebook.addMessageAbove', (arg) => addMessage(true, arg));
  reg('dialogNotebook.addMessageBelow', (arg) => addMessage(false, arg));
  reg('dialogNotebook.deleteMessages', deleteMessages);
  reg('dialogNotebook.duplicateMessages', duplicateMessages);
  reg('dialogNotebook.setHeadingLevel', setHeadingLevel);
  reg('dialogNotebook.foldSection', (arg) => foldSection(true, arg));
  reg('dialogNotebook.unfoldSection', (arg) => foldSection(false, arg));
  reg('dialogNotebook.toggleInputCollapsed', (arg) => toggleCollapsed('input', arg));
  reg('dialogNotebook.toggleOutputCollapsed', (arg) => toggleCollapsed('output', arg));
}
