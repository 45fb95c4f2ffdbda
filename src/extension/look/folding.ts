// Sections that stay folded (issue 31): a dialog shows what its flags say when it opens, and the flags
// follow what the user folds, as Solveit stores them (`heading_collapsed` on a heading, `hidden` inside
// a folded section, `hide_input` / `collapsed` for a cell's input / output).
//
// What VS Code's API allows, and so what this does:
// - NotebookCellData has no fold or collapse state, so the serializer cannot open a dialog folded. The
//   view is set after the editor shows the dialog, with VS Code's own commands: `notebook.fold` (takes a
//   cell index), `notebook.cell.collapseCellInput` (takes cell ranges), `notebook.cell.collapseCellOutput`
//   (acts on the selection, so the selection is set around it and put back). None of them is an edit:
//   opening writes nothing.
// - An extension is told nothing when the user folds a section, except that the editor's visible
//   ranges change: a heading followed by a gap of hidden cells is folded, a heading whose next cell is
//   visible is not. A change seen that way (never the first sight of a heading, so scrolling and the
//   folds applied at open write nothing) writes the flags, one undo step.
// - Collapsing an input or an output with VS Code's own buttons is invisible to an extension; the
//   keymap's `i` / `o` (Dialog: Toggle Input / Output Collapsed) write the flag and collapse the view.

import * as vscode from 'vscode';
import { Message, headerInfo, headerLevel, setCollapsed, setSectionFolded, truthy } from '../../core/model';
import { NOTEBOOK_TYPE, cell2msg, cellLike, cellState } from '../document/cells';
import { applyMessages } from '../editing/edits';
import { log } from '../log';

const isHeadingCell = (c: vscode.NotebookCell) => c.kind === vscode.NotebookCellKind.Markup && headerInfo(c.document.getText())[0] > 0;
const flag = (c: vscode.NotebookCell, key: string) => truthy(cellState(c).meta?.[key]);

/** Each cell's message, by index. */
export const messagesOf = (nb: vscode.NotebookDocument): Message[] => nb.getCells().map((c) => cell2msg(cellLike(c)));

/** The heading whose section holds message `index` (the message itself when it is a heading), or -1. */
export function headingOf(msgs: readonly Message[], index: number): number {
  for (let k = index; k >= 0; k--) if (headerLevel(msgs[k])) return k;
  return -1;
}

/** Writes the changed messages of `msgs` (one per cell of `nb`, by index) as ONE edit. */
function writeChanged(nb: vscode.NotebookDocument, msgs: readonly Message[], changed: readonly Message[]): Thenable<boolean> | boolean {
  if (!changed.length) return true;
  const at = new Map(msgs.map((m, k) => [m, k] as const));
  return applyMessages(nb, changed.map((m) => [nb.cellAt(at.get(m)!), m] as const));
}

/** Whether VS Code's notebook commands act on `ed` now (they take the active editor). */
const isActive = (ed: vscode.NotebookEditor | undefined): ed is vscode.NotebookEditor => !!ed && vscode.window.activeNotebookEditor === ed;

/** Folds or unfolds the view of heading `k` in `ed`, keeping the heading selected. */
async function foldView(ed: vscode.NotebookEditor, k: number, fold: boolean): Promise<void> {
  if (!isActive(ed)) return;
  await vscode.commands.executeCommand(fold ? 'notebook.fold' : 'notebook.unfold', { index: k, direction: 'down', levels: 1 });
}

/**
 * Folds (or unfolds) the section of the heading at `index` (a cell below a heading: its section):
 * writes the flags as Solveit does, one undo step, and folds the view. Undefined when there is none.
 */
