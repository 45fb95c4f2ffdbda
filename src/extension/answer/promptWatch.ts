// Whether an answer may still write to its prompt. A dialog closed while a reply streams, or reverted
// (its unsaved changes discarded, or reloaded because another program rewrote it on disk), must not get
// the answer's edits: an edit to a closed notebook reopens it without an editor and auto save writes it,
// and an edit after a revert brings back what the user discarded. Either stops the answer, as the stop
// button does, and nothing more is written.
// - A revert shows as a content change when VS Code reloads the file: it keeps an executing cell but
//   resets its outputs to the file's, which the answer's streamed outputs are not (they carry its mark,
//   streamingReplies.ts). It may not reload (a file read that overlapped an edit is dropped; code-server
//   1.139 reloads no notebook on Revert File, Jupyter's neither: its StoredFileWorkingCopyManager drops
//   the revert's `forceReadFromFile`, and the unchanged file reads as "not modified"): the dialog only
//   turns clean. So a dialog that turned clean without a save was reverted too. No event says so; it is
//   looked at before each write and while the stream pauses.
// - A close shows as the dialog's last tab closing: VS Code keeps a notebook that the answer keeps
//   editing open after its editor closed, so the document's close would come only when the answer ended.
//   A preview tab that another file replaced does not count (the user opened something else; the answer
//   goes on), and a streaming dialog's tab is never a preview: VS Code pins an editor once it is dirty.

import * as vscode from 'vscode';

/** How often a watched dialog's modified state is looked at between writes. */
const CLEAN_POLL_MS = 200;

export interface PromptWatch extends vscode.Disposable {
  /** Why the answer may no longer write (the dialog closed or reverted, the prompt deleted); undefined while it may. */
  readonly lost: string | undefined;
  /** Whether it was lost to a revert (or a reload from disk): the dialog stays open, showing the file's reply. */
  readonly reverted: boolean;
  /** Called before each write of the answer: notices a dialog that turned clean without a save. */
  check(): void;
}

/**
 * Watches `cell`'s dialog while `ours` says its outputs are the answer's (or the ones it found); `onLost`
 * runs once, when the answer must stop writing.
 */
export function watchPrompt(cell: vscode.NotebookCell, ours: (outputs: readonly vscode.NotebookCellOutput[]) => boolean, onLost: (why: string) => void): PromptWatch {
  const nb = cell.notebook;
  const shows = (t: vscode.Tab) => t.input instanceof vscode.TabInputNotebook && t.input.uri.toString() === nb.uri.toString();
  let lost: string | undefined;
  let reverted = false;
  /** Whether the dialog was seen modified since its last save, outside a save (which turns it clean). */
  let seenDirty = false;
  let saving = false;
  const lose = (why: string, byRevert = false) => {
    if (lost) return;
    lost = why;
    reverted = byRevert;
    onLost(why);
  };
  const subs = [
    vscode.workspace.onDidCloseNotebookDocument((d) => {
      if (d === nb) lose('the dialog was closed');
    }),
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      if (e.closed.some((t) => shows(t) && !t.isPreview) && !vscode.window.tabGroups.all.some((g) => g.tabs.some(shows))) lose('the dialog was closed');
      // A tab's modified dot comes and goes in order with the window's changes, so a revert right after
      // the dialog turned modified is not missed between two polls.
      const changed = e.changed.filter(shows);
      if (changed.length) check(changed.some((t) => t.isDirty));
    }),
    vscode.workspace.onWillSaveNotebookDocument((e) => {
      if (e.notebook === nb) [saving, seenDirty] = [true, false];
    }),
    vscode.workspace.onDidSaveNotebookDocument((d) => {
      if (d === nb) [saving, seenDirty] = [false, false];
    }),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook !== nb) return;
      if (cell.index < 0 || e.contentChanges.some((c) => c.removedCells.includes(cell))) lose('the prompt was deleted');
      else if (e.cellChanges.some((c) => c.cell === cell && c.outputs && !ours(c.outputs))) lose('the dialog was reverted or reloaded from disk', true);
    }),
  ];
  if (nb.isClosed) lose('the dialog was closed');
  const check = (dirty = nb.isDirty) => {
    if (lost || saving || nb.isClosed) return;
    if (dirty) seenDirty = true;
    else if (seenDirty) lose('the dialog was reverted', true);
  };
  const poll = setInterval(check, CLEAN_POLL_MS);
  return {
    get reverted() {
      return reverted;
    },
    get lost() {
      return lost ?? (nb.isClosed ? 'the dialog was closed' : cell.index < 0 ? 'the prompt was deleted' : undefined);
    },
    check,
    dispose: () => {
      clearInterval(poll);
      subs.forEach((s) => s.dispose());
    },
  };
}
