// "Validate Dialog": the core's `dialogProblems`, each problem a diagnostic on its cell (the dialog's
// own on the first cell), so the Problems view lists them and a click reveals the cell.

import * as vscode from 'vscode';
import { dialogProblems } from '../../core/ipynb';
import { inform } from './feedback';
import { activeDialog } from './target';
import { dialogOf } from '../notebook/dialogCache';

const SOURCE = 'dialog';

export function registerValidateCommand(context: vscode.ExtensionContext): void {
  const diags = vscode.languages.createDiagnosticCollection('dialog');
  context.subscriptions.push(
    diags,
    vscode.commands.registerCommand('dialogNotebook.validate', (arg?: unknown) => {
      const nb = activeDialog(arg);
      if (!nb) {
        inform('Open a dialog to validate it.');
        return undefined;
      }
      for (const c of nb.getCells()) diags.delete(c.document.uri);
      const problems = dialogProblems(dialogOf(nb));
      const byCell = new Map<number, vscode.Diagnostic[]>();
      for (const p of problems) {
        const k = Math.max(0, p.index);
        if (k >= nb.cellCount) continue;
        const doc = nb.cellAt(k).document;
        const d = new vscode.Diagnostic(doc.lineAt(0).range, p.message, vscode.DiagnosticSeverity.Error);
        d.source = SOURCE;
        byCell.set(k, [...(byCell.get(k) ?? []), d]);
      }
      for (const [k, list] of byCell) diags.set(nb.cellAt(k).document.uri, list);
      inform(problems.length ? `${problems.length} problem(s) in ${nb.uri.path.split('/').pop()}: see the Problems view.` : 'No problems found.');
      if (problems.length) void vscode.commands.executeCommand('workbench.actions.view.problems');
      return problems;
    }),
  );
}