export async function foldSectionAt(ed: vscode.NotebookEditor, index: number, fold: boolean): Promise<boolean | undefined> {
  const nb = ed.notebook;
  const msgs = messagesOf(nb);
  const k = headingOf(msgs, index);
  if (k < 0) return undefined;
  observed.set(nb.cellAt(k), fold);
  if (!(await writeChanged(nb, msgs, setSectionFolded(msgs, msgs[k], fold)))) return false;
  await foldView(ed, k, fold);
  const range = new vscode.NotebookRange(k, k + 1);
  ed.selections = [range];
  ed.revealRange(range, vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
  return true;
}

/** Collapses (or expands) the inputs or outputs of cells `indices` in the view of `ed`. */
async function collapseView(ed: vscode.NotebookEditor, indices: readonly number[], part: 'input' | 'output', on: boolean): Promise<void> {
  if (!isActive(ed) || !indices.length) return;
  const ranges = indices.map((k) => new vscode.NotebookRange(k, k + 1));
  if (part === 'input') {
    const cmd = on ? 'notebook.cell.collapseCellInput' : 'notebook.cell.expandCellInput';
    await vscode.commands.executeCommand(cmd, { ranges: ranges.map((r) => ({ start: r.start, end: r.end })), document: ed.notebook.uri });
    return;
  }
  // The output commands take no cells: they act on the selection.
  const kept = ed.selections;
  ed.selections = ranges;
  await vscode.commands.executeCommand(on ? 'notebook.cell.collapseCellOutput' : 'notebook.cell.expandCellOutput');
  ed.selections = kept;
}

/**
 * Toggles the collapsed input (`hide_input`) or output (`collapsed`) of cells `indices`: as `collapse`
 * says, else when any is open all are collapsed, else all opened; the flags as one edit, then the view.
 */
export async function toggleCollapsedAt(ed: vscode.NotebookEditor, indices: readonly number[], part: 'input' | 'output', collapse?: boolean): Promise<boolean> {
  const nb = ed.notebook;
  const key = part === 'input' ? 'hide_input' : 'collapsed';
  const on = collapse ?? indices.some((k) => !flag(nb.cellAt(k), key));
  const msgs = messagesOf(nb);
  const changed = indices.map((k) => msgs[k]).filter((m) => setCollapsed(m, part, on));
  if (!(await writeChanged(nb, msgs, changed))) return false;
  await collapseView(ed, indices, part, on);
  return true;
}

/**
 * Whether heading cell `k` has nothing to fold: the next cell is a heading of the same or a higher level
 * (or there is none). VS Code makes no fold of it, and `notebook.fold` on it folds the section around it.
 */
function emptySection(cells: readonly vscode.NotebookCell[], k: number): boolean {
  const next = cells[k + 1];
  return !next || (isHeadingCell(next) && headerInfo(next.document.getText())[0] <= headerInfo(cells[k].document.getText())[0]);
}

/** Folds the sections a dialog's flags say are folded. Writes nothing; the selection stays. */
async function foldAsSaved(ed: vscode.NotebookEditor): Promise<number> {
  const cells = ed.notebook.getCells();
  const folded = cells.filter((c) => isHeadingCell(c) && flag(c, 'heading_collapsed') && !emptySection(cells, c.index)).map((c) => c.index);
  const kept = ed.selections;
  // Innermost first: folding an outer section first would hide the headings inside it.
  for (const k of folded.reverse()) await foldView(ed, k, true);
  if (folded.length) ed.selections = kept;
  return folded.length;
}

/**
 * Collapses the inputs and outputs a dialog's flags say are collapsed. Only once the editor shows cells
 * (it has visible ranges): a collapse made before is lost when VS Code first renders the notebook, which
 * on a loaded machine is seconds after the editor became active. Writes nothing; the selection stays.
 */
async function collapseAsSaved(ed: vscode.NotebookEditor): Promise<[number, number]> {
  const cells = ed.notebook.getCells();
  const inputs = cells.filter((c) => flag(c, 'hide_input')).map((c) => c.index);
  const outputs = cells.filter((c) => flag(c, 'collapsed') && c.outputs.length).map((c) => c.index);
  await collapseView(ed, inputs, 'input', true);
  // By cell ranges, never through the selection: VS Code unfolds a folded section to show a selected cell
  // inside it, and the status bar would say "(18 selected)" meanwhile. The ranges command toggles, and a
  // dialog just shown has every output open.
  if (isActive(ed) && outputs.length) {
    await vscode.commands.executeCommand('notebook.cell.toggleOutputs', { ranges: outputs.map((k) => ({ start: k, end: k + 1 })), document: ed.notebook.uri });
  }
  return [inputs.length, outputs.length];
}

/** The fold state of each heading as last seen in an editor's visible ranges. */
const observed = new WeakMap<vscode.NotebookCell, boolean>();

/** The fold state of the headings `ed`'s visible ranges tell (a heading at a range's end before the viewport's end tells nothing). */
function seenFolds(ed: vscode.NotebookEditor): Map<number, boolean> {
  const nb = ed.notebook;
  const ranges = [...ed.visibleRanges].sort((a, b) => a.start - b.start);
  const seen = new Map<number, boolean>();
  ranges.forEach((r, i) => {
    const end = Math.min(r.end, nb.cellCount);
    for (let k = r.start; k < end - 1; k++) if (isHeadingCell(nb.cellAt(k))) seen.set(k, false);
    const next = ranges[i + 1];
    if (next && end > r.start && isHeadingCell(nb.cellAt(end - 1))) seen.set(end - 1, next.start > end);
  });
  return seen;
}

/** Folds and unfolds the user made since the last look write their flags, one undo step. */
async function followFolds(ed: vscode.NotebookEditor): Promise<void> {
  const nb = ed.notebook;
  const flips: [number, boolean][] = [];
  for (const [k, folded] of seenFolds(ed)) {
    const cell = nb.cellAt(k);
    const before = observed.get(cell);
    observed.set(cell, folded);
    if (before !== undefined && before !== folded && flag(cell, 'heading_collapsed') !== folded) flips.push([k, folded]);
  }
  if (!flips.length) return;
  const msgs = messagesOf(nb);
  const changed = new Set<Message>();
  for (const [k, folded] of flips) for (const m of setSectionFolded(msgs, msgs[k], folded)) changed.add(m);
  await writeChanged(nb, msgs, msgs.filter((m) => changed.has(m)));
}

export function registerFolding(context: vscode.ExtensionContext): void {
  const folded = new WeakMap<vscode.NotebookDocument, Promise<number>>();
  const collapsed = new WeakSet<vscode.NotebookDocument>();
  /** Shows a dialog as its flags say, the first time an editor shows it: folds at once, collapses once rendered. */
  const show = (ed: vscode.NotebookEditor | undefined) => {
    if (!ed || ed.notebook.notebookType !== NOTEBOOK_TYPE || !isActive(ed)) return;
    const nb = ed.notebook;
    const failed = (e: unknown) => log.warn(`could not show ${nb.uri.path} as saved: ${String(e)}`);
    if (!folded.has(nb)) folded.set(nb, foldAsSaved(ed).catch((e) => (failed(e), 0)));
    if (collapsed.has(nb) || !ed.visibleRanges.length) return;
    collapsed.add(nb);
    folded.get(nb)!.then(async (sections) => {
      const [inputs, outputs] = await collapseAsSaved(ed);
      log.info(`${nb.uri.path.split('/').pop()}: shown as saved, ${sections} folded section(s), ${inputs} collapsed input(s), ${outputs} collapsed output(s)`);
    }).catch(failed);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeActiveNotebookEditor(show),
    vscode.window.onDidChangeNotebookEditorVisibleRanges((e) => {
      if (e.notebookEditor.notebook.notebookType !== NOTEBOOK_TYPE) return;
      show(e.notebookEditor);
      followFolds(e.notebookEditor).catch((err) => log.warn(`could not keep a fold: ${String(err)}`));
    }),
  );
  show(vscode.window.activeNotebookEditor);
}
