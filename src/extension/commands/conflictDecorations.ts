// Conflict cells marked in the editor too (beside their status bar and the Sections view): a coloured left
// border on the cell's text, and after its first line whose version it is. The other side's version takes
// the colour of a merge's incoming change, this side's the colour of the current one.

import * as vscode from 'vscode';
import { ConflictMark } from '../../core/threeway';
import { NOTEBOOK_TYPE } from '../document/cells';

/** Lists the cell documents decorated now with their side, for scripts and tests (`executeCommand` returns it). */
export const DECORATED_COMMAND = 'dialogNotebook.conflict.decorated';

const body = (side: ConflictMark['side']) =>
  vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: '0 0 0 3px',
    borderStyle: 'solid',
    borderColor: new vscode.ThemeColor(side === 'theirs' ? 'merge.incomingHeaderBackground' : 'merge.currentHeaderBackground'),
    backgroundColor: new vscode.ThemeColor(side === 'theirs' ? 'merge.incomingContentBackground' : 'merge.currentContentBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorWarning.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });

const label = (side: ConflictMark['side']) =>
  vscode.window.createTextEditorDecorationType({
    after: { contentText: side === 'theirs' ? '  conflict: theirs' : '  conflict: mine', color: new vscode.ThemeColor('editorWarning.foreground'), fontStyle: 'italic' },
  });

/** Keeps the decorations on the visible cell editors of conflict cells; `markOf` says a cell's side. */
export function registerConflictDecorations(markOf: (cell: vscode.NotebookCell) => ConflictMark | undefined): vscode.Disposable {
  const sides = ['theirs', 'ours'] as const;
  const types = { theirs: { body: body('theirs'), head: label('theirs') }, ours: { body: body('ours'), head: label('ours') } };
  let decorated = new Map<string, ConflictMark['side']>();

  const cellOf = (doc: vscode.TextDocument): vscode.NotebookCell | undefined => {
    if (doc.uri.scheme !== 'vscode-notebook-cell') return undefined;
    const nb = vscode.workspace.notebookDocuments.find((n) => n.notebookType === NOTEBOOK_TYPE && n.uri.path === doc.uri.path);
    return nb?.getCells().find((c) => c.document === doc);
  };

  const update = () => {
    const now = new Map<string, ConflictMark['side']>();
    for (const ed of vscode.window.visibleTextEditors) {
      const cell = cellOf(ed.document);
      const side = cell && markOf(cell)?.side;
      if (side) now.set(ed.document.uri.toString(), side);
      const all = new vscode.Range(0, 0, Math.max(0, ed.document.lineCount - 1), 0);
      const first = new vscode.Range(ed.document.lineAt(0).range.end, ed.document.lineAt(0).range.end);
      for (const s of sides) {
        ed.setDecorations(types[s].body, side === s ? [all] : []);
        ed.setDecorations(types[s].head, side === s ? [first] : []);
      }
    }
    decorated = now;
  };

  update();
  return vscode.Disposable.from(
    ...sides.flatMap((s) => [types[s].body, types[s].head]),
    vscode.window.onDidChangeVisibleTextEditors(update),
    vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && (e.contentChanges.length || e.cellChanges.some((c) => c.metadata)) && update()),
    vscode.commands.registerCommand(DECORATED_COMMAND, () => Object.fromEntries(decorated)),
  );
}
