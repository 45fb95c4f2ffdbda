// Cells that have an owner at work on them right now: queued or running (a reply streaming into a prompt,
// code in a kernel), an open Edit with AI proposal, a dialog tool call between its plan and its edit. A merge of outside changes leaves them to their owner (outsideChanges.ts).

import * as vscode from 'vscode';

const owners = new WeakMap<vscode.NotebookCell, number>();

/** Marks `cell` busy until the returned function is called (once). */
export function markBusy(cell: vscode.NotebookCell): () => void {
  owners.set(cell, (owners.get(cell) ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const n = (owners.get(cell) ?? 1) - 1;
    if (n > 0) owners.set(cell, n);
    else owners.delete(cell);
  };
}

export function isBusy(cell: vscode.NotebookCell): boolean {
  return owners.has(cell);
}

/** Marks each of `cells` busy until the returned function is called (once). */
export function markAllBusy(cells: readonly vscode.NotebookCell[]): () => void {
  const idle = cells.map(markBusy);
  return () => idle.forEach((f) => f());
}
