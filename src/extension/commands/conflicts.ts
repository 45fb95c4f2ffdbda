// Conflicts left by a merge (an outside change, `dlg merge`): a cell marked as the other side's version
// of a message shows it on its status bar, as do the cells it conflicts with, and Keep Mine / Keep Theirs
// / Keep Both settle it as one edit (core/threeway resolveConflict). A rendered note shows the same label and
// choices above its text (renderer/conflictLabels.ts), whose clicks come here.

import * as vscode from 'vscode';
import { ConflictMark, Resolution, conflictOf, resolveConflict } from '../../core/threeway';
import { NOTEBOOK_TYPE, cellState, notebookDialog } from '../document/cells';
import { notebookCodeLanguage } from '../editing/edits';
import { messageSplices } from '../editing/messageSplices';
import { registerConflictDecorations } from './conflictDecorations';
import { CommandResult, DONE, refuse } from './feedback';
import { activeDialog, resolveCell, selectCells } from './target';
import { FIRST_CONFLICT_COMMAND } from '../outside/conflictNotice';

const COMMANDS: Record<Resolution, string> = {
  mine: 'dialogNotebook.conflict.keepMine',
  theirs: 'dialogNotebook.conflict.keepTheirs',
  both: 'dialogNotebook.conflict.keepBoth',
};

/** The renderer drawing the label on rendered notes (package.json notebookRenderer). */
const LABELS_RENDERER = 'dialog-notebook.conflictLabels';

/** Per notebook version: message id → the id of the cell holding the other side's version of it. */
const others = new WeakMap<vscode.NotebookDocument, { version: number; of: Map<string, string | null> }>();

function otherVersions(nb: vscode.NotebookDocument): Map<string, string | null> {
  const hit = others.get(nb);
  if (hit?.version === nb.version) return hit.of;
  const of = new Map<string, string | null>();
  for (const c of nb.getCells()) {
    const mark = conflictOf({ meta: cellState(c).meta ?? {} });
    if (mark?.side === 'theirs' && mark.of) of.set(mark.of, cellState(c).id ?? null);
  }
  others.set(nb, { version: nb.version, of });
  return of;
}

/** The cell's own mark, else the mark of a cell holding the other version of this cell's message. */
export function markOf(cell: vscode.NotebookCell): ConflictMark | undefined {
  const own = conflictOf({ meta: cellState(cell).meta ?? {} });
  if (own) return own;
  const id = cellState(cell).id;
  const other = id === undefined ? undefined : otherVersions(cell.notebook).get(id);
  return other === undefined ? undefined : { side: 'ours', of: other };
}

/** Settles the conflict of the given (or active) cell. */
export async function keep(how: Resolution, arg?: unknown): Promise<CommandResult> {
  const cell = resolveCell(arg);
  if (!cell) return refuse('Select a conflict cell of a dialog first.');
  const nb = cell.notebook;
  const d = notebookDialog(nb);
  const msgs = d.messages.slice();
  const metas = new Map(msgs.map((m) => [m, m.meta]));
  const ids = new Map(msgs.map((m) => [m, m.id]));
  if (!resolveConflict(msgs, msgs[cell.index], how)) return refuse('This cell is not in a conflict.');
  const changed = new Set(d.messages.filter((m) => metas.get(m) !== m.meta || ids.get(m) !== m.id));
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, messageSplices(d.messages, msgs, changed, notebookCodeLanguage(nb)));
  return (await vscode.workspace.applyEdit(edit)) ? DONE : refuse('VS Code refused the edit.');
}

/**
 * Dialog: Go to Next Conflict: selects and reveals the next cell in a conflict after the selected one (from
 * the top again after the last); `first` starts at the top. The notification of a merge and the Sections
 * view lead here.
 */
export async function revealConflict(nb: vscode.NotebookDocument | undefined, first = false): Promise<CommandResult> {
  if (!nb) return refuse('Open a dialog first.');
  const cells = nb.getCells();
  const marked = cells.filter((c) => markOf(c)).map((c) => c.index);
  if (!marked.length) return refuse(`${nb.uri.path.split('/').pop()} has no conflicts left.`);
  if (!vscode.window.visibleNotebookEditors.some((e) => e.notebook === nb)) await vscode.window.showNotebookDocument(nb);
  const at = first ? -1 : (vscode.window.visibleNotebookEditors.find((e) => e.notebook === nb)?.selection.start ?? -1);
  const next = marked.find((i) => i > at) ?? marked[0];
  selectCells(nb, next);
  return { ok: true, message: `cell ${next + 1}` };
}

