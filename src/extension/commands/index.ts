// The palette and menu commands: each turns a core surgery plan into one undoable notebook edit.

import * as vscode from 'vscode';
import { registerCellCommands } from './cell';
import { registerMoveCommands } from './move';
import { registerClipboardCommands } from './clipboard';
import { registerExplodeCommands } from './explode';
import { registerFindCommand } from './find';
import { registerExportCommands } from './export';
import { registerValidateCommand } from './validate';
import { registerFocus } from './focus';
import { registerExtractCommand } from './extract';
import { registerKeymapCommands } from './keymap';
import { registerConflicts } from './conflicts';
import { holdSelection } from './target';

export function registerCommands(context: vscode.ExtensionContext): void {
  registerFocus(context);
  registerCellCommands(context);
  registerMoveCommands(context);
  registerClipboardCommands(context);
  registerExplodeCommands(context);
  registerFindCommand(context);
  registerExportCommands(context);
  registerValidateCommand(context);
  registerExtractCommand(context);
  registerKeymapCommands(context);
  registerConflicts(context);
  // Run by every single-key binding before `list.select` (see target.ts).
  context.subscriptions.push(vscode.commands.registerCommand('dialogNotebook.holdSelection', holdSelection));
}
