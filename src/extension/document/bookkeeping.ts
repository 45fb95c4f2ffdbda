// The serializer's side of the transient bookkeeping (origins.ts): VS Code hands a save (and a backup) the
// document without its transient metadata, so the storage origins of its cells and of the read are taken
// from the open notebook it is a snapshot of. Without them the file would be written canonically: the same
// content, maybe other bytes, which a save must never do to cells nobody touched.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, cellState } from './cells';
import { BOOKKEEPING, readOf } from './origins';

type Md = { [key: string]: unknown };
type CellData = { kind: vscode.NotebookCellKind; value?: string; metadata?: Md; outputs?: readonly { items: readonly { data: Uint8Array }[] }[] };

/** The message id a cell carries ('' when none). */
const idOf = (c: { metadata?: Md }) => cellState(c).id ?? '';

/** Same cell at the same position: the same id, or both id-less of the same kind. */
const samePlace = (live: vscode.NotebookCell | undefined, c: CellData) => !!live && live.kind === c.kind && idOf(live) === idOf(c);

/** The cells of `live` whose text and outputs are those of `cells` (the same size of output data). */
function sameContent(live: readonly vscode.NotebookCell[], cells: readonly CellData[]): number {
  const size = (o: CellData['outputs']) => (o ?? []).map((x) => x.items.map((i) => i.data.byteLength).join()).join();
  return cells.filter((c, i) => live[i]?.document.getText() === c.value && size(live[i].outputs) === size(c.outputs)).length;
}

/**
 * The open dialog `data` is a snapshot of: the one whose cells stand at the same places most often;
 * ties (another version of the file open beside it, as a Source Control diff shows it) are broken by
 * unsaved changes (a save or backup is of a dirty notebook), then by the cells' text and outputs. None
 * when two reads remain that differ.
 */
function sourceOf(cells: readonly CellData[]): vscode.NotebookDocument | undefined {
  let best: vscode.NotebookDocument[] = [];
  let top = 0;
  for (const nb of vscode.workspace.notebookDocuments) {
    if (nb.notebookType !== NOTEBOOK_TYPE || !readOf(nb)) continue;
    const live = nb.getCells();
    let score = 0;
    cells.forEach((c, i) => samePlace(live[i], c) && score++);
    if (live.length === cells.length) score++;
    if (score > top) [best, top] = [[nb], score];
    else if (score === top && score) best.push(nb);
  }
  if (best.length > 1 && best.some((nb) => nb.isDirty)) best = best.filter((nb) => nb.isDirty);
  if (best.length > 1) {
    const scores = best.map((nb) => sameContent(nb.getCells(), cells));
    best = best.filter((_, k) => scores[k] === Math.max(...scores));
  }
  return new Set(best.map(readOf)).size === 1 ? best[0] : undefined;
}

/** `data` with the bookkeeping of the open notebook it comes from, when VS Code left it out. */
export function withBookkeeping<D extends { cells: readonly C[]; metadata?: Md }, C extends CellData>(data: D): D {
  if (data.metadata?.[BOOKKEEPING] !== undefined) return data; // handed whole (our own calls, tests)
  const nb = sourceOf(data.cells);
  if (!nb) return data;
  const live = nb.getCells();
  const byId = new Map<string, vscode.NotebookCell | undefined>();
  for (const c of live) {
    const id = idOf(c);
    if (id) byId.set(id, byId.has(id) ? undefined : c); // a duplicated id names no cell
  }
  const cells = data.cells.map((c, i) => {
    const from = samePlace(live[i], c) ? live[i] : byId.get(idOf(c));
    const origin = from?.kind === c.kind ? from.metadata[BOOKKEEPING] : undefined;
    return origin === undefined ? c : { ...c, metadata: { ...c.metadata, [BOOKKEEPING]: origin } };
  });
  return { ...data, cells, metadata: { ...data.metadata, [BOOKKEEPING]: nb.metadata[BOOKKEEPING] } };
}
