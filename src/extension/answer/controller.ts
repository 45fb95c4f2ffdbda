// The one NotebookController of dialogs ("Dialog"), preferred for every dialog so running a cell needs
// no kernel pick. It runs the cells it is given in that order (Run All: dialog order), one at a time:
// prompts are answered, code cells go to the code runner, which the kernel layer plugs in
// (`setCodeRunner`); until then running code says so and changes nothing.

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
  private readonly subs: vscode.Disposable[] = [];

  /** `promptRunner` is public so the kernel layer can hand prompts the dialogs' kernels. */
  constructor(readonly promptRunner: PromptRunner) {
    this.controller = vscode.notebooks.createNotebookController(CONTROLLER_ID, NOTEBOOK_TYPE, 'Dialog', (cells) => this.execute(cells));
    this.controller.description = 'Answers prompts';
    this.controller.supportsExecutionOrder = false;
    // Code first: VS Code gives a cell it turns into code (or inserts into an empty dialog) the first one.
    this.controller.supportedLanguages = [...CODE_LANGS, PROMPT_LANG];
    const prefer = (nb: vscode.NotebookDocument) => {
      if (nb.notebookType === NOTEBOOK_TYPE) this.controller.updateNotebookAffinity(nb, vscode.NotebookControllerAffinity.Preferred);
    };
    vscode.workspace.notebookDocuments.forEach(prefer);
    this.subs.push(this.controller, vscode.workspace.onDidOpenNotebookDocument(prefer));
  }

  /** The kernel layer's code runner (undefined: code does not run yet). */
  setCodeRunner(runner: CellRunner | undefined): void {
    this.codeRunner = runner;
    this.controller.supportsExecutionOrder = !!runner;
    this.controller.description = runner ? 'Answers prompts, runs code in Jupyter' : 'Answers prompts';
  }

  private async execute(cells: readonly vscode.NotebookCell[]): Promise<void> {
    const prompts = (c: vscode.NotebookCell) => cellType(cellLike(c)) === 'prompt';
    const runnable = cells.filter((c) => prompts(c) || (this.codeRunner && cellType(cellLike(c)) === 'code'));
    if (!this.codeRunner && cells.some((c) => cellType(cellLike(c)) === 'code')) this.noCode(cells.filter((c) => cellType(cellLike(c)) === 'code'));
    // Queued up front, so the cells show as pending and a stop before their turn is honoured.
    const queue = runnable.map((c) => this.controller.createNotebookCellExecution(c));
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
