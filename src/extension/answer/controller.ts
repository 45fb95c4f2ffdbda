// The NotebookControllers of dialogs: "Dialog" (the dialog's own kernelspec), preferred for every dialog
// so running a cell needs no kernel pick, and one per Python environment the kernel layer adds
// (`addController`: "Dialog · Python 3.11 (.venv)"). Each runs the cells it is given in that order (Run
// All: dialog order), one at a time: prompts are answered, code cells go to the code runner, which the
// kernel layer plugs in (`setCodeRunner`); until then running code says so and changes nothing.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, PROMPT_LANG, cellLike, cellType } from '../notebook/cells';
import { setCellNote } from '../notebook/statusBar';
import { reason } from '../commands/feedback';
import { log } from '../log';
import type { PromptRunner } from './promptRunner';

export const CONTROLLER_ID = 'dialog-notebook-runner';

/**
 * Runs one cell: starts the execution the controller created for it (queued) and ends it. Resolves to
 * false when the cells queued after it must not run (a code cell failed or was stopped, as in Jupyter).
 */
export interface CellRunner {
  run(exec: vscode.NotebookCellExecution): Promise<boolean | void>;
}

/** Languages code cells of dialogs are written in; the kernel layer may offer more. */
const CODE_LANGS = ['python', 'javascript', 'typescript', 'shellscript', 'r', 'julia'];

export class DialogController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  private codeRunner: CellRunner | undefined;
  /** Told before "Dialog" itself runs cells (the kernel layer: run the dialog's own kernelspec). */
  beforeOwnRun: ((nb: vscode.NotebookDocument) => void) | undefined;
  private readonly subs: vscode.Disposable[] = [];

  /** `promptRunner` is public so the kernel layer can hand prompts the dialogs' kernels. */
  constructor(readonly promptRunner: PromptRunner) {
    this.controller = this.createController(CONTROLLER_ID, 'Dialog', (nb) => this.beforeOwnRun?.(nb));
    this.controller.description = 'Answers prompts';
    this.controller.supportsExecutionOrder = false;
    const prefer = (nb: vscode.NotebookDocument) => {
      if (nb.notebookType === NOTEBOOK_TYPE) this.controller.updateNotebookAffinity(nb, vscode.NotebookControllerAffinity.Preferred);
    };
    vscode.workspace.notebookDocuments.forEach(prefer);
    this.subs.push(this.controller, vscode.workspace.onDidOpenNotebookDocument(prefer));
  }

  private createController(id: string, label: string, beforeRun?: (nb: vscode.NotebookDocument) => void): vscode.NotebookController {
    const c = vscode.notebooks.createNotebookController(id, NOTEBOOK_TYPE, label, (cells, nb) => {
      beforeRun?.(nb);
      return this.execute(cells, c);
    });
    c.supportedLanguages = [PROMPT_LANG, ...CODE_LANGS];
    return c;
  }

  /**
   * Another controller that answers prompts and runs code: `beforeRun` tells the code runner, before each
   * run, what this controller runs code in. Disposed by the caller.
   */
  addController(id: string, label: string, beforeRun: (nb: vscode.NotebookDocument) => void): vscode.NotebookController {
    const c = this.createController(id, label, beforeRun);
    c.supportsExecutionOrder = true;
    return c;
  }

  /** The kernel layer's code runner (undefined: code does not run yet). */
  setCodeRunner(runner: CellRunner | undefined): void {
    this.codeRunner = runner;
    this.controller.supportsExecutionOrder = !!runner;
    this.controller.description = runner ? 'Answers prompts, runs code in Jupyter' : 'Answers prompts';
  }

  private async execute(cells: readonly vscode.NotebookCell[], controller: vscode.NotebookController): Promise<void> {
    const prompts = (c: vscode.NotebookCell) => cellType(cellLike(c)) === 'prompt';
    const runnable = cells.filter((c) => prompts(c) || (this.codeRunner && cellType(cellLike(c)) === 'code'));
    if (!this.codeRunner && cells.some((c) => cellType(cellLike(c)) === 'code')) this.noCode(cells.filter((c) => cellType(cellLike(c)) === 'code'));
    // Queued up front, so the cells show as pending and a stop before their turn is honoured.
    const queue = runnable.map((c) => controller.createNotebookCellExecution(c));
    let stopped = false;
    for (const exec of queue) {
      if (stopped || exec.token.isCancellationRequested) {
        exec.start(Date.now());
        exec.end(undefined, Date.now());
        continue;
      }
      const runner = prompts(exec.cell) ? this.promptRunner : this.codeRunner;
      // A runner that throws stops the queue, which must not stay pending forever.
      stopped = (await runner!.run(exec).catch((e) => (log.error(`Running cell ${exec.cell.index + 1} failed: ${reason(e)}`), false))) === false;
    }
  }

  private noCode(cells: readonly vscode.NotebookCell[]): void {
    for (const c of cells) {
      const note = new vscode.NotebookCellStatusBarItem('$(info) code does not run yet', vscode.NotebookCellStatusBarAlignment.Right);
      note.tooltip = 'Dialog Notebooks answers prompts; running code cells (a Jupyter kernel) is not available yet. The cell was not changed.';
      setCellNote(c, note);
    }
    void vscode.window.showInformationMessage('Code cells do not run yet: Dialog Notebooks answers prompts only for now. Nothing was changed.');
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
  }
}
