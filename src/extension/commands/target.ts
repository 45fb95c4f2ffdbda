// What a surgery command acts on: the cell it was given (a menu passes the cell, the status bar its
// uri), else the selected cells of the active dialog editor, else its focused cell.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { focusedCell } from './focus';

/**
 * The dialog cell a command was invoked on: a NotebookCell (menus), a cell document uri (the status
 * bar), else the active cell of the active dialog editor. Cells of other notebooks (Jupyter) are never
 * returned, so no command of this extension edits them.
 */
export function resolveCell(arg?: unknown): vscode.NotebookCell | undefined {
  if (arg && typeof arg === 'object' && 'notebook' in arg && 'index' in arg) {
    const cell = arg as vscode.NotebookCell;
    return cell.notebook.notebookType === NOTEBOOK_TYPE ? cell : undefined;
  }
  const uri = typeof arg === 'string' ? vscode.Uri.parse(arg) : arg instanceof vscode.Uri ? arg : undefined;
  if (uri) {
    const key = uri.toString();
    for (const nb of vscode.workspace.notebookDocuments) {
      if (nb.notebookType !== NOTEBOOK_TYPE) continue;
      const hit = nb.getCells().find((c) => c.document.uri.toString() === key);
      if (hit) return hit;
    }
    return undefined;
  }
  const ed = vscode.window.activeNotebookEditor;
  return ed && ed.notebook.notebookType === NOTEBOOK_TYPE ? cursorCell(ed) : undefined;
}

/** The cell under the cursor of `ed`: its selection's first cell, else (after Esc emptied it) its focused cell. */
export function cursorCell(ed: vscode.NotebookEditor): vscode.NotebookCell | undefined {
  const sel = ed.selection;
  return sel && !sel.isEmpty ? ed.notebook.cellAt(sel.start) : focusedCell(ed);
}

/** The refusal of a command that needs a dialog cell and has none. */
export const NO_TARGET = 'Select a cell of a dialog first.';

export interface Target {
  nb: vscode.NotebookDocument;
  /** Selected cell indices, ascending; one for a given cell. */
  indices: number[];
  /** The cell the command centres on (the given one, else the active one). */
  focus: number;
  editor?: vscode.NotebookEditor;
}

/** The editor showing `nb`: the active one, else a visible one. */
export function editorOf(nb: vscode.NotebookDocument | undefined): vscode.NotebookEditor | undefined {
  const active = vscode.window.activeNotebookEditor;
  if (active?.notebook === nb) return active;
  return vscode.window.visibleNotebookEditors.find((e) => e.notebook === nb);
}

/** The cell indices of `ranges`, ascending. */
const indicesOf = (ranges: readonly vscode.NotebookRange[]): number[] => {
  const set = new Set<number>();
  for (const r of ranges) for (let k = r.start; k < r.end; k++) set.add(k);
  return [...set].sort((a, b) => a - b);
};

/**
 * A key must act on the focused cell unless that cell is part of a multi-selection. VS Code moves the
 * focus out of a multi-selection without changing it (ArrowUp after two cells were selected) and tells
 * an extension only the selection, so each key runs `dialogNotebook.holdSelection`, then `list.select`
 * (the focused cell becomes the selection), then its command: commandTarget takes the held selection back
 * when the focused cell is in it. Held for one command, and only briefly.
 */
let held: { ed: vscode.NotebookEditor; ranges: readonly vscode.NotebookRange[]; at: number } | undefined;

export function holdSelection(): void {
  const ed = vscode.window.activeNotebookEditor;
  held = ed ? { ed, ranges: ed.selections, at: Date.now() } : undefined;
}

