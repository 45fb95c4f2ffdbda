// What an outside change merged into an open dialog says: the conflicts first (a long message is cut in the
// notification, and they are what needs the user), with a button to the first conflict cell.

import * as vscode from 'vscode';
import { MergeReport, describeMerge } from '../../core/threeway';
import { log } from '../log';

/** Not in the palette: selects and reveals the first conflict cell of the dialog at the uri (commands/conflicts.ts). */
export const FIRST_CONFLICT_COMMAND = 'dialogNotebook.conflict.revealFirst';
export const SHOW_CONFLICT = 'Show Conflict';

/** The notification's text: "1 conflict in NAME — both versions kept; …", else "NAME changed on disk: …". */
export function mergeNotice(name: string, report: MergeReport): string {
  const n = report.conflicts;
  if (!n) return `${name} changed on disk: ${describeMerge(report)}.`;
  const rest = describeMerge({ ...report, conflicts: 0 });
  return `${n} conflict${n === 1 ? '' : 's'} in ${name} — both versions kept; resolve on the marked cells (Keep Mine, Keep Theirs or Keep Both).${rest ? ` Also changed on disk: ${rest}.` : ''}`;
}

/** Logs and shows what a merge brought in (nothing when nothing came in). */
export function tellMerge(nb: vscode.NotebookDocument, name: string, report: MergeReport): void {
  const said = describeMerge(report);
  if (!said) return;
  log.info(`${name} changed on disk: ${said}`);
  const text = mergeNotice(name, report);
  if (!report.conflicts) return void vscode.window.showInformationMessage(text);
  void vscode.window.showWarningMessage(text, SHOW_CONFLICT).then((pick) => {
    if (pick === SHOW_CONFLICT) void vscode.commands.executeCommand(FIRST_CONFLICT_COMMAND, nb.uri.toString());
  });
}