function conflictItems(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem[] {
  const mark = markOf(cell);
  if (!mark) return [];
  const what =
    mark.side === 'theirs'
      ? mark.of
        ? `Conflict: the version on disk (or their branch) of message ${mark.of}, changed on both sides`
        : 'Conflict: changed on disk (or their branch), deleted here'
      : mark.of
        ? `Conflict: your version; cell ${mark.of} holds the other one`
        : 'Conflict: your version of a message deleted on disk (or their branch)';
  const head = new vscode.NotebookCellStatusBarItem('$(git-merge) conflict', vscode.NotebookCellStatusBarAlignment.Left);
  head.tooltip = what;
  head.priority = 200;
  const items = [head];
  const choice = (how: Resolution, text: string, tip: string, prio: number) => {
    const it = new vscode.NotebookCellStatusBarItem(text, vscode.NotebookCellStatusBarAlignment.Left);
    it.tooltip = tip;
    it.priority = prio;
    it.command = { title: tip, command: COMMANDS[how], arguments: [cell.document.uri] };
    items.push(it);
  };
  choice('mine', 'Keep Mine', 'Keep your version, drop the other', 199);
  choice('theirs', 'Keep Theirs', 'Keep the other version in the message’s place, drop yours', 198);
  choice('both', 'Keep Both', 'Keep each version as a message of its own', 197);
  return items;
}

/** The sides of a dialog's conflict cells by message id, for the labels on rendered notes. */
function sidesOf(nb: vscode.NotebookDocument): Record<string, 'mine' | 'theirs'> {
  const out: Record<string, 'mine' | 'theirs'> = {};
  for (const c of nb.getCells()) {
    const id = cellState(c).id;
    const side = id === undefined ? undefined : markOf(c)?.side;
    if (id !== undefined && side) out[id] = side === 'theirs' ? 'theirs' : 'mine';
  }
  return out;
}

/** Talks with the labels of rendered notes (renderer/conflictLabels.ts): sends the sides, settles a click. */
function registerLabels(): vscode.Disposable[] {
  const messaging = vscode.notebooks.createRendererMessaging(LABELS_RENDERER);
  /** What each dialog's editors were last told, so an edit that changes no side sends nothing. */
  const told = new WeakMap<vscode.NotebookDocument, string>();
  const tell = (nb: vscode.NotebookDocument, force = false) => {
    const conflicts = sidesOf(nb);
    const key = JSON.stringify(conflicts);
    if (!force && (told.get(nb) ?? '{}') === key) return;
    told.set(nb, key);
    for (const ed of vscode.window.visibleNotebookEditors) if (ed.notebook === nb) void messaging.postMessage({ conflicts }, ed);
  };
  return [
    messaging.onDidReceiveMessage(({ editor, message }) => {
      const nb = editor.notebook;
      if (nb.notebookType !== NOTEBOOK_TYPE) return;
      const m = message as { keep?: unknown; id?: unknown; ready?: unknown };
      if (m.ready) return void messaging.postMessage({ conflicts: sidesOf(nb) }, editor);
      if (typeof m.keep !== 'string' || !Object.hasOwn(COMMANDS, m.keep) || typeof m.id !== 'string') return;
      const cell = nb.getCells().find((c) => cellState(c).id === m.id);
      if (cell) void keep(m.keep as Resolution, cell.document.uri);
    }),
    vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && (e.contentChanges.length || e.cellChanges.some((c) => c.metadata)) && tell(e.notebook)),
    vscode.window.onDidChangeVisibleNotebookEditors((eds) => eds.forEach((ed) => ed.notebook.notebookType === NOTEBOOK_TYPE && tell(ed.notebook, true))),
  ];
}

export function registerConflicts(context: vscode.ExtensionContext): void {
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, { onDidChangeCellStatusBarItems: changed.event, provideCellStatusBarItems: conflictItems }),
    // A mark on one cell shows on the cell it conflicts with too.
    vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && (e.contentChanges.length || e.cellChanges.some((c) => c.metadata)) && changed.fire()),
    ...(Object.keys(COMMANDS) as Resolution[]).map((how) => vscode.commands.registerCommand(COMMANDS[how], (arg?: unknown) => keep(how, arg))),
    vscode.commands.registerCommand('dialogNotebook.conflict.next', (arg?: unknown) => revealConflict(activeDialog(arg))),
    vscode.commands.registerCommand(FIRST_CONFLICT_COMMAND, (uri: string) => revealConflict(vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri), true)),
    registerConflictDecorations(markOf),
    ...registerLabels(),
  );
}