/** The held multi-selection of `ed` when it holds `focus`, put back on screen with `focus` still focused. */
function heldAround(ed: vscode.NotebookEditor, focus: number): number[] | undefined {
  const h = held;
  held = undefined;
  if (!h || h.ed !== ed || Date.now() - h.at > 5000) return undefined;
  const wide = indicesOf(h.ranges);
  if (wide.length < 2 || !wide.includes(focus)) return undefined;
  // VS Code focuses the first range given: the focused cell's own range first.
  const rest = h.ranges.flatMap((r) => (r.start <= focus && focus < r.end ? [new vscode.NotebookRange(r.start, focus), new vscode.NotebookRange(focus + 1, r.end)] : [r])).filter((r) => !r.isEmpty);
  ed.selections = [new vscode.NotebookRange(focus, focus + 1), ...rest];
  return wide;
}

/** The target, or undefined when there is no dialog cell to act on. */
export function commandTarget(arg?: unknown): Target | undefined {
  const given = arg !== undefined && arg !== null ? resolveCell(arg) : undefined;
  if (given) return { nb: given.notebook, indices: [given.index], focus: given.index, editor: editorOf(given.notebook) };
  const ed = vscode.window.activeNotebookEditor;
  if (!ed || ed.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
  const indices = indicesOf(ed.selections);
  if (indices.length === 1) {
    const wide = heldAround(ed, indices[0]);
    if (wide) return { nb: ed.notebook, indices: wide, focus: indices[0], editor: ed };
  }
  if (!indices.length) {
    // Nothing selected (after Esc): the focused cell, as the status bar's "Cell k of n" shows it.
    const cell = focusedCell(ed);
    return { nb: ed.notebook, indices: cell ? [cell.index] : [], focus: cell?.index ?? -1, editor: ed };
  }
  const focus = ed.selection.isEmpty ? indices[0] : ed.selection.start;
  return { nb: ed.notebook, indices, focus, editor: ed };
}

/** The active dialog editor's notebook (for commands that act on the whole dialog). */
export function activeDialog(arg?: unknown): vscode.NotebookDocument | undefined {
  if (arg instanceof vscode.Uri) return vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === arg.toString() && n.notebookType === NOTEBOOK_TYPE);
  const t = commandTarget(arg);
  if (t) return t.nb;
  return dialogEditor()?.notebook;
}

/** The active notebook editor when it shows a dialog; with no active one, a visible dialog editor. */
export function dialogEditor(): vscode.NotebookEditor | undefined {
  const ed = vscode.window.activeNotebookEditor ?? vscode.window.visibleNotebookEditors.find((e) => e.notebook.notebookType === NOTEBOOK_TYPE);
  return ed?.notebook.notebookType === NOTEBOOK_TYPE ? ed : undefined;
}

/** Calls `update` whenever the shown dialog (dialogEditor) or its metadata may have changed. */
export function onShownDialogChange(update: () => void): vscode.Disposable[] {
  return [
    vscode.window.onDidChangeActiveNotebookEditor(() => update()),
    vscode.window.onDidChangeVisibleNotebookEditors(() => update()),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.metadata && e.notebook === dialogEditor()?.notebook) update();
    }),
  ];
}

/** Selects and reveals cells [start, end) in the notebook's editor. */
export function selectCells(nb: vscode.NotebookDocument, start: number, end = start + 1): void {
  const ed = editorOf(nb);
  if (!ed || start < 0 || start >= nb.cellCount) return;
  const range = new vscode.NotebookRange(start, Math.min(end, nb.cellCount));
  ed.selections = [range];
  ed.revealRange(range, vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
}

/**
 * Selects cell `index` of `nb`, focuses its editor and enters edit mode (`notebook.cell.edit`, Enter in
 * command mode): the cursor is in the cell, a note shows its source.
 */
export async function editCell(nb: vscode.NotebookDocument, index: number): Promise<void> {
  const ed = editorOf(nb);
  if (!ed || index < 0 || index >= nb.cellCount) return;
  const range = new vscode.NotebookRange(index, index + 1);
  await vscode.window.showNotebookDocument(nb, { viewColumn: ed.viewColumn, selections: [range] });
  ed.revealRange(range, vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
  await vscode.commands.executeCommand('notebook.cell.edit');
}
