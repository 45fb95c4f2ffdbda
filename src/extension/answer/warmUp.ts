// The first answer of a session loads the provider's SDK and makes its client, and the first answer of
// a dialog converts all its cells, scales its images and reads every message's history parts: a few
// hundred ms each on 2 cores. A dialog with prompts that stays shown for a moment gets that done
// beforehand, in the background, by planning its last prompt as an answer would: nothing is sent,
// nothing is written, and a window that never shows one pays nothing. Once warmed, a dialog is planned
// again when it has been still for a moment after an edit, and a dialog in use right after each reply,
// for the prompt just answered: the next answer finds its request planned (request.ts keeps the last plan)
// and, when it needs nothing from the kernel, the provider's body made (providers/wire.ts).

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, PROMPT_LANG, cellState } from '../document/cells';
import { log } from '../log';

/** How long a dialog is shown before the warm-up starts (one only glanced at costs nothing). */
const SHOWN_MS = 3000;
/** How long a warmed dialog stays unchanged after an edit before it is planned again. */
const SETTLE_MS = 1000;
/** How long after a reply was written (its cell's own follow-up changes in) its prompt is planned again. */
const AFTER_REPLY_MS = 150;

export class AnswerWarmUp implements vscode.Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The dialog the timer is for, and the prompt to plan (undefined: the last one). */
  private next: { nb: vscode.NotebookDocument; id?: string; ms: number } | undefined;
  private readonly warmed = new WeakSet<vscode.NotebookDocument>();
  private readonly subs: vscode.Disposable[];

  /** `prepare`: plans a prompt's answer beforehand, sending nothing (PromptRunner.prepare). */
  constructor(private readonly prepare: (prompt: vscode.NotebookCell) => Promise<void>) {
    const shown = (ed: vscode.NotebookEditor | undefined) => (ed?.notebook.notebookType === NOTEBOOK_TYPE ? this.later({ nb: ed.notebook, ms: SHOWN_MS }) : this.cancel());
    this.subs = [
      vscode.window.onDidChangeActiveNotebookEditor(shown),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        const nb = e.notebook;
        if (this.next?.nb === nb) this.later(this.next);
        else if (this.warmed.has(nb) && vscode.window.activeNotebookEditor?.notebook === nb) this.later({ nb, ms: SETTLE_MS });
      }),
    ];
    shown(vscode.window.activeNotebookEditor);
  }

  /** A reply to prompt `id` of `nb` was written (the dialog is in use): plan it again once the dialog is still. */
  answered(nb: vscode.NotebookDocument, id: string | undefined): void {
    this.later({ nb, id, ms: AFTER_REPLY_MS });
  }

  private later(next: { nb: vscode.NotebookDocument; id?: string; ms: number }): void {
    this.cancel();
    this.next = next;
    this.timer = setTimeout(() => {
      this.next = undefined;
      void this.warm(next.nb, next.id);
    }, next.ms);
  }

  private cancel(): void {
    clearTimeout(this.timer);
    this.next = undefined;
  }

  private async warm(nb: vscode.NotebookDocument, promptId?: string): Promise<void> {
    if (nb.isClosed) return;
    const cell = promptCell(nb, promptId);
    if (!cell) return;
    try {
      await this.prepare(cell);
      this.warmed.add(nb);
    } catch (e) {
      log.debug(`Not ready to answer yet: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  dispose(): void {
    this.cancel();
    this.subs.forEach((s) => s.dispose());
  }
}

/** The prompt `id` of `nb`, else (no id) its last prompt, if any. */
function promptCell(nb: vscode.NotebookDocument, id?: string): vscode.NotebookCell | undefined {
  const cells = nb.getCells();
  if (id) return cells.find((c) => c.document.languageId === PROMPT_LANG && cellState(c).id === id);
  let k = cells.length - 1;
  while (k >= 0 && cells[k].document.languageId !== PROMPT_LANG) k--;
  return cells[k];
}
