// Per-cell status bar: the message type, pinned, skipped (hidden from the AI), exported (code) and
// thinking (prompts), each a click away from being changed.

import * as vscode from 'vscode';
import { Message, truthy } from '../../core/model';
import { exported } from '../../core/model';
import { TYPE_ICONS } from '../../shared/outlineView';
import { NOTEBOOK_TYPE, cellLike, cellState, cellType, notebookMeta } from '../document/cells';
import { thinkingOn } from '../../core/answer';
import { config } from '../config';

function item(text: string, tooltip: string, command: string, cell: vscode.NotebookCell, priority: number): vscode.NotebookCellStatusBarItem {
  const it = new vscode.NotebookCellStatusBarItem(text, vscode.NotebookCellStatusBarAlignment.Left);
  it.tooltip = tooltip;
  it.priority = priority;
  it.command = { title: tooltip, command, arguments: [cell.document.uri] };
  return it;
}

/** The items for one cell; flags that are off are shown as bare icons unless the setting hides them. */
export function cellStatusItems(cell: vscode.NotebookCell, showUnset = true): vscode.NotebookCellStatusBarItem[] {
  // Only what the flags depend on: this runs on every keystroke, so no outputs or attachments.
  const s = cellState(cell);
  const m = new Message({ content: cell.document.getText(), msgType: cellType(cellLike(cell)), meta: s.meta ?? {} });
  m.skipped = s.skipped ?? 0;
  m.pinned = s.pinned ?? 0;
  const t = m.msgType;
  const items = [item(`$(${Object.hasOwn(TYPE_ICONS, t) ? TYPE_ICONS[t] : 'question'}) ${t}`, `Message type ${t}: click to convert`, 'dialogNotebook.convertCell', cell, 100)];
  const flag = (on: boolean, onText: string, offText: string, tip: string, command: string, prio: number) => {
    if (on || showUnset) items.push(item(on ? onText : offText, tip, command, cell, prio));
  };
  flag(truthy(m.pinned), '$(pinned) pinned', '$(pin)', truthy(m.pinned) ? 'Pinned: click to unpin' : 'Pin (keep in the AI context)', 'dialogNotebook.togglePinned', 90);
  flag(truthy(m.skipped), '$(eye-closed) skipped', '$(eye)', truthy(m.skipped) ? 'Skipped (hidden from the AI): click to include' : 'Skip (hide from the AI)', 'dialogNotebook.toggleSkipped', 80);
  if (t === 'prompt') {
    const on = thinkingOn(notebookMeta(cell.notebook), s.meta ?? {});
    flag(on, '🧠 thinking', '🧠', on ? 'Thinking: the model thinks before answering; click to answer without' : 'Think before answering (Dialog: Toggle Thinking)', 'dialogNotebook.toggleThinking', 75);
  }
  if (t === 'code') {
    const on = exported(m);
    flag(on, '$(export) exported', '$(package)', on ? 'Exported: click to stop exporting' : 'Export (#| export)', 'dialogNotebook.toggleExported', 70);
  }
  return items;
}

/** Transient notes on cells (an answer's wait for a rate limit, its failure): shown, never saved. */
const notes = new Map<string, vscode.NotebookCellStatusBarItem>();
const notesChanged = new vscode.EventEmitter<void>();

/** Shows `note` on `cell` (replacing its note), or clears the note when undefined. */
export function setCellNote(cell: vscode.NotebookCell, note: vscode.NotebookCellStatusBarItem | undefined): void {
  const key = cell.document.uri.toString();
  if (note) notes.set(key, note);
  else if (!notes.delete(key)) return;
  notesChanged.fire();
}

export function cellNote(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem | undefined {
  return notes.get(cell.document.uri.toString());
}

export function registerStatusBar(context: vscode.ExtensionContext): void {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.NotebookCellStatusBarItemProvider = {
    onDidChangeCellStatusBarItems: changed.event,
    provideCellStatusBarItems: (cell) => {
      const note = cellNote(cell);
      return note ? [...cellStatusItems(cell, config.showUnsetFlags), note] : cellStatusItems(cell, config.showUnsetFlags);
    },
  };
  context.subscriptions.push(
    changed,
    notesChanged.event(() => changed.fire()),
    // VS Code asks again for a cell's items itself when its text, language, metadata or outputs change,
    // and only for the cells on screen: firing on every edit would re-ask for every visible cell.
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (config.affects(e, 'statusBar')) changed.fire();
    }),
  );
}
