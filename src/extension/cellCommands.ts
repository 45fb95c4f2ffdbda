// Cell-level commands: add a prompt / note / code / raw cell, convert a cell between the four types,
// and toggle pinned / skipped / exported. Each is the core operation on the cell's message, written back
// as ONE undoable edit; without a dialog cell to act on, each refuses with a message and changes nothing.

import * as vscode from 'vscode';
import { Dialog, MSG_TYPES, Message } from '../core/model';
import { convertMsg, setFlag } from '../core/surgeryConvert';
import { toggleExported } from '../core/directives';
import { cell2msg, cellLike, msg2cell } from './cells';
import { freshCellId } from './cellIds';
import { CommandResult, DONE, reason, refuse } from './commandFeedback';
import { commandTarget, selectCells } from './commandTarget';
import { applyMessage, notebookCodeLanguage, resolveCell } from './edits';

const TITLES: Record<string, string> = { prompt: 'Prompt', note: 'Note', code: 'Code', raw: 'Raw' };

export const NO_DIALOG = 'Open a dialog to add a cell to it.';
export const NO_CELL = 'Select a cell of a dialog first.';
const REFUSED = 'VS Code refused the edit.';

/**
 * Inserts an empty message of type `msgType` below the given cell (else below the selection, else at
 * the end) and selects it. The new cell carries its id from the start: stamping it afterwards (see
 * cellIds.ts) would be a second undo step.
 */
export async function addCell(msgType: string, arg?: unknown): Promise<CommandResult> {
  const t = commandTarget(arg);
  if (!t) return refuse(NO_DIALOG);
  const { nb } = t;
  const index = t.indices.length ? t.indices[t.indices.length - 1] + 1 : nb.cellCount;
  const m = new Message({ id: freshCellId(nb), msgType });
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(index, [msg2cell(m, notebookCodeLanguage(nb))])]);
  if (!(await vscode.workspace.applyEdit(edit))) return refuse(REFUSED);
  selectCells(nb, index);
  return DONE;
}

/** Writes the changed message back; the result for the command. */
async function writeBack(cell: vscode.NotebookCell, m: Message): Promise<CommandResult> {
  return (await applyMessage(cell, m)) ? DONE : refuse(REFUSED);
}

/** Converts a cell to `msgType`, keeping its text (a prompt's reply moves into the text, see convertMsg). */
export async function convertCell(msgType: string, arg?: unknown): Promise<CommandResult> {
  const cell = resolveCell(arg);
  if (!cell) return refuse(NO_CELL);
  const m = cell2msg(cellLike(cell));
  if (m.msgType === msgType) return DONE;
  try {
    convertMsg(new Dialog([m]), m.id, msgType);
  } catch (e) {
    // Only prompt-with-reply -> code is refused by the core: the reply would be lost, so ask first.
    const drop = 'Convert and drop the reply';
    if ((await vscode.window.showWarningMessage(reason(e), { modal: true }, drop)) !== drop) return { ok: false, message: reason(e) };
    convertMsg(new Dialog([m]), m.id, msgType, { dropReply: true });
  }
  return writeBack(cell, m);
}

async function pickType(arg?: unknown): Promise<CommandResult> {
  const cell = resolveCell(arg);
  if (!cell) return refuse(NO_CELL);
  const current = cell2msg(cellLike(cell)).msgType;
  const pick = await vscode.window.showQuickPick(
    MSG_TYPES.filter((t) => t !== current).map((t) => ({ label: TITLES[t], type: t })),
    { placeHolder: `Convert this ${current} cell to…` },
  );
  return pick ? convertCell(pick.type, cell) : { ok: false, message: 'Cancelled.' };
}

/** Toggles a flag; `exported` in the form the cell already uses (a `#| export` line or `meta.nbdev`). */
export async function toggleFlag(flag: 'pinned' | 'skipped' | 'exported', arg?: unknown): Promise<CommandResult> {
  const cell = resolveCell(arg);
  if (!cell) return refuse(NO_CELL);
  const m = cell2msg(cellLike(cell));
  if (flag === 'exported') {
    // Only code is exported (dlg2py); a directive in a note would be noise.
    if (m.msgType !== 'code') return refuse('Only code cells can be exported.');
    toggleExported(m);
  } else setFlag(new Dialog([m]), [m.id], flag);
  return writeBack(cell, m);
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
}
