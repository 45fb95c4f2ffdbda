// The first answer of a session loads the provider's SDK and makes its client: a few hundred ms on 2
// cores. A dialog with prompts that stays shown for a moment gets that done beforehand, in the
// background: nothing is sent, nothing is written, and a window that never shows one pays nothing.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, PROMPT_LANG } from '../notebook/cells';
import { log } from '../log';
import { ApiKeys } from './keys';
import { resolveModel } from './resolve';

/** How long a dialog is shown before the warm-up starts (one only glanced at costs nothing). */
const IDLE_MS = 3000;

export function warmUpAnswers(keys: ApiKeys): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const warm = async (nb: vscode.NotebookDocument) => {
    if (nb.isClosed || !nb.getCells().some((c) => c.document.languageId === PROMPT_LANG)) return;
    try {
      // The provider (and its client) is kept while the model, key and base URL stay: once is enough.
      await (await resolveModel(keys)).provider.prepare?.();
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
