// Navigation and surgery: the sections tree, prompt symbols, the Dialog panel, the palette surgery
// commands and the context keys their menus use. activate() calls registerNavigation once.

import * as vscode from 'vscode';
import { registerSectionsView } from './sectionsView';
import { registerPromptSymbols } from './promptSymbols';
import { registerPanel } from './panel';
import { registerMoveCommands } from './moveCommands';
import { registerClipboardCommands } from './clipboardCommands';
import { registerExplodeCommands } from './explodeCommands';
import { registerFindCommand } from './findCommand';
import { registerExportCommands } from './exportCommands';
import { registerValidateCommand } from './validateCommand';
import { registerContextKeys } from './contextKeys';
import { registerOutlineCache } from './outlineModel';

export function registerNavigation(context: vscode.ExtensionContext): void {
  registerContextKeys(context);
  // before the views, so its change listener runs before theirs
  registerOutlineCache(context);
  registerSectionsView(context);
  registerPromptSymbols(context);
  registerPanel(context);
  registerMoveCommands(context);
  registerClipboardCommands(context);
  registerExplodeCommands(context);
  registerFindCommand(context);
  registerExportCommands(context);
  registerValidateCommand(context);
}
