// Putting right an edit of ours that another writer's edit on its way shifted. VS Code applies a notebook
// edit's indices to the notebook as it is when the edit reaches the window and checks no version (its
// extension host sends none for notebook edits): a cell the user, another extension or a door inserted or
// removed a moment before shifts ours. A metadata update then lands on the neighbour (or on the cell just
// inserted), which bears its id; a replacement takes the cells one off, removing a message nobody meant
// to touch and leaving one that was meant to go. After the edit lands, its cells are made to hold what it
// meant, beside what the other writer did.

import * as vscode from 'vscode';
import { Json, jsonEqual } from '../../core/base';
import { cellState } from '../document/cells';
import { log } from '../log';

type Metadata = { [key: string]: unknown };

/** What an edit of ours means: the cells it removes and the ids of those it inserts (as planned), the metadata it writes. */
export interface EditIntent {
  removes: ReadonlySet<vscode.NotebookCell>;
  inserts: ReadonlySet<string>;
  targets: ReadonlyMap<vscode.NotebookCell, Metadata>;
}

/** The notebook's content changes while an edit of ours was on its way, each added cell with its metadata then. */
export interface Heard {
  changes: readonly vscode.NotebookDocumentContentChange[];
  added: ReadonlyMap<vscode.NotebookCell, Metadata>;
}

/** Runs `apply` (an edit of ours) and records `nb`'s content changes meanwhile: ours arrive before VS Code answers. */
export async function hearing<T>(nb: vscode.NotebookDocument, apply: () => Thenable<T>): Promise<[T, Heard[]]> {
  const heard: Heard[] = [];
  const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
    if (e.notebook !== nb || !e.contentChanges.length) return;
    heard.push({ changes: e.contentChanges, added: new Map(e.contentChanges.flatMap((ch) => ch.addedCells.map((c) => [c, c.metadata] as const))) });
  });
  try {
    return [await apply(), heard];
  } finally {
    sub.dispose();
  }
}

/** Rounds of putting metadata right: a repair is an index edit too, which yet another edit in flight may shift. */
const ROUNDS = 5;

const idOf = (md: Metadata | undefined) => cellState({ metadata: md }).id;
const plain = (md: Metadata) => JSON.parse(JSON.stringify(md)) as Json;

/**
 * After an edit meaning `intent`, planned against `before` (each cell with its metadata then), landed while
 * `heard` happened: the cells it removed by mistake come back, the ones it was to remove and did not go,
 * and each cell bears its own metadata again.
 */
export async function repairShifted(nb: vscode.NotebookDocument, before: readonly (readonly [vscode.NotebookCell, Metadata])[], intent: EditIntent, heard: readonly Heard[]): Promise<void> {
  const name = nb.uri.path.split('/').pop();
  const ours = heard.filter((h) => isOurs(h, intent));
  if (intent.removes.size) await putCellsRight(nb, before, intent, ours, name);
  // The metadata each cell should bear: ours for our targets, a cell's own for the rest (a cell another
  // writer inserted meanwhile: as it came).
  const expected = new Map<vscode.NotebookCell, Metadata>(before.map(([c, md]) => [c, intent.targets.get(c) ?? md]));
  for (const h of heard) if (!ours.includes(h)) for (const [c, md] of h.added) expected.set(c, md);
  for (let round = 1; round <= ROUNDS && !nb.isClosed; round++) {
    // How many cells bear each id: counted only when a target's metadata differs from ours (rare; every
    // streamed reply's edit comes through here).
    let bearers: Map<string, number> | undefined;
    const bearersOf = (id: string) => {
      if (!bearers) {
        bearers = new Map();
        for (const c of nb.getCells()) {
          const cid = idOf(c.metadata);
          if (cid) bearers.set(cid, (bearers.get(cid) ?? 0) + 1);
        }
      }
      return bearers.get(id) ?? 0;
    };
    const fixes: vscode.NotebookEdit[] = [];
    for (const [cell, md] of expected) {
      const id = idOf(md);
      if (cell.index < 0 || id === undefined) continue;
      // A target whose id is right but not its metadata missed our edit when another cell bears its id too.
      const wrong = idOf(cell.metadata) !== id || (intent.targets.has(cell) && !jsonEqual(plain(cell.metadata), plain(md)) && bearersOf(id) > 1);
      if (wrong) fixes.push(vscode.NotebookEdit.updateCellMetadata(cell.index, md));
    }
    if (!fixes.length) break;
    if (!(await applyFix(nb, fixes))) {
      log.error(`${name}: another edit shifted one of ours, and VS Code refused putting ${fixes.length} cell(s) right.`);
      break;
    }
    log.warn(`${name}: another edit landed while one of ours was on its way and shifted it; ${fixes.length} cell(s) put right (round ${round}).`);
  }
}

