// The focused cell of a notebook editor. VS Code's API has selections but no focus: after Esc the
// selection is empty while a cell keeps the focus (the status bar still says "Cell 19 of 305"). Focus
// moves with the selection, so the focused cell is the one selected last; it is remembered per editor.

import * as vscode from 'vscode';

const lastSelected = new WeakMap<vscode.NotebookEditor, vscode.NotebookCell>();

function remember(ed: vscode.NotebookEditor | undefined): void {
  const sel = ed?.selections.find((r) => !r.isEmpty);
  if (ed && sel && sel.start < ed.notebook.cellCount) lastSelected.set(ed, ed.notebook.cellAt(sel.start));
}

/** The cell last selected in `ed` while it is still in the notebook. */
export function focusedCell(ed: vscode.NotebookEditor): vscode.NotebookCell | undefined {
  const cell = lastSelected.get(ed);
  return cell && cell.index >= 0 && cell.notebook === ed.notebook ? cell : undefined;
}

export function registerFocus(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.window.onDidChangeNotebookEditorSelection((e) => remember(e.notebookEditor)),
    vscode.window.onDidChangeActiveNotebookEditor(remember),
  );
  remember(vscode.window.activeNotebookEditor);
}
