// "Validate Dialog": every message checked with the core `validateMessage`, duplicate ids and the
// dialog meta with `validateDialog`'s rules, exploded parts that no longer implode; each problem a
// diagnostic on its cell, so the Problems view lists them and a click reveals the cell.

import * as vscode from 'vscode';
import { Dialog, DialogError } from '../../core/model';
import { validateDialog, validateMessage } from '../../core/model';
import { implodeExploded } from '../../core/reply';
import { inform, reason } from './feedback';
import { activeDialog } from './target';
import { notebookDialog } from '../notebook/cells';

const SOURCE = 'dialog';

export interface Problem {
  /** Cell index, or -1 for the dialog as a whole. */
  index: number;
  message: string;
}

/** Every problem of `d`, not only the first (which is all `validateDialog` reports). */
export function dialogProblems(d: Dialog): Problem[] {
  const out: Problem[] = [];
  const seen = new Map<string, number>();
  d.messages.forEach((m, k) => {
    const first = seen.get(m.id);
    if (first !== undefined) out.push({ index: k, message: `duplicate message id ${m.id} (also cell ${first + 1})` });
    else seen.set(m.id, k);
    try {
      validateMessage(m);
    } catch (e) {
      out.push({ index: k, message: reason(e) });
    }
  });
  try {
    validateDialog(new Dialog(d.messages.filter((m, k) => seen.get(m.id) === k), d.name, d.meta));
  } catch (e) {
    if (e instanceof DialogError && !out.some((p) => p.message === e.message)) out.push({ index: -1, message: e.message });
  }
  const copy = cloneDialog(d);
  for (const p of implodeExploded(copy)) out.push({ index: -1, message: p });
  return out;
}

/** Copies to implode, so checking never touches the caller's messages. */
function cloneDialog(d: Dialog): Dialog {
  return new Dialog(d.messages.map((m) => m.clone()), d.name, d.meta);
}

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
      const problems = dialogProblems(notebookDialog(nb));
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
