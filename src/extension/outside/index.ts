// Outside changes and conflicts: other programs writing the file of an open dialog (an agent, dialoghelper,
// `dlg`, a script, git). outsideChanges.ts watches each open dialog's file and merges what changed into the
// open notebook by message (core/threeway), through the editing room's queue as one undo step; our own
// saves are told apart by content (document/ownWrites.ts). conflictNotice.ts says what a merge did, its
// conflicts first; gitHead.ts reads the dialog's version at git HEAD (find_msgs' only_chg). The commands
// that settle a conflict (Keep Mine / Theirs / Both) are in commands/conflicts.ts.

import * as vscode from 'vscode';
import { registerOutsideChanges } from './outsideChanges';

export function registerOutside(context: vscode.ExtensionContext): void {
  registerOutsideChanges(context);
}
