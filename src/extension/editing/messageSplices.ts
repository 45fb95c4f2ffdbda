// A new list of messages for an open notebook, made mostly of the messages its cells stand for (the same
// objects), as the fewest cell replacements: cells whose message stays, unchanged and in order, are not
// touched (a reply streaming into one goes on); everything between two of them is replaced at once.

import * as vscode from 'vscode';
import { Message } from '../../core/model';
import { longestIncreasing } from '../../core/threeway';
import { msg2cell } from '../document/cells';

/** A run of cells `before[b0..b1)` to become `after[a0..a1)`. */
export interface Gap {
  b0: number;
  b1: number;
  a0: number;
  a1: number;
}

/**
 * Where `before` must change to become `after`: the cells whose message stays, unchanged and in order,
 * are kept; the runs between them are the gaps. `changed`: messages of `before` changed in place.
 */
export function messageGaps(before: readonly Message[], after: readonly Message[], changed: ReadonlySet<Message>): Gap[] {
  const at = new Map<Message, number>();
  after.forEach((m, i) => at.set(m, i));
  // The cells that stay: unchanged messages of before, kept in the same order.
  const candidates: number[] = [];
  before.forEach((m, i) => {
    if (at.has(m) && !changed.has(m)) candidates.push(i);
  });
  const kept = longestIncreasing(candidates.map((i) => at.get(before[i])!));
  const anchors = candidates.filter((_, k) => kept.has(k));
  const gaps: Gap[] = [];
  let b = 0;
  let a = 0;
  for (const i of [...anchors, before.length]) {
    const j = i < before.length ? at.get(before[i])! : after.length;
    if (i > b || j > a) gaps.push({ b0: b, b1: i, a0: a, a1: j });
    b = i + 1;
    a = j + 1;
  }
  return gaps;
}

/**
 * The NotebookEdits (indices of the notebook before the edit) turning cells standing for `before` into
 * `after`. `changed`: messages of `before` changed in place, whose cells are rebuilt.
 */
export function messageSplices(before: readonly Message[], after: readonly Message[], changed: ReadonlySet<Message>, lang: string): vscode.NotebookEdit[] {
  return messageGaps(before, after, changed).flatMap((g) => replaceCells(g.b0, g.b1, after.slice(g.a0, g.a1).map((m) => msg2cell(m, lang))));
}

/**
 * Cells `from`..`to` replaced by `cells`: one edit, or two when cells are added — as many cells replaced as
 * were there, and the rest inserted after them. VS Code's notebook list moves its focus before it disposes
 * the rows it removes; one splice that both removes a shown row and moves the focused cell (the one the
 * user types in) past the list's old end makes it throw there ("Invalid index"), and the editor then shows
 * a stale dialog. Every cell replacement of a dialog goes through here.
 */
export function replaceCells(from: number, to: number, cells: vscode.NotebookCellData[]): vscode.NotebookEdit[] {
  const kept = to - from;
  if (kept === 0 || cells.length <= kept) return [vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(from, to), cells)];
  return [vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(from, to), cells.slice(0, kept)), vscode.NotebookEdit.insertCells(to, cells.slice(kept))];
}
