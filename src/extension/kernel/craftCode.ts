// The code cells of a dialog's CRAFT files run in its kernel when the kernel starts (and after a
// restart), before any cell of the dialog, so its prompts may name what they define (``$`var` ``,
// ``&`fn` ``). Only in a trusted workspace (no kernel starts in another). A cell that raises is said
// in the log and a notification; the dialog's own cells run all the same.

import * as vscode from 'vscode';
import { craftFor } from '../craft/cache';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { KernelSession } from './session';

export async function runCraftCode(nb: vscode.NotebookDocument, ks: KernelSession): Promise<void> {
  if (!vscode.workspace.isTrusted) return;
  const { code } = await craftFor(nb);
  if (!code.length) return;
  const failed: string[] = [];
  for (const c of code) {
    try {
      await ks.evaluate(c.source, {});
    } catch (e) {
      failed.push(`${c.name}: ${reason(e)}`);
    }
  }
  log.info(`Ran ${code.length} CRAFT code cells in the kernel of ${vscode.workspace.asRelativePath(nb.uri, false)}${failed.length ? `, ${failed.length} failed` : ''}`);
  if (failed.length) {
    const msg = `CRAFT code failed in the dialog's kernel: ${failed.join('; ')}`;
    log.warn(msg);
    void vscode.window.showWarningMessage(msg);
  }
}
