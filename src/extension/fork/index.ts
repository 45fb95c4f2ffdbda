// Forks of a dialog (issue 11): Fork Here, the Dialog Lineage view, Compare with Parent and Overview.

import * as vscode from 'vscode';
import { ForkHereOptions, forkHere } from './forkHere';
import { LineageIndex } from './lineageIndex';
import { registerLineageView } from './lineageView';
import { registerCompare } from './compare';
import { registerOverview } from './overview';

/** Not in the palette: returns the Lineage view's provider (for tests, as the sections tree's command does). */
export const LINEAGE_TREE_COMMAND = 'dialogNotebook.lineageTree';

export function registerFork(context: vscode.ExtensionContext): void {
  const index = new LineageIndex();
  const provider = registerLineageView(context, index);
  registerCompare(context, index);
  registerOverview(context);
  context.subscriptions.push(
    index,
    vscode.commands.registerCommand('dialogNotebook.forkHere', (arg?: unknown, o?: ForkHereOptions) => forkHere(index, arg, o)),
    vscode.commands.registerCommand('dialogNotebook.forkAndRerun', (arg?: unknown, o?: ForkHereOptions) => forkHere(index, arg, { ...o, rerun: true })),
    vscode.commands.registerCommand(LINEAGE_TREE_COMMAND, () => provider),
  );
}
