// "Validate Dialog": the core's `dialogProblems`, each problem a diagnostic of its cell (the dialog's
// own of the first cell), so the Problems view lists them and a click reveals the cell in the dialog
// (problemLinks.ts says why they are not on the cells' own URIs).

import * as vscode from 'vscode';
import { dialogProblems } from '../../core/ipynb';
import { inform } from './feedback';
import { activeDialog } from './target';
import { dialogOf } from '../document/dialogCache';
import { isProblemOf, problemUri, registerProblemLinks } from './problemLinks';

const SOURCE = 'dialog';

export function registerValidateCommand(context: vscode.ExtensionContext): void {
  const diags = vscode.languages.createDiagnosticCollection('dialog');
  registerProblemLinks(context, diags);
  context.subscriptions.push(
    diags,
    vscode.commands.registerCommand('dialogNotebook.validate', (arg?: unknown) => {
      const nb = activeDialog(arg);
      if (!nb) {
        inform('Open a dialog to validate it.');
        return undefined;
      }
      const stale: vscode.Uri[] = [];
      diags.forEach((uri) => void (isProblemOf(uri, nb) && stale.push(uri)));
      for (const uri of stale) diags.delete(uri);
      const problems = dialogProblems(dialogOf(nb));
      const byCell = new Map<number, vscode.Diagnostic[]>();
      for (const p of problems) {
        const k = Math.max(0, p.index);
        if (k >= nb.cellCount) continue;
        const d = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), p.message, vscode.DiagnosticSeverity.Error);
        d.source = SOURCE;
        byCell.set(k, [...(byCell.get(k) ?? []), d]);
      }
      for (const [k, list] of byCell) diags.set(problemUri(nb.cellAt(k)), list);
      inform(problems.length ? `${problems.length} problem(s) in ${nb.uri.path.split('/').pop()}: see the Problems view.` : 'No problems found.');
      if (problems.length) void vscode.commands.executeCommand('workbench.actions.view.problems');
      return problems;
    }),
  );
}
