// The NotebookControllers of dialogs: "Dialog" (the dialog's own kernelspec), preferred for every dialog
// so running a cell needs no kernel pick, and one per Python environment the kernel layer adds
// (`addController`: "Dialog · Python 3.11 (.venv)"). Each runs the cells it is given in that order (Run
// All: dialog order), one at a time: code cells go to the code runner, which the kernel layer plugs in
// (`setCodeRunner`; until then running code says so and changes nothing). A prompt is answered only when
// it is the one cell run (its ▶, Ctrl+Enter): Run All / Above / Below run code only and pass prompts over,
// keeping their replies, since answering again costs money and replaces the reply. Answering many prompts
// is `answerPrompts` (Dialog: Answer All Prompts…, which asks first).

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, PROMPT_LANG, cellLike, cellType } from '../document/cells';
import { setCellNote } from '../look/statusBar';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { markBusy } from '../editing/busyCells';
import type { CellRunner } from './cellRunner';
import type { PromptRunner } from './promptRunner';

export const CONTROLLER_ID = 'dialog-notebook-runner';

/** Languages code cells of dialogs are written in; the kernel layer may offer more. */
const CODE_LANGS = ['python', 'javascript', 'typescript', 'shellscript', 'r', 'julia'];

const isPrompt = (c: vscode.NotebookCell) => cellType(cellLike(c)) === 'prompt';
const isCode = (c: vscode.NotebookCell) => cellType(cellLike(c)) === 'code';

/** What a controller tells the code runner before a run of `nb`'s cells; `code`: code cells are among them. */
type BeforeRun = (nb: vscode.NotebookDocument, code: boolean) => void;

/**
 * Whether a run of the single cell `cell` is Run Above's: VS Code sends it the code-kind cells above the
 * focused one, so a lone prompt there, with no other code-kind cell above the focus, is a prompt met on
 * the way, not one the user ran (the ▶ and Ctrl+Enter focus the cell they run). Shift+Enter and
 * Alt+Enter focus the cell just below before running: a focus right below the prompt counts as its run.
 */
function runAbove(cell: vscode.NotebookCell): boolean {
  const nb = cell.notebook;
  return vscode.window.visibleNotebookEditors.some((ed) => {
    if (ed.notebook !== nb || !ed.selections.length) return false;
    const start = Math.min(...ed.selections.map((r) => r.start));
    if (start <= cell.index + 1) return false;
    for (let k = 0; k < start; k++) if (k !== cell.index && nb.cellAt(k).kind === vscode.NotebookCellKind.Code) return false;
    return true;
  });
}

