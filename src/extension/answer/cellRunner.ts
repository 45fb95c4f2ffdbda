// What the dialog controller asks of whoever runs a cell: the prompt runner answers prompts, the kernel
// layer's code runner runs code. Its own file, so that the controller and the runners import it, not each other.

import type * as vscode from 'vscode';

/**
 * Runs one cell: starts the execution the controller created for it (queued) and ends it. Resolves to
 * false when the cells queued after it must not run (a cell failed or was stopped, as in Jupyter).
 */
export interface CellRunner {
  run(exec: vscode.NotebookCellExecution, stop?: vscode.CancellationToken): Promise<boolean | void>;
}
