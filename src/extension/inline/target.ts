// Where an inline request is made: a text document that is a dialog cell, or a prompt's reply opened
// through Edit Reply. It knows the dialog, what the text is (code, note, prompt, reply) and the history
// a prompt in its place would send.

import * as vscode from 'vscode';
import { Dialog, Message } from '../../core/model';
import { InlineCell } from '../../core/answer';
import { savedDialog } from '../../core/reply';
import { NOTEBOOK_TYPE, cellLike, cellType } from '../document/cells';
import { dialogOf } from '../document/dialogCache';
import { REPLY_SCHEME, promptCell } from '../look/replyEditor';

export interface InlineTarget {
  doc: vscode.TextDocument;
  nb: vscode.NotebookDocument;
  /** The cell the text is (for a reply: its prompt). */
  cell: vscode.NotebookCell;
  what: InlineCell;
  /** The messages before the text, as a save writes them (a reply's own prompt and the reply included). */
  history(): Message[];
}

/** The dialog cell whose text `doc` is; undefined for any other document. */
function cellOfDocument(doc: vscode.TextDocument): vscode.NotebookCell | undefined {
  if (doc.uri.scheme !== 'vscode-notebook-cell') return undefined;
  const key = doc.uri.toString();
  for (const nb of vscode.workspace.notebookDocuments) {
    if (nb.notebookType !== NOTEBOOK_TYPE) continue;
    const cell = nb.getCells().find((c) => c.document.uri.toString() === key);
    if (cell) return cell;
  }
  return undefined;
}

/** The messages of `nb` before cell `end` (exclusive), imploded as a save writes them. */
function before(nb: vscode.NotebookDocument, end: number): Message[] {
  const d = dialogOf(nb);
  return savedDialog(new Dialog(d.messages.slice(0, end), d.name, d.meta)).messages;
}

/** The inline target `doc` is, or undefined when it is no dialog cell or dialog reply. */
export function inlineTarget(doc: vscode.TextDocument): InlineTarget | undefined {
  if (doc.uri.scheme === REPLY_SCHEME) {
    let cell: vscode.NotebookCell;
    try {
      cell = promptCell(doc.uri);
    } catch {
      return undefined;
    }
    return { doc, nb: cell.notebook, cell, what: { kind: 'reply' }, history: () => before(cell.notebook, cell.index + 1) };
  }
  const cell = cellOfDocument(doc);
  if (!cell) return undefined;
  const kind = cellType(cellLike(cell));
  return { doc, nb: cell.notebook, cell, what: { kind, language: kind === 'code' ? doc.languageId : undefined }, history: () => before(cell.notebook, cell.index) };
}
