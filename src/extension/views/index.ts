// Navigation views: the Dialog Sections tree and the prompt symbols of VS Code's Outline; a dialog's changes as
// wrapped text beside VS Code's notebook diff.

import * as vscode from 'vscode';
import { registerOutlineCache } from './outlineModel';
import { registerSectionsView } from './sections';
import { registerPromptSymbols } from './symbols';
import { registerOutlineOffer } from './outlineOffer';
import { registerChangesAsText } from './changesAsText';

export function registerViews(context: vscode.ExtensionContext): void {
  // before the views, so its change listener runs before theirs
  registerOutlineCache(context);
  const offerOutline = registerOutlineOffer(context);
  registerSectionsView(context, offerOutline);
  registerPromptSymbols(context);
  registerChangesAsText(context);
}
