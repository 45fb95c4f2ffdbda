// Cell-level commands: add a prompt / note / code / raw cell, convert cells between the four types,
// and toggle pinned / skipped / exported. Converts and toggles act on the cell they are given (cell
// menu, status bar), else on every selected cell of the active dialog editor; each is the core
// operation on the cells' messages, written back as ONE undoable edit. Without a dialog cell to act
// on, each refuses with a message and changes nothing.

import * as vscode from 'vscode';
import { Dialog, MSG_TYPES, Message, isFoldedHeading, truthy, withFoldedSections } from '../../core/model';
import { planConvertMsg, planSetFlag } from '../../core/surgery';
import { MsgEdit, applyEdit } from '../../core/surgery';
import { exported, toggleExported } from '../../core/model';
import { cell2msg, cellLike, msg2cell, notebookMeta } from '../document/cells';
import { thinkingOn, withThinking } from '../../core/answer';
import { freshCellId } from '../editing/ids';
import { CommandResult, DONE, reason, refuse } from './feedback';
import { NO_TARGET, commandTarget, editCell } from './target';
import { named } from './named';
import { applyMessages, notebookCodeLanguage } from '../editing/edits';

const TITLES: Record<string, string> = { prompt: 'Prompt', note: 'Note', code: 'Code', raw: 'Raw' };

export const NO_DIALOG = 'Open a dialog to add a cell to it.';
const REFUSED = 'VS Code refused the edit.';

/**
 * Inserts an empty message of type `msgType` below the given cell (else below the selection, else at
 * the end; `above`: above the cell or the selection, else at the start) and puts the cursor in it, as VS Code's "+ Markdown" does: typed keys go into the cell, never
 * to the single-key shortcuts of command mode. The new cell carries its id from the start: stamping it
 * afterwards (see ids.ts) would be a second undo step.
 */
export async function addCell(msgType: string, arg?: unknown, above = false): Promise<CommandResult> {
  await setAdding(true);
  try {
    return await insertAndEdit(msgType, arg, above);
  } finally {
    await setAdding(false);
  }
}

/**
 * While a new cell is on its way to the cursor, keys typed meanwhile must not reach the single-key
 * shortcuts of command mode (package.json: `!dialogNotebook.addingCell`). The key is set from here, a
 * round trip after the command began: VS Code 1.139's window has no `setContext` a keybinding could run
 * first (`runCommands` reports "command 'setContext' not found").
 */
const setAdding = (on: boolean) => vscode.commands.executeCommand('setContext', 'dialogNotebook.addingCell', on);

async function insertAndEdit(msgType: string, arg: unknown, above: boolean): Promise<CommandResult> {
  const t = commandTarget(arg);
  if (!t) return refuse(NO_DIALOG);
  const { nb } = t;
  const index = above ? (t.indices[0] ?? 0) : t.indices.length ? t.indices[t.indices.length - 1] + 1 : nb.cellCount;
  const m = new Message({ id: freshCellId(nb), msgType });
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(index, [msg2cell(m, notebookCodeLanguage(nb))])]);
  if (!(await vscode.workspace.applyEdit(edit))) return refuse(REFUSED);
  await editCell(nb, index);
  return DONE;
}

/** The cells a convert / toggle acts on, their messages, and one Dialog holding them for the core. */
interface Selected {
  nb: vscode.NotebookDocument;
  cells: vscode.NotebookCell[];
  msgs: Message[];
  d: Dialog;
  editor?: vscode.NotebookEditor;
  /** The editor's selections before the edit: replacing a cell (a type change) can drop them. */
  ranges?: readonly vscode.NotebookRange[];
}

/**
 * The given cell, else every selected cell of the active dialog editor (all selection ranges); with
 * `sections`, a folded heading brings its whole section along (Solveit's pin / hide / export).
 */
function selected(arg?: unknown, sections = false): Selected | undefined {
  const t = commandTarget(arg);
  if (!t || !t.indices.length) return undefined;
  let cells = t.indices.map((k) => t.nb.cellAt(k));
  let msgs = cells.map((c) => cell2msg(cellLike(c)));
  if (sections && msgs.some(isFoldedHeading)) {
    const all = t.nb.getCells().map((c) => cell2msg(cellLike(c)));
    const chosen = withFoldedSections(all, t.indices.map((k) => all[k]));
    cells = chosen.map((m) => t.nb.cellAt(all.indexOf(m)));
    msgs = chosen;
  }
  return { nb: t.nb, cells, msgs, d: new Dialog(msgs), editor: t.editor, ranges: t.editor?.selections };
}

/** Writes the changed messages (indices into the selection) back as ONE edit: one undo step. */
async function writeBack(s: Selected, changed: number[]): Promise<CommandResult> {
  if (!changed.length) return DONE;
  if (!(await applyMessages(s.nb, changed.map((k) => [s.cells[k], s.msgs[k]] as const)))) return refuse(REFUSED);
  if (s.editor && s.ranges) s.editor.selections = s.ranges;
  return DONE;
}

