// The Dialog panel's view of a notebook: the `state` message the host sends, built from the dialog
// (sections, the history the model would get for the prompt under the cursor, that prompt's reply
// as editable parts). The history is the request answering that prompt would send (answer/request.ts
// builds both), exploded replies imploded as a save would write them.

import * as vscode from 'vscode';
import { EXPLODED_REPLY_KEY, explodedMsgs } from '../../core/reply';
import { PreviewMode, promptAt } from '../../core/hist';
import { MediaOptions } from '../../core/hist';
import { replyParts } from '../../core/reply';
import { StateMessage } from '../../shared/panelProtocol';
import { aiRes, truthy } from '../../core/model';
import { cellState } from '../document/cells';
import { dialogOf } from '../document/dialogCache';
import { notebookOutline } from '../views/outlineModel';
import { reason } from '../commands/feedback';
import { craftLimits, craftPreview, modelAim, modelLimits, planRequest, requestPreview } from '../answer/request';
import { knownCraft } from '../craft/cache';

export const DEFAULT_BUDGET = 200000;

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

export function panelState(nb: vscode.NotebookDocument, selection: number, mode: PreviewMode, budget: number, media: Pick<MediaOptions, 'images' | 'files'> = {}): StateMessage {
  const state = emptyState(budget);
  state.dialog = nb.uri.path.split('/').pop() ?? nb.uri.toString();
  state.sections = notebookOutline(nb);
  const raw = dialogOf(nb);
  const selected = raw.messages[selection];
  state.selected = selected ? cellRef(nb.cellAt(selection)) : null;
  // The cursor's prompt, found before imploding (which removes exploded parts and shifts indices).
  const pk = promptAt(raw, selection < 0 ? raw.messages.length - 1 : selection);
  const prompt = pk >= 0 ? raw.messages[pk] : undefined;
  const exploded = !!prompt && (explodedMsgs(raw, prompt.id).length > 0 || prompt.extra[EXPLODED_REPLY_KEY] !== undefined);
  const ref = pk >= 0 ? cellRef(nb.cellAt(pk)) : '';
  if (!prompt) {
    state.historyError = 'This dialog has no prompt yet.';
    state.replyError = 'Select a prompt to edit its reply.';
    return state;
  }
  try {
    if (truthy(prompt.skipped)) state.historyError = 'This prompt is skipped (hidden from the AI): running it sends nothing.';
    else {
      const limits = modelLimits();
      const craft = knownCraft(nb, modelAim(limits));
      const preview = craftPreview(requestPreview(planRequest(raw, prompt.id, craftLimits(limits, craft), media), mode, limits, media), craft);
      state.history = preview;
      state.budget = Math.max(1, preview.budget);
    }
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
