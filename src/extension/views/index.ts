// Navigation views: the Dialog Sections tree and the prompt symbols of VS Code's Outline.

import * as vscode from 'vscode';
import { registerOutlineCache } from './outlineModel';
import { registerSectionsView } from './sections';
import { registerPromptSymbols } from './symbols';
import { registerOutlineOffer } from './outlineOffer';

export function registerViews(context: vscode.ExtensionContext): void {
  // before the views, so its change listener runs before theirs
  registerOutlineCache(context);
  const offerOutline = registerOutlineOffer(context);
  registerSectionsView(context, offerOutline);
  registerPromptSymbols(context);
}
