// An edit the user did not make (an outside change merged in) must not take the keyboard out of the cell
// they type in. VS Code's notebook list can take the focus itself when rows above the focused cell are
// replaced; the next keys would then be single-key shortcuts on cells, not text. The cell's editor gets
// the focus and the cursor back.

import * as vscode from 'vscode';

/** Where the user types in `nb` now: a cell's document and its selections; undefined when not in a cell of it. */
export interface Typing {
  doc: vscode.TextDocument;
  selections: readonly vscode.Selection[];
  /** The document's version then: once the user typed on, their cursor is where they left it. */
  version: number;
}

export function typingIn(nb: vscode.NotebookDocument): Typing | undefined {
  const ed = vscode.window.activeTextEditor;
  if (!ed || !nb.getCells().some((c) => c.document === ed.document)) return undefined;
  return { doc: ed.document, selections: ed.selections, version: ed.document.version };
}

/** How long after the edit VS Code may still tell that the cell's editor lost the focus. */
const SETTLE_MS = 1000;

/** After an edit of `nb`: if the focus left the cell the user typed in (now or within a second), puts it back. */
export async function keepTyping(nb: vscode.NotebookDocument, was: Typing | undefined): Promise<void> {
  if (!was) return;
  if (vscode.window.activeTextEditor?.document === was.doc) {
    const moved = await new Promise<boolean>((resolve) => {
      const sub = vscode.window.onDidChangeActiveTextEditor(() => done(true));
      const timer = setTimeout(() => done(false), SETTLE_MS);
      const done = (v: boolean) => (sub.dispose(), clearTimeout(timer), resolve(v));
    });
    if (!moved || vscode.window.activeTextEditor?.document === was.doc) return;
  }
  // Only when nothing else took the focus on purpose: no other text editor is active.
  if (vscode.window.activeTextEditor) return;
  const cell = nb.getCells().find((c) => c.document === was.doc);
  const ed = vscode.window.activeNotebookEditor;
  if (!cell || ed?.notebook !== nb) return;
  ed.selections = [new vscode.NotebookRange(cell.index, cell.index + 1)];
  await vscode.commands.executeCommand('notebook.cell.edit');
  // Read again: the command moved the focus (a plain read would be narrowed to undefined above).
  const text = activeText();
  if (text?.document === was.doc && was.doc.version === was.version) text.selections = [...was.selections];
}

const activeText = (): vscode.TextEditor | undefined => vscode.window.activeTextEditor;