/**
 * Whether `h` is our edit's change: as many cells removed as it plans to (the right ones or, shifted, their
 * neighbours), only cells of ours inserted, and one of them or of the planned cells among them. Not a
 * revert or a reload by VS Code, which replaces every cell with the file's.
 */
function isOurs(h: Heard, intent: EditIntent): boolean {
  const removed = h.changes.flatMap((ch) => ch.removedCells);
  const added = h.changes.flatMap((ch) => ch.addedCells);
  if (removed.length !== intent.removes.size || !added.every((c) => intent.inserts.has(idOf(c.metadata) ?? ''))) return false;
  return added.length > 0 || removed.some((c) => intent.removes.has(c));
}

/**
 * A replacement that took the wrong cells: the cells it removed that it was not to (a neighbour, or one
 * just inserted by someone else) go back beside their neighbours, and the ones it was to remove and left go.
 */
async function putCellsRight(nb: vscode.NotebookDocument, before: readonly (readonly [vscode.NotebookCell, Metadata])[], intent: EditIntent, ours: readonly Heard[], name: string | undefined): Promise<void> {
  const stayed = [...intent.removes].filter((c) => c.index >= 0);
  const lost = ours.flatMap((h) => h.changes.flatMap((ch) => ch.removedCells)).filter((c) => !intent.removes.has(c));
  if (!stayed.length && !lost.length) return;
  const order = before.map(([c]) => c);
  if (lost.length) {
    const inserts = lost.map((c) => ({ at: placeOf(nb, c, order, intent, ours), data: dataOf(c) })).sort((a, b) => b.at - a.at);
    if (!(await applyFix(nb, inserts.map((i) => vscode.NotebookEdit.insertCells(i.at, [i.data]))))) return void log.error(`${name}: another edit shifted one of ours, and VS Code refused putting back ${lost.length} cell(s) it removed.`);
  }
  const left = stayed.filter((c) => c.index >= 0).sort((a, b) => b.index - a.index);
  if (left.length && !(await applyFix(nb, left.map((c) => vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(c.index, c.index + 1)))))) return void log.error(`${name}: another edit shifted one of ours, and VS Code refused removing ${left.length} cell(s) it left.`);
  log.warn(`${name}: another edit landed while one of ours was on its way and shifted it; ${lost.length} cell(s) it removed put back, ${left.length} it left removed.`);
}

/**
 * Where a cell our edit removed by mistake goes back: just before the cells our edit put in place of the
 * run it stood above, or just after those of the run it stood below (beside its kept neighbour when the
 * run was only removed). One someone else had just inserted goes where our edit's new cells begin.
 */
function placeOf(nb: vscode.NotebookDocument, cell: vscode.NotebookCell, order: readonly vscode.NotebookCell[], intent: EditIntent, ours: readonly Heard[]): number {
  const kept = (c: vscode.NotebookCell) => c.index >= 0 && !intent.removes.has(c);
  const added = ours.flatMap((h) => h.changes.flatMap((ch) => ch.addedCells)).filter((c) => c.index >= 0 && intent.inserts.has(idOf(c.metadata) ?? ''));
  added.sort((a, b) => a.index - b.index);
  const k = order.indexOf(cell);
  if (k < 0) return added[0]?.index ?? Math.min(ours[0]?.changes[0]?.range.start ?? nb.cellCount, nb.cellCount);
  const above = order.slice(0, k).reverse().find(kept);
  const below = order.slice(k + 1).find(kept);
  const low = above?.index ?? -1;
  const high = below?.index ?? nb.cellCount;
  // The replaced run it stood beside: the nearer of the one above it and the one below.
  const back = order.slice(0, k).reverse().findIndex((c) => intent.removes.has(c));
  const up = back < 0 ? -1 : k - 1 - back;
  const down = order.findIndex((c, j) => j > k && intent.removes.has(c));
  if (down >= 0 && (up < 0 || down - k <= k - up)) {
    const first = added.find((c) => c.index > low && c.index <= high);
    return first ? first.index : low + 1;
  }
  const last = added.filter((c) => c.index >= low && c.index < high).at(-1);
  return last ? last.index + 1 : high;
}

/** A removed cell as data to insert again: its kind, text, language, metadata and outputs. */
function dataOf(c: vscode.NotebookCell): vscode.NotebookCellData {
  const data = new vscode.NotebookCellData(c.kind, c.document.getText(), c.document.languageId);
  data.metadata = c.metadata;
  data.outputs = c.outputs.map((o) => new vscode.NotebookCellOutput(o.items, o.metadata));
  if (c.executionSummary) data.executionSummary = c.executionSummary;
  return data;
}

function applyFix(nb: vscode.NotebookDocument, edits: vscode.NotebookEdit[]): Thenable<boolean> {
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, edits);
  return vscode.workspace.applyEdit(edit);
}
