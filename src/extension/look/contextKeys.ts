// Context keys listing which cells (by cell uri) each cell-title menu item applies to, so a menu shows
// "Edit Reply" only on prompts, "Explode Reply" only on prompts with a reply, "Implode Reply" on
// exploded parts, section moves on headings.

import * as vscode from 'vscode';
import { truthy } from '../../core/model';
import { headerInfo } from '../../core/model';
import { EXPLODED_KEY, EXPLODED_REPLY_KEY } from '../../core/reply';
import { NOTEBOOK_TYPE, cellLike, cellReply, cellState, cellType } from '../document/cells';

export const KEYS = {
  prompts: 'dialogNotebook.promptCells',
  explodable: 'dialogNotebook.explodableCells',
  exploded: 'dialogNotebook.explodedCells',
  headings: 'dialogNotebook.headingCells',
  hasDialog: 'dialogNotebook.hasDialog',
} as const;

/** Which lists a cell is in: bit 1 prompt, 2 explodable, 4 exploded, 8 heading. */
function cellBits(c: vscode.NotebookCell): number {
  const extra = cellState(c).extra ?? {};
  const t = cellType(cellLike(c));
  let bits = t === 'prompt' ? 1 : 0;
  if (truthy(extra[EXPLODED_KEY]) || truthy(extra[EXPLODED_REPLY_KEY])) bits |= 4;
  else if (t === 'prompt' && c.outputs.length && cellReply(c)) bits |= 2; // not an output of thumbnails only
  if (t === 'note' && headerInfo(c.document.getText())[0]) bits |= 8;
  return bits;
}

/**
 * Per cell, recomputed only when its text (version), metadata (identity) or language changed, or its
 * outputs (learnt from the change events: `cell.outputs` is a new array at every read, which on every
 * pass over 2,000 cells adds up): a keystroke in a big dialog then costs one cell's work, not every cell's text.
 */
const cached = new WeakMap<vscode.NotebookCell, { version: number; metadata: unknown; lang: string; bits: number; uri: string }>();

/** `c`'s lists, and its uri as the keys list it (kept too: `Uri.toString` of every listed cell on every pass adds up). */
function entryOf(c: vscode.NotebookCell): { bits: number; uri: string } {
  const doc = c.document;
  const hit = cached.get(c);
  if (hit && hit.version === doc.version && hit.metadata === c.metadata && hit.lang === doc.languageId) return hit;
  const entry = { version: doc.version, metadata: c.metadata, lang: doc.languageId, bits: cellBits(c), uri: hit?.uri ?? doc.uri.toString() };
  cached.set(c, entry);
  return entry;
}

function compute(): Record<string, string[] | boolean> {
  const prompts: string[] = [];
  const explodable: string[] = [];
  const exploded: string[] = [];
  const headings: string[] = [];
  const dialogs = vscode.workspace.notebookDocuments.filter((nb) => nb.notebookType === NOTEBOOK_TYPE);
  for (const nb of dialogs) {
    for (const c of nb.getCells()) {
      const { bits, uri } = entryOf(c);
      if (!bits) continue;
      if (bits & 1) prompts.push(uri);
      if (bits & 4) exploded.push(uri);
      if (bits & 2) explodable.push(uri);
      if (bits & 8) headings.push(uri);
    }
  }
  return { [KEYS.prompts]: prompts, [KEYS.explodable]: explodable, [KEYS.exploded]: exploded, [KEYS.headings]: headings };
}

/** Whether a dialog's tab is open: a dialog's document can outlive its editor (VS Code closes it later). */
const dialogShown = () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputNotebook && t.input.notebookType === NOTEBOOK_TYPE));

/** How long after a dialog's open its cells' lists are computed. */
const OPEN_SETTLE_MS = 1000;

const same = (a: string[] | boolean | undefined, b: string[] | boolean) =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;

export function registerContextKeys(context: vscode.ExtensionContext): void {
  const last = new Map<string, string[] | boolean>();
  const set = (k: string, v: string[] | boolean) => {
    if (same(last.get(k), v)) return;
    last.set(k, v);
    void vscode.commands.executeCommand('setContext', k, v);
  };
  // hasDialog costs a look at the tabs: it follows them at once, so the palette lists the dialog
  // commands as soon as a dialog shows, not when its cells' lists are made.
  const updateShown = () => set(KEYS.hasDialog, dialogShown());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = () => {
    timer = undefined;
    for (const [k, v] of Object.entries(compute())) set(k, v);
  };
  const schedule = () => {
    if (!timer) timer = setTimeout(update, 150);
  };
  // A dialog's first pass reads every cell (~150 ms at 2,000 cells): it waits until the opening settles,
  // since the lists only matter once a cell's menu shows.
  const afterOpen = () => {
    clearTimeout(timer);
    timer = setTimeout(update, OPEN_SETTLE_MS);
  };
  context.subscriptions.push(
    // A Jupyter notebook's open or close changes no list.
    vscode.workspace.onDidOpenNotebookDocument((nb) => nb.notebookType === NOTEBOOK_TYPE && afterOpen()),
    vscode.workspace.onDidCloseNotebookDocument((nb) => nb.notebookType === NOTEBOOK_TYPE && schedule()),
    vscode.window.tabGroups.onDidChangeTabs(updateShown),
    // Cells added or removed, or a changed cell now in other lists; a keystroke that changes no list costs
    // one cell's check, not a pass over every cell.
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType !== NOTEBOOK_TYPE) return;
      let moved = e.contentChanges.length > 0;
      for (const ch of e.cellChanges) {
        const was = cached.get(ch.cell)?.bits;
        if (ch.outputs) cached.delete(ch.cell);
        moved ||= was !== entryOf(ch.cell).bits;
      }
      if (moved) schedule();
    }),
    { dispose: () => timer && clearTimeout(timer) },
  );
  updateShown();
  update();
}
