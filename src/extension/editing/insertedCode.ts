// VS Code's own "+ Code" (`notebook.cell.insertCodeCellBelow/Above`, Alt+Enter, the cell toolbar) gives
// a new code cell the language of the cell it follows (`insertCell` in VS Code's
// src/vs/workbench/contrib/notebook/browser/controller/cellOperations.ts): after a prompt that is
// `dialog-prompt`, so the code the user types would go to the model. Such a cell is set to the dialog's
// code language as it appears. Only the cell's text model changes language (as the language picker's
// `setTextDocumentLanguage` does): no notebook edit, so no undo step of its own.

import * as vscode from 'vscode';
import { log } from '../log';
import { PROMPT_LANG, cellState } from '../document/cells';
import { notebookCodeLanguage } from './edits';

/**
 * A cell VS Code inserted as an empty `dialog-prompt` code cell. This extension's own prompts carry
 * their message state (`metadata.dialog`) from the start, and a pasted or split prompt has text.
 */
function insertedAsPrompt(c: vscode.NotebookCell): boolean {
  return c.kind === vscode.NotebookCellKind.Code && c.document.languageId === PROMPT_LANG && c.document.getText() === '' && !cellState(c).msgType;
}

/** Sets the VS Code-inserted code cells among `added` to the dialog's code language (a failure is logged). */
export async function fixInsertedCode(nb: vscode.NotebookDocument, added: readonly vscode.NotebookCell[]): Promise<void> {
  const cells = added.filter(insertedAsPrompt);
  if (!cells.length) return;
  const lang = notebookCodeLanguage(nb);
  for (const c of cells) {
    try {
      await vscode.languages.setTextDocumentLanguage(c.document, lang);
    } catch (e) {
      log.warn(`A new code cell stays a prompt: VS Code does not know the language "${lang}" (${e instanceof Error ? e.message : String(e)}); set dialogNotebook.defaultCodeLanguage or install the language's extension.`);
    }
  }
}
