// Dialog: Extract Code Blocks (Solveit's `w`): the fenced code blocks of the selected prompt's reply, or
// of a note, become code cells right after it, in order, as ONE undoable edit; the reply stays as it is.

import * as vscode from 'vscode';
import { Message } from '../../core/model';
import { codeBlocks, codeSources } from '../../core/reply';
import { cellLike, cellReply, cellType, msg2cell } from '../document/cells';
import { freshCellId } from '../editing/ids';
import { notebookCodeLanguage } from '../editing/edits';
import { log } from '../log';
import { CommandResult, DONE, refuse } from './feedback';
import { NO_TARGET, commandTarget, selectCells } from './target';

/** The markdown whose code blocks a cell offers: a prompt's reply, a note's text. */
function markdownOf(cell: vscode.NotebookCell): string | undefined {
  const t = cellType(cellLike(cell));
  if (t === 'prompt') return cellReply(cell);
  if (t === 'note') return cell.document.getText();
  return undefined;
}

export async function extractCode(arg?: unknown): Promise<CommandResult> {
  const t = commandTarget(arg);
  if (!t || t.focus < 0) return refuse(NO_TARGET);
  const cell = t.nb.cellAt(t.focus);
  const text = markdownOf(cell);
  if (text === undefined) return refuse('Extract Code Blocks takes the code blocks of a prompt\'s reply or of a note: select one.');
  const lang = notebookCodeLanguage(t.nb);
  const sources = codeSources(codeBlocks(text), lang);
  if (!sources.length) return refuse(`This ${cellType(cellLike(cell))} has no fenced code block (\`\`\` … \`\`\`) to extract.`);
  const taken = new Set<string>();
  const cells = sources.map((source) => {
    const id = freshCellId(t.nb, taken);
    taken.add(id);
    return msg2cell(new Message({ id, msgType: 'code', content: source }), lang);
  });
  const at = cell.index + 1;
  const edit = new vscode.WorkspaceEdit();
  edit.set(t.nb.uri, [vscode.NotebookEdit.insertCells(at, cells)]);
  if (!(await vscode.workspace.applyEdit(edit))) return refuse('VS Code refused the edit.');
  // The first new cell alone is selected and shown: a key pressed next acts on a cell the user sees.
  selectCells(t.nb, at);
  log.info(`Extract Code Blocks: ${cells.length} code cell${cells.length === 1 ? '' : 's'} added below cell ${at}`);
  return DONE;
}

export function registerExtractCommand(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand('dialogNotebook.extractCode', extractCode));
}
