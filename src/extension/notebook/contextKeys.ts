// Context keys listing which cells (by cell uri) each cell-title menu item applies to, so a menu shows
// "Edit Reply" only on prompts, "Explode Reply" only on prompts with a reply, "Implode Reply" on
// exploded parts, section moves on headings.

import * as vscode from 'vscode';
import { truthy } from '../../core/model';
import { headerInfo } from '../../core/model';
import { EXPLODED_KEY, EXPLODED_REPLY_KEY } from '../../core/reply';
import { NOTEBOOK_TYPE, cellLike, cellState, cellType } from './cells';

export const KEYS = {
  prompts: 'dialogNotebook.promptCells',
  explodable: 'dialogNotebook.explodableCells',
  exploded: 'dialogNotebook.explodedCells',
  headings: 'dialogNotebook.headingCells',
  hasDialog: 'dialogNotebook.hasDialog',
} as const;

function compute(): Record<string, string[] | boolean> {
  const prompts: string[] = [];
  const explodable: string[] = [];
  const exploded: string[] = [];
  const headings: string[] = [];
  const dialogs = vscode.workspace.notebookDocuments.filter((nb) => nb.notebookType === NOTEBOOK_TYPE);
  for (const nb of dialogs) {
    for (const c of nb.getCells()) {
      const uri = c.document.uri.toString();
      const s = cellState(c);
      const extra = s.extra ?? {};
      const t = cellType(cellLike(c));
      if (t === 'prompt') prompts.push(uri);
      if (truthy(extra[EXPLODED_KEY]) || truthy(extra[EXPLODED_REPLY_KEY])) exploded.push(uri);
      else if (t === 'prompt' && c.outputs.length) explodable.push(uri);
      if (t === 'note' && headerInfo(c.document.getText())[0]) headings.push(uri);
    }
  }
  // A dialog's document can outlive its editor (VS Code closes it later): the views follow the tabs.
  const shown = vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputNotebook && t.input.notebookType === NOTEBOOK_TYPE));
  return { [KEYS.prompts]: prompts, [KEYS.explodable]: explodable, [KEYS.exploded]: exploded, [KEYS.headings]: headings, [KEYS.hasDialog]: shown };
}

export function registerContextKeys(context: vscode.ExtensionContext): void {
  const last = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = () => {
    timer = undefined;
    for (const [k, v] of Object.entries(compute())) {
      const key = JSON.stringify(v);
      if (last.get(k) === key) continue;
      last.set(k, key);
      void vscode.commands.executeCommand('setContext', k, v);
    }
  };
  const schedule = () => {
    if (!timer) timer = setTimeout(update, 150);
  };
  context.subscriptions.push(
    vscode.workspace.onDidOpenNotebookDocument(schedule),
    vscode.workspace.onDidCloseNotebookDocument(schedule),
    vscode.window.tabGroups.onDidChangeTabs(schedule),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType === NOTEBOOK_TYPE) schedule();
    }),
    { dispose: () => timer && clearTimeout(timer) },
  );
  update();
}