export class DialogController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  private codeRunner: CellRunner | undefined;
  /** Told before "Dialog" itself runs cells, and whether code is among them (the kernel layer: run the dialog's own kernelspec). */
  beforeOwnRun: BeforeRun | undefined;
  private readonly subs: vscode.Disposable[] = [];
  /**
   * The controller of ours selected for each notebook (by uri, as VS Code keeps the pick: a closed
   * notebook is never deselected, and holding its document kept all its cells alive), with what it tells
   * the code runner before a run.
   */
  private readonly selected = new Map<string, { controller: vscode.NotebookController; beforeRun?: BeforeRun }>();

  /** `promptRunner` is public so the kernel layer can hand prompts the dialogs' kernels. */
  constructor(
    readonly promptRunner: PromptRunner,
    private readonly extensionId: string,
  ) {
    this.controller = this.createController(CONTROLLER_ID, 'Dialog', (nb, code) => this.beforeOwnRun?.(nb, code));
    this.controller.description = 'Answers prompts';
    this.controller.supportsExecutionOrder = false;
    const prefer = (nb: vscode.NotebookDocument) => {
      if (nb.notebookType === NOTEBOOK_TYPE) this.controller.updateNotebookAffinity(nb, vscode.NotebookControllerAffinity.Preferred);
    };
    vscode.workspace.notebookDocuments.forEach(prefer);
    this.subs.push(vscode.workspace.onDidOpenNotebookDocument(prefer));
  }

  private createController(id: string, label: string, beforeRun?: BeforeRun): vscode.NotebookController {
    const c = vscode.notebooks.createNotebookController(id, NOTEBOOK_TYPE, label, (cells, nb) => {
      beforeRun?.(nb, cells.some(isCode));
      return this.execute(cells, c);
    });
    // Code first: VS Code gives a cell it turns into code (or inserts into an empty dialog) the first one.
    c.supportedLanguages = [...CODE_LANGS, PROMPT_LANG];
    this.subs.push(
      c,
      c.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
        const key = notebook.uri.toString();
        if (selected) this.selected.set(key, { controller: c, beforeRun });
        else if (this.selected.get(key)?.controller === c) this.selected.delete(key);
      }),
    );
    return c;
  }

  /**
   * Another controller that answers prompts and runs code: `beforeRun` tells the code runner, before each
   * run, what this controller runs code in. Disposed by the caller.
   */
  addController(id: string, label: string, beforeRun: BeforeRun): vscode.NotebookController {
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
    const one = cells.length === 1 && isPrompt(cells[0]) && !runAbove(cells[0]);
    const passed = one ? [] : cells.filter(isPrompt);
    if (passed.length) {
      log.info(`Run: ${passed.length} prompts passed over, their replies kept (Dialog: Answer All Prompts… answers them)`);
      vscode.window.setStatusBarMessage(`$(info) Running code only: ${passed.length} prompt${passed.length === 1 ? '' : 's'} kept ${passed.length === 1 ? 'its reply' : 'their replies'}`, 8000);
    }
    const code = cells.filter(isCode);
    if (!this.codeRunner && code.length) this.noCode(code);
    await this.runQueue(controller, one ? cells : this.codeRunner ? code : []);
  }

  /**
   * Answers `prompts` of one dialog in order, each as its ▶ would (one undo step each), with the
   * controller selected for the dialog; the first that fails or is stopped, or `stop`, ends the rest.
   * Resolves to how many were answered.
   */
  async answerPrompts(prompts: readonly vscode.NotebookCell[], stop?: vscode.CancellationToken, onStart?: (k: number) => void): Promise<number> {
    const nb = prompts[0]?.notebook;
    if (!nb) return 0;
    if (!this.selected.has(nb.uri.toString())) await this.select(nb, await vscode.window.showNotebookDocument(nb));
    const { controller, beforeRun } = this.selected.get(nb.uri.toString()) ?? { controller: this.controller, beforeRun: this.beforeOwnRun };
    beforeRun?.(nb, false);
    return this.runQueue(controller, prompts.filter(isPrompt), stop, onStart);
  }

  /** A dialog never run in this window yet gets "Dialog" selected, as running a cell would; another's pick is kept. */
  private async select(nb: vscode.NotebookDocument, notebookEditor: vscode.NotebookEditor): Promise<void> {
    if (this.selected.has(nb.uri.toString())) return;
    await vscode.commands.executeCommand('notebook.selectKernel', { notebookEditor, id: CONTROLLER_ID, extension: this.extensionId, skipIfAlreadySelected: true });
  }

  /**
   * Shows `outputs` as `cell`'s outside a run (a prompt's thumbnails after a paste or an Undo): only an
   * execution can set outputs, so a short one does, with the cell's last run summary kept. False when it
   * could not: the cell is running (its run shows them), or no controller of ours is selected for a dialog
   * that is not in an editor.
   */
  async showOutputs(cell: vscode.NotebookCell, outputs: vscode.NotebookCellOutput[]): Promise<boolean> {
    const editor = vscode.window.visibleNotebookEditors.find((e) => e.notebook === cell.notebook);
    if (editor) await this.select(cell.notebook, editor);
    const controller = this.selected.get(cell.notebook.uri.toString())?.controller;
    if (!controller) return false;
    let exec: vscode.NotebookCellExecution;
    try {
      exec = controller.createNotebookCellExecution(cell);
    } catch (e) {
      log.debug(`Outputs of cell ${cell.index + 1} left to its run: ${reason(e)}`);
      return false;
    }
    const last = cell.executionSummary;
    exec.executionOrder = last?.executionOrder;
    exec.start(last?.timing?.startTime);
    await exec.replaceOutput(outputs);
    exec.end(last?.success, last?.timing?.endTime);
    return true;
  }

  /** Runs `cells` one at a time as `controller`'s; returns how many ran to the end without stopping the queue. */
  private async runQueue(controller: vscode.NotebookController, cells: readonly vscode.NotebookCell[], stop?: vscode.CancellationToken, onStart?: (k: number) => void): Promise<number> {
    // Queued up front, so the cells show as pending and a stop before their turn is honoured.
    const queue = cells.map((c) => controller.createNotebookCellExecution(c));
    // Busy until their run ends: a merge of outside changes leaves them to it.
    const idle = cells.map(markBusy);
    let stopped = false;
    let done = 0;
    for (const [k, exec] of queue.entries()) {
      if (stopped || exec.token.isCancellationRequested || stop?.isCancellationRequested) {
        exec.start(Date.now());
        exec.end(undefined, Date.now());
        continue;
      }
      onStart?.(k);
      const runner = isPrompt(exec.cell) ? this.promptRunner : this.codeRunner;
      // A runner that throws stops the queue, which must not stay pending forever.
      stopped = (await runner!.run(exec, stop).catch((e) => (log.error(`Running cell ${exec.cell.index + 1} failed: ${reason(e)}`), false))) === false;
      idle[k]();
      if (!stopped) done++;
    }
    idle.forEach((f) => f()); // the cells skipped after a stop
    return done;
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
