// AI inside cells: ghost text at the cursor (Alt+.) and Edit with AI (Ctrl+Shift+.), both asking with
// the dialog's history up to the cell.

import * as vscode from 'vscode';
import { ApiKeys } from '../answer/keys';
import { EditWithAI } from './editWithAI';
import { GhostText } from './ghost';

export function registerInline(context: vscode.ExtensionContext): void {
  const keys = new ApiKeys(context.secrets);
  context.subscriptions.push(new GhostText(keys), new EditWithAI(keys));
}
