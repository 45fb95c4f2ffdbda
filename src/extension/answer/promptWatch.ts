// Whether an answer may still write to its prompt. A dialog closed while a reply streams, or reverted
// (its unsaved changes discarded, or reloaded because another program rewrote it on disk), must not get
// the answer's edits: an edit to a closed notebook reopens it without an editor and auto save writes it,
// and an edit after a revert brings back what the user discarded. Either stops the answer, as the stop
// button does, and nothing more is written. A revert shows only as a content change: VS Code keeps an
// executing cell but resets its outputs to the file's, which the answer's streamed outputs are not (they
// carry its mark, streamingReplies.ts).

import * as vscode from 'vscode';

export interface PromptWatch extends vscode.Disposable {
  /** Why the answer may no longer write (the dialog closed or reverted, the prompt deleted); undefined while it may. */
  readonly lost: string | undefined;
}

/**
 * Watches `cell`'s dialog while `ours` says its outputs are the answer's (or the ones it found); `onLost`
 * runs once, when the answer must stop writing.
 */
export function watchPrompt(cell: vscode.NotebookCell, ours: (outputs: readonly vscode.NotebookCellOutput[]) => boolean, onLost: (why: string) => void): PromptWatch {
  const nb = cell.notebook;
  let lost: string | undefined;
  const lose = (why: string) => {
    if (lost) return;
    lost = why;
    onLost(why);
  };
  const subs = [
    vscode.workspace.onDidCloseNotebookDocument((d) => {
      if (d === nb) lose('the dialog was closed');
    }),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook !== nb) return;
      if (cell.index < 0 || e.contentChanges.some((c) => c.removedCells.includes(cell))) lose('the prompt was deleted');
      else if (e.cellChanges.some((c) => c.cell === cell && c.outputs && !ours(c.outputs))) lose('the dialog was reverted or reloaded from disk');
    }),
  ];
  if (nb.isClosed) lose('the dialog was closed');
  return {
    get lost() {
      return lost ?? (nb.isClosed ? 'the dialog was closed' : cell.index < 0 ? 'the prompt was deleted' : undefined);
    },
    dispose: () => subs.forEach((s) => s.dispose()),
  };
}
