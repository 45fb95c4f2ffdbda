// Editing an open dialog: the one path from the core to the notebook (edits.ts: a changed Message or a
// core DialogEdit plan becomes ONE WorkspaceEdit, one undo step, made in the dialog's turn of edits), the
// fewest cell replacements for a new list of messages (messageSplices.ts), ids for new cells (ids.ts) and
// the code language for a cell VS Code's "+ Code" inserted (insertedCode.ts), the cells an owner is at
// work on (busyCells.ts), and the keyboard kept in the cell the user types in when an edit they did not
// make lands (keepTyping.ts). Every door's edit of an open notebook ends here.

import * as vscode from 'vscode';
import { registerCellIds } from './ids';

export function registerEditing(context: vscode.ExtensionContext): void {
  registerCellIds(context);
}
