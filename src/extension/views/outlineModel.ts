// The outline items of open dialogs, cached per cell: an edit recomputes only the cells it touched,
// and the tree is rebuilt in one cheap pass. A cell's text is checked by document version and its
// metadata by identity; `cell.outputs` is a new array on every read, so output changes are learnt
// from the notebook change events instead (registerOutlineCache).

import * as vscode from 'vscode';
import { OutlineItem, OutlineNode, buildOutline, outText, outlineItem } from '../../core/outline';
import { cell2msg, cellLike, cellState } from '../document/cells';

interface Cached {
  version: number;
  metadata: unknown;
  item: OutlineItem;
}

const cache = new WeakMap<vscode.NotebookCell, Cached>();

/**
 * The item of one cell at `index`, recomputed only when the cell changed. The index is passed in:
 * `cell.index` searches the notebook's cells, so reading it for every cell would be quadratic.
 */
export function cellItem(cell: vscode.NotebookCell, index: number): OutlineItem {
  const hit = cache.get(cell);
  if (hit && hit.version === cell.document.version && hit.metadata === cell.metadata) {
    return hit.item.index === index ? hit.item : { ...hit.item, index };
  }
  const m = cell2msg(cellLike(cell));
  const hasId = typeof cellState(cell).id === 'string';
  const item = outlineItem(m, index, outText(m));
  // an id-less cell gets a random id from cell2msg; key it by position instead
  if (!hasId) item.id = `#${index}`;
  cache.set(cell, { version: cell.document.version, metadata: cell.metadata, item });
  return item;
}

export function notebookOutline(nb: vscode.NotebookDocument): OutlineNode[] {
  return buildOutline(nb.getCells().map((c, i) => cellItem(c, i)));
}

/** Forgets the items of cells whose outputs (a prompt's reply, code results) changed. */
export function registerOutlineCache(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      for (const c of e.cellChanges) if (c.outputs) cache.delete(c.cell);
    }),
  );
}

/** Every node in dialog order. */
export function flatten(roots: readonly OutlineNode[], out: OutlineNode[] = []): OutlineNode[] {
  for (const n of roots) {
    out.push(n);
    flatten(n.children, out);
  }
  return out;
}

/** The node a cell index belongs to: its own, else the nearest node before it (its section's heading). */
export function nodeAt(roots: readonly OutlineNode[], index: number): OutlineNode | undefined {
  let best: OutlineNode | undefined;
  for (const n of flatten(roots)) if (n.index <= index && (!best || n.index > best.index)) best = n;
  return best;
}
