// The storage bookkeeping of an open dialog (which read each cell came from, the file's text around the
// cells) rides in the `dialogOrigin` key of cell and notebook metadata, which the serializer declares
// transient: VS Code's diff (Source Control, Timeline) and dirty state ignore it, so they show what changed
// in the file and nothing else. VS Code also leaves it out of what it hands the serializer to save;
// bookkeeping.ts finds it again in the open notebook.
//
// The bulk of a read cell's storage origin (its exact text in the file and its state at read time, see
// core/ipynb/storage.ts) stays in this process while its dialog is open; the cell's metadata keeps only
// the small hints and which read and position it came from. VS Code copies and hashes cell metadata in
// the workbench (over the network in a browser), and the texts weigh as much as the file: carrying them
// there made opening a 232-cell, 1.5 MB dialog 1.6× slower.
//
// A read's texts are dropped when its notebook closes or is re-read (revert, change on disk). A cell whose
// text is gone (an undo past a revert) is written canonically: the same content, maybe other bytes.

import * as vscode from 'vscode';
import { Json, JsonObject, isJsonObject } from '../../core/base';
import { CellOrigin } from '../../core/model';

/** The metadata key (cell and notebook) of the storage bookkeeping, transient for VS Code. */
export const BOOKKEEPING = 'dialogOrigin';

/** What cell metadata keeps of a CellOrigin. */
export type OriginHints = Omit<CellOrigin, 'text' | 'state'>;

type Bulk = Pick<CellOrigin, 'text' | 'state'>;

/** Per read token (`origin.file`), the bulk of each cell by its index in the file. */
const reads = new Map<string, Bulk[]>();

const placed = (o: OriginHints): o is OriginHints & { file: string; index: number } =>
  typeof o.file === 'string' && typeof o.index === 'number';

/** The hints to keep in cell metadata; the bulk is kept here. */
export function originHints(o: CellOrigin): OriginHints {
  const { text, state, ...hints } = o;
  if (!placed(hints)) return o; // not from a read: nothing to find it by, it travels whole
  let bulk = reads.get(hints.file);
  if (!bulk) reads.set(hints.file, (bulk = []));
  bulk[hints.index] ??= { text, state };
  return hints;
}

/** The whole origin back from the hints in cell metadata (without text when its read was dropped). */
export function fullOrigin(h: OriginHints): CellOrigin {
  const bulk = placed(h) ? reads.get(h.file)?.[h.index] : undefined;
  return bulk ? ({ ...h, ...bulk } as CellOrigin) : (h as CellOrigin);
}

/** Reads other than the notebook's own whose cells it holds (merged in from a change on disk). */
const adopted = new WeakMap<vscode.NotebookDocument, Set<string>>();

/** Cells of the read `token` now live in `nb` too: its texts go when `nb` closes or is re-read. */
export function adoptRead(nb: vscode.NotebookDocument, token: string): void {
  let set = adopted.get(nb);
  if (!set) adopted.set(nb, (set = new Set()));
  set.add(token);
}

function dropAdopted(nb: vscode.NotebookDocument): void {
  for (const t of adopted.get(nb) ?? []) reads.delete(t);
  adopted.delete(nb);
}

/** The reads VS Code made through the serializer (opening, reloading or reverting a file), the latest kept. */
const fileReads = new Set<string>();
const FILE_READS = 1000;

/** The serializer read a file: `token` is its read. */
export function noteFileRead(token: string): void {
  fileReads.add(token);
  if (fileReads.size > FILE_READS) fileReads.delete(fileReads.values().next().value!);
}

/** Whether `token` is a read of a file by VS Code (not one of ours, made to merge a change on disk). */
export const isFileRead = (token: string | undefined): token is string => token !== undefined && fileReads.has(token);

/** The read token of an open dialog notebook (`NotebookData.metadata.dialogOrigin.file`), or of the read a cell came from. */
export function readOf(nb: { metadata: { [key: string]: unknown } }): string | undefined {
  const o = nb.metadata?.[BOOKKEEPING];
  return isJsonObject(o as Json) && typeof (o as JsonObject).file === 'string' ? ((o as JsonObject).file as string) : undefined;
}

export function registerOrigins(context: vscode.ExtensionContext): void {
  const current = new WeakMap<vscode.NotebookDocument, string>();
  const track = (nb: vscode.NotebookDocument) => {
    const now = readOf(nb);
    if (!now) return; // metadata without a read (a new dialog, or edited): its cells' texts stay
    const before = current.get(nb);
    if (before && before !== now) {
      // Re-read: the cells are the new read's.
      reads.delete(before);
      dropAdopted(nb);
    }
    current.set(nb, now);
  };
  vscode.workspace.notebookDocuments.forEach(track);
  context.subscriptions.push(
    vscode.workspace.onDidOpenNotebookDocument(track),
    vscode.workspace.onDidChangeNotebookDocument((e) => e.metadata && track(e.notebook)),
    vscode.workspace.onDidCloseNotebookDocument((nb) => {
      const f = current.get(nb) ?? readOf(nb);
      if (f) reads.delete(f);
      dropAdopted(nb);
    }),
  );
}
