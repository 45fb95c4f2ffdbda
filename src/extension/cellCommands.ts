// Cell-level commands: add a prompt / note / code / raw cell, convert a cell between the four types,
// and toggle pinned / skipped / exported. Each is the core operation on the cell's message, written back
// as one undoable edit.

import * as vscode from 'vscode';
import { Dialog, MSG_TYPES, Message } from '../core/model';
import { convertMsg, setFlag } from '../core/surgeryConvert';
import { toggleExported } from '../core/directives';
import { NOTEBOOK_TYPE, cell2msg, cellLike, msg2cell } from './cells';
import { freshCellId } from './cellIds';
import { applyMessage, notebookCodeLanguage, resolveCell } from './edits';

const TITLES: Record<string, string> = { prompt: 'Prompt', note: 'Note', code: 'Code', raw: 'Raw' };

/** Inserts an empty message of type `msgType` below the selected cell (or at the end) and edits it. */
export async function addCell(msgType: string, arg?: unknown): Promise<vscode.NotebookCell | undefined> {
  const ed = vscode.window.activeNotebookEditor;
  if (!ed || ed.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
  const nb = ed.notebook;
  const at = resolveCell(arg);
  const index = at && at.notebook === nb ? at.index + 1 : ed.selection.isEmpty ? nb.cellCount : ed.selection.end;
  const m = new Message({ id: freshCellId(nb), msgType });
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(index, [msg2cell(m, notebookCodeLanguage(nb))])]);
  if (!(await vscode.workspace.applyEdit(edit))) return undefined;
  const range = new vscode.NotebookRange(index, index + 1);
  ed.selection = range;
  ed.revealRange(range);
  return nb.cellAt(index);
}

/** Converts a cell to `msgType`, keeping its text (a prompt's reply moves into the text, see convertMsg). */
export async function convertCell(msgType: string, arg?: unknown): Promise<boolean> {
  const cell = resolveCell(arg);
  if (!cell) return false;
  const m = cell2msg(cellLike(cell));
  if (m.msgType === msgType) return true;
  try {
    convertMsg(new Dialog([m]), m.id, msgType);
  } catch (e) {
    const drop = 'Convert and drop the reply';
    const ok = await vscode.window.showWarningMessage(e instanceof Error ? e.message : String(e), { modal: true }, drop);
    if (ok !== drop) return false;
    convertMsg(new Dialog([m]), m.id, msgType, { dropReply: true });
  }
  return applyMessage(cell, m);
}

async function pickType(arg?: unknown): Promise<boolean> {
  const cell = resolveCell(arg);
  if (!cell) return false;
  const current = cell2msg(cellLike(cell)).msgType;
  const pick = await vscode.window.showQuickPick(
    MSG_TYPES.filter((t) => t !== current).map((t) => ({ label: TITLES[t], type: t })),
    { placeHolder: `Convert this ${current} cell to…` },
  );
  return pick ? convertCell(pick.type, cell) : false;
}

export async function toggleFlag(flag: 'pinned' | 'skipped' | 'exported', arg?: unknown): Promise<boolean> {
  const cell = resolveCell(arg);
  if (!cell) return false;
  const m = cell2msg(cellLike(cell));
  if (flag === 'exported') toggleExported(m);
  else setFlag(new Dialog([m]), [m.id], flag);
  return applyMessage(cell, m);
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
