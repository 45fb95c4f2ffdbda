// The install offer where the error is: a code cell that stopped at `ModuleNotFoundError` for a module
// Solveit provides (dialoghelper, fastcore…) says so on its status bar, with the fix a click away, for as
// long as the error shows (the notification offering the same goes away once dismissed).

import * as vscode from 'vscode';
import { missingSolveitPackage } from '../../core/python';
import { NOTEBOOK_TYPE } from '../document/cells';
import { fromCellOutput } from '../document/outputs';
import { resolveCell } from '../commands/target';
import { refuse } from '../commands/feedback';
import type { CodeRunner } from './runner';

export const INSTALL_MISSING_COMMAND = 'dialogNotebook.installMissingPackage';

function offerItems(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem[] {
  if (cell.kind !== vscode.NotebookCellKind.Code || !cell.outputs.length) return [];
  const miss = missingSolveitPackage(cell.outputs.map(fromCellOutput));
  if (!miss) return [];
  const it = new vscode.NotebookCellStatusBarItem(`$(package) Install ${miss.pkg}`, vscode.NotebookCellStatusBarAlignment.Left);
  it.tooltip = `${miss.module} is missing: Solveit provides it, this kernel's Python lacks it. Click to install ${miss.pkg} into the kernel's Python (in a terminal you see), then run the cell again.`;
  it.priority = 300;
  it.command = { title: it.tooltip, command: INSTALL_MISSING_COMMAND, arguments: [cell.document.uri] };
  return [it];
}

export function registerPackageOffer(context: vscode.ExtensionContext, runner: CodeRunner): void {
  context.subscriptions.push(
    // VS Code asks again for a cell's items when its outputs change: the offer goes with the error.
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, { provideCellStatusBarItems: offerItems }),
    vscode.commands.registerCommand(INSTALL_MISSING_COMMAND, async (arg?: unknown) => {
      const cell = resolveCell(arg);
      if (!cell) return refuse('Select the code cell that stopped at ModuleNotFoundError first.');
      await runner.installMissing(cell);
    }),
  );
}
