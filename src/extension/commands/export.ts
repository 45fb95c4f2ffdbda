// Export the active dialog as Python (`dlg2py`: the exported code) or Markdown (`dlg2md`), into a new
// untitled editor beside it. Exploded replies are imploded first, as saving would.

import * as vscode from 'vscode';
import { dlg2py, exported } from '../../core/model';
import { dlg2md } from '../../core/export';
import { savedDialog } from '../../core/reply';
import { Dialog } from '../../core/model';
import { CommandResult, inform, reason, refuse } from './feedback';
import { activeDialog } from './target';
import { dialogOf } from '../document/dialogCache';

/** How to get code into the Python export, when there is none. */
export const NOTHING_EXPORTED =
  'has no exported code cell, so there is no Python to export: export a code cell first (Dialog: Toggle Exported, or the export switch in the cell status bar, adds `#| export`).';

/** Opens the export beside the dialog; with nothing to export, says so and returns the reason instead. */
async function exportAs(lang: 'python' | 'markdown', fn: (d: Dialog) => string, arg?: unknown): Promise<vscode.TextDocument | CommandResult | undefined> {
  const nb = activeDialog(arg);
  if (!nb) {
    refuse('Open a dialog to export it.');
    return undefined;
  }
  let text: string;
  try {
    const d = savedDialog(dialogOf(nb));
    if (lang === 'python' && !d.messages.some((m) => m.msgType === 'code' && exported(m))) {
      const message = `${nb.uri.path.split('/').pop()} ${NOTHING_EXPORTED}`;
      inform(message);
      return { ok: false, message };
    }
    text = fn(d);
  } catch (e) {
    refuse(`Export failed: ${reason(e)}`);
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument({ language: lang, content: text });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  return doc;
}

export function registerExportCommands(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dialogNotebook.exportPython', (arg?: unknown) => exportAs('python', dlg2py, arg)),
    vscode.commands.registerCommand('dialogNotebook.exportMarkdown', (arg?: unknown) => exportAs('markdown', dlg2md, arg)),
  );
}
