// The Dialog panel's view of a notebook: the `state` message the host sends, built from the dialog
// (sections, the history the model would get for the prompt under the cursor, that prompt's reply
// as editable parts). Exploded replies are imploded first, so the history is what a save would send.

import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { Dialog } from '../../core/model';
import { EXPLODED_REPLY_KEY, explodedMsgs, implodeExploded } from '../../core/reply';
import { histPreview, PreviewMode } from '../../core/hist';
import { MediaOptions } from '../../core/hist';
import { replyParts } from '../../core/reply';
import { StateMessage } from '../../shared/panelProtocol';
import { aiRes } from '../../core/model';
import { cellState, notebookDialog } from '../notebook/cells';
import { notebookOutline } from '../views/outlineModel';
import { reason } from '../commands/feedback';

export const DEFAULT_BUDGET = 200000;

/** The prompt the panel shows for a selected cell: that prompt, else the nearest one above, else the next. */
export function promptAt(d: Dialog, index: number): number {
  const msgs = d.messages;
  for (let k = Math.min(index, msgs.length - 1); k >= 0; k--) if (msgs[k].msgType === 'prompt') return k;
  for (let k = Math.max(0, index); k < msgs.length; k++) if (msgs[k].msgType === 'prompt') return k;
  return -1;
}

/** How the panel names a cell: its message id, or `#index` for a cell without one. */
export function cellRef(cell: vscode.NotebookCell): string {
  return cellState(cell).id ?? `#${cell.index}`;
}

/** The cell a panel reference names. */
export function cellByRef(nb: vscode.NotebookDocument, ref: string): vscode.NotebookCell | undefined {
  if (ref.startsWith('#')) {
    const k = Number(ref.slice(1));
    return Number.isInteger(k) && k >= 0 && k < nb.cellCount ? nb.cellAt(k) : undefined;
  }
  return nb.getCells().find((c) => cellRef(c) === ref);
}

export function emptyState(budget: number): StateMessage {
  return { type: 'state', dialog: null, sections: [], selected: null, budget, history: null, historyError: null, reply: null, replyError: null };
}

/** Reads a dialog's relative `#ai` file refs next to it (local files only: the preview is synchronous). */
export function fileRefReader(nb: vscode.NotebookDocument): MediaOptions['readFile'] {
  if (nb.uri.scheme !== 'file') return undefined;
  const dir = vscode.Uri.joinPath(nb.uri, '..');
  return (ref) => new Uint8Array(readFileSync(vscode.Uri.joinPath(dir, ref).fsPath));
}

export function panelState(nb: vscode.NotebookDocument, selection: number, mode: PreviewMode, budget: number, media: Pick<MediaOptions, 'images' | 'readFile'> = {}): StateMessage {
  const state = emptyState(budget);
  state.dialog = nb.uri.path.split('/').pop() ?? nb.uri.toString();
  state.sections = notebookOutline(nb);
  const raw = notebookDialog(nb);
  const selected = raw.messages[selection];
  state.selected = selected ? cellRef(nb.cellAt(selection)) : null;
  // The cursor's prompt, found before imploding (which removes exploded parts and shifts indices).
  const pk = promptAt(raw, selection < 0 ? raw.messages.length - 1 : selection);
  const prompt = pk >= 0 ? raw.messages[pk] : undefined;
  const exploded = !!prompt && (explodedMsgs(raw, prompt.id).length > 0 || prompt.extra[EXPLODED_REPLY_KEY] !== undefined);
  const ref = pk >= 0 ? cellRef(nb.cellAt(pk)) : '';
  implodeExploded(raw);
  if (!prompt) {
    state.historyError = 'This dialog has no prompt yet.';
    state.replyError = 'Select a prompt to edit its reply.';
    return state;
  }
  try {
    state.history = histPreview(raw, prompt.id, mode, media);
  } catch (e) {
    state.historyError = reason(e);
  }
  if (exploded) state.replyError = 'This reply is exploded into cells: edit them, or implode it first.';
  else if (!aiRes(prompt).trim()) state.reply = { promptId: ref, parts: [] };
  else {
    try {
      state.reply = { promptId: ref, parts: replyParts(prompt) };
    } catch (e) {
      state.replyError = reason(e);
    }
  }
  return state;
}
