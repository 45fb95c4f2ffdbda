// The first answer of a session loads the provider's SDK and makes its client, and the first answer of
// a dialog converts all its cells, scales its images and reads every message's history parts: a few
// hundred ms each on 2 cores. A dialog with prompts that stays shown for a moment gets that done
// beforehand, in the background, by planning its last prompt as an answer would: nothing is sent,
// nothing is written, and a window that never shows one pays nothing.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, PROMPT_LANG, cellState } from '../notebook/cells';
import { dialogOf } from '../notebook/dialogCache';
import { log } from '../log';
import { ApiKeys } from './keys';
import { answerInputs, planRequest } from './request';

/** How long a dialog is shown before the warm-up starts (one only glanced at costs nothing). */
const IDLE_MS = 3000;

export function warmUpAnswers(keys: ApiKeys): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const warm = async (nb: vscode.NotebookDocument) => {
    if (nb.isClosed) return;
    const cells = nb.getCells();
    let k = cells.length - 1;
    while (k >= 0 && cells[k].document.languageId !== PROMPT_LANG) k--;
    const id = k >= 0 && cellState(cells[k]).id;
    if (!id) return;
    try {
      const d = dialogOf(nb);
      const { model, media, limits } = await answerInputs(nb, d, keys);
      // The provider (and its client) is kept while the model, key and base URL stay: once is enough.
      await model.provider.prepare?.();
      // The plan's parts are kept per message (core/hist/partsCache.ts) for the next answer.
      if (!nb.isClosed) planRequest(d, id, limits, media);
    } catch (e) {
      log.debug(`Not ready to answer yet: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const schedule = (ed: vscode.NotebookEditor | undefined) => {
    clearTimeout(timer);
    if (ed?.notebook.notebookType === NOTEBOOK_TYPE) timer = setTimeout(() => void warm(ed.notebook), IDLE_MS);
  };
  const sub = vscode.window.onDidChangeActiveNotebookEditor(schedule);
  schedule(vscode.window.activeNotebookEditor);
  return { dispose: () => (clearTimeout(timer), sub.dispose()) };
}