/** Performs a core plan (updates of the selection's messages) and writes the changed cells back. */
function applyPlan(s: Selected, edits: MsgEdit[]): Promise<CommandResult> {
  applyEdit(s.d, { edits, result: null });
  return writeBack(s, [...new Set(edits.flatMap((e) => (e.kind === 'update' ? [e.index] : [])))]);
}

/** Converts the cells to `msgType`, keeping their text (a prompt's reply moves into the text, see planConvertMsg). */
export async function convertCell(msgType: string, arg?: unknown): Promise<CommandResult> {
  const s = selected(arg);
  return s ? convertSelected(s, msgType) : refuse(NO_TARGET);
}

async function convertSelected(s: Selected, msgType: string): Promise<CommandResult> {
  // Every cell is planned before anything is written, so a refusal changes nothing.
  const plan = (dropReply: boolean) => s.msgs.flatMap((m) => planConvertMsg(s.d, m, msgType, { dropReply }).edits);
  let edits: MsgEdit[];
  try {
    edits = plan(false);
  } catch (e) {
    // Only prompt-with-reply -> code is refused by the core: the reply would be lost, so ask first.
    const drop = s.cells.length > 1 ? 'Convert and drop the replies' : 'Convert and drop the reply';
    const why = named(reason(e), s.d);
    if ((await vscode.window.showWarningMessage(why, { modal: true }, drop)) !== drop) return { ok: false, message: why };
    edits = plan(true);
  }
  return applyPlan(s, edits);
}

async function pickType(arg?: unknown): Promise<CommandResult> {
  const s = selected(arg);
  if (!s) return refuse(NO_TARGET);
  const types = new Set(s.msgs.map((m) => m.msgType));
  const current = types.size === 1 ? [...types][0] : undefined;
  const pick = await vscode.window.showQuickPick(
    MSG_TYPES.filter((t) => t !== current).map((t) => ({ label: TITLES[t], type: t })),
    { placeHolder: current && s.cells.length === 1 ? `Convert this ${current} cell to…` : `Convert ${s.cells.length} cells to…` },
  );
  return pick ? convertSelected(s, pick.type) : { ok: false, message: 'Cancelled.' };
}

/**
 * Toggles a flag on the cells (a folded heading: on its whole section): when any is off all are turned
 * on, else all off. `exported` applies to code cells only, in the form each cell already uses (a `#| export` line or `meta.nbdev`).
 */
export async function toggleFlag(flag: 'pinned' | 'skipped' | 'exported', arg?: unknown): Promise<CommandResult> {
  const s = selected(arg, true);
  if (!s) return refuse(NO_TARGET);
  if (flag !== 'exported') {
    const on = s.msgs.some((m) => !truthy(m[flag]));
    return applyPlan(s, planSetFlag(s.d, s.msgs, flag, on).edits);
  }
  // Only code is exported (dlg2py); a directive in a note would be noise.
  const code = s.msgs.filter((m) => m.msgType === 'code');
  if (!code.length) return refuse(s.cells.length > 1 ? 'Only code cells can be exported, and none of the selected cells is code.' : 'Only code cells can be exported.');
  const on = code.some((m) => !exported(m));
  const flip = code.filter((m) => exported(m) !== on);
  for (const m of flip) toggleExported(m);
  return writeBack(s, flip.map((m) => s.msgs.indexOf(m)));
}

/**
 * Toggles thinking on the selected prompts (the 🧠 switch): when any is off all are turned on, else all
 * off, in each cell's `use_thinking` flag (left out where the dialog's `solveit.use_thinking` agrees).
 */
export async function toggleThinking(arg?: unknown): Promise<CommandResult> {
  const s = selected(arg);
  if (!s) return refuse(NO_TARGET);
  const dialog = notebookMeta(s.nb);
  const prompts = s.msgs.filter((m) => m.msgType === 'prompt');
  if (!prompts.length) return refuse(s.cells.length > 1 ? 'Thinking is a switch of prompts, and none of the selected cells is a prompt.' : 'Thinking is a switch of prompts: this cell is not one.');
  const on = prompts.some((m) => !thinkingOn(dialog, m.meta));
  for (const m of prompts) m.setMeta(withThinking(dialog, m.meta, on));
  return writeBack(s, prompts.map((m) => s.msgs.indexOf(m)));
}

export function registerCellCommands(context: vscode.ExtensionContext): void {
  const reg = (id: string, fn: (arg?: unknown) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  for (const t of MSG_TYPES) {
    reg(`dialogNotebook.add${TITLES[t]}`, (arg) => addCell(t, arg));
    reg(`dialogNotebook.convertTo${TITLES[t]}`, (arg) => convertCell(t, arg));
  }
  reg('dialogNotebook.convertCell', pickType);
  reg('dialogNotebook.togglePinned', (arg) => toggleFlag('pinned', arg));
  reg('dialogNotebook.toggleSkipped', (arg) => toggleFlag('skipped', arg));
  reg('dialogNotebook.toggleExported', (arg) => toggleFlag('exported', arg));
  reg('dialogNotebook.toggleThinking', toggleThinking);
}
