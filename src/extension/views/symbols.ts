// Each prompt cell is one document symbol named by its first line, so VS Code's Outline lists prompts
// by what they ask rather than by headings inside their replies.

import * as vscode from 'vscode';
import { firstLine, firstLineOffset } from '../../core/outline';
import { PROMPT_LANG } from '../document/cells';

export function promptSymbols(doc: vscode.TextDocument): vscode.DocumentSymbol[] {
  const text = doc.getText();
  const name = firstLine(text) || '(empty prompt)';
  const line = doc.positionAt(firstLineOffset(text)).line;
  const full = new vscode.Range(0, 0, doc.lineCount - 1, doc.lineAt(doc.lineCount - 1).text.length);
  return [new vscode.DocumentSymbol(name, 'prompt', vscode.SymbolKind.String, full, doc.lineAt(line).range)];
}

export function registerPromptSymbols(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.languages.registerDocumentSymbolProvider({ language: PROMPT_LANG }, { provideDocumentSymbols: promptSymbols }, { label: 'Dialog prompts' }),
  );
}
