// The "Dialog Sections" tree (explorer and the Dialog side bar): headings nest, prompts and code are
// leaves with type icons and pinned / skipped marks; a click reveals the cell, and the tree follows the
// notebook selection. An edit costs what it touches: unchanged cells reuse their cached outline items
// (outlineModel), and when the headings keep their shape the tree keeps its nodes and refreshes only
// the nodes whose text, flags or counts changed.
// The workbench loads a view by itself when it is first shown. A whole-tree change event, or a reveal,
// before that load has fetched the roots races it: some headings then keep no children in the view
// (shown expanded and empty) while the workbench's item table has them, and revealing a node under them
// fails with "Data tree node not found" (reliably in the web worker host). So a rebuild the views are
// about to fetch anyway is quiet, and a view reveals only once it has fetched the current roots (each
// view has its own thin provider, to know which view fetched).

import * as vscode from 'vscode';
import { OutlineNode, patchOutline, sameShape } from '../../core/outline';
import { FLAG_ICONS, HEADING_ICON, tokensText, typeIcon } from '../../shared/outlineView';
import { NOTEBOOK_TYPE, cellState } from '../document/cells';
import { selectCells } from '../commands/target';
import { markOf } from '../commands/conflicts';
import { conflictOf } from '../../core/threeway';
import { onDidApplyDialogEdit } from '../editing/edits';
import { nodeAt, notebookOutline } from './outlineModel';
import { log } from '../log';

export const SECTION_VIEWS = ['dialogNotebook.sections', 'dialogNotebook.sectionsSidebar'];
export const REVEAL_COMMAND = 'dialogNotebook.revealMessage';
/** Not in the palette: returns the tree's provider and views (for tests, as showPanel returns the panel). */
export const TREE_COMMAND = 'dialogNotebook.sectionsTree';

export class SectionsProvider implements vscode.TreeDataProvider<OutlineNode> {
  private readonly changed = new vscode.EventEmitter<OutlineNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: OutlineNode[] = [];
  private parents = new Map<OutlineNode, OutlineNode | undefined>();
  private keys = new Map<OutlineNode, string>();
  nb: vscode.NotebookDocument | undefined;

  /**
   * Brings the tree up to date with `nb`: when only texts, flags or counts changed, in place, firing
   * the changed nodes (returned); else rebuilt, firing `undefined` unless `quiet` (returns 'all').
   * `quiet`: the views are about to fetch the roots anyway.
   */
  refresh(nb: vscode.NotebookDocument | undefined, quiet = false): OutlineNode[] | 'all' {
    const roots = nb ? notebookOutline(nb) : [];
    if (nb === this.nb && sameShape(this.roots, roots)) {
      const changed = patchOutline(this.roots, roots);
      if (changed.length) this.changed.fire(changed);
      return changed;
    }
    this.nb = nb;
    this.roots = roots;
    this.parents.clear();
    this.keys.clear();
    const seen = new Map<string, number>();
    const walk = (ns: OutlineNode[], parent?: OutlineNode) => {
      for (const n of ns) {
        this.parents.set(n, parent);
        const k = seen.get(n.id) ?? 0;
        seen.set(n.id, k + 1);
        this.keys.set(n, k ? `${n.id}~${k}` : n.id);
        walk(n.children, n);
      }
    };
    walk(this.roots);
    this.onRebuild();
    if (!quiet) this.changed.fire(undefined);
    return 'all';
  }

  /** Called on each rebuild: the views hold none of the new nodes yet (set by registerSectionsView). */
  onRebuild: () => void = () => undefined;

  /** Tells the views to fetch the whole tree again. */
  resend(): void {
    this.changed.fire(undefined);
  }

  /** Brings a tree left stale while hidden up to date (set by registerSectionsView); see refresh for `quiet`. */
  ensureFresh: (quiet?: boolean) => void = () => undefined;

  get nodes(): OutlineNode[] {
    this.ensureFresh();
    return this.roots;
  }

  nodeForCell(index: number): OutlineNode | undefined {
    return nodeAt(this.roots, index);
  }

  getChildren(n?: OutlineNode): OutlineNode[] {
    // The workbench is fetching the roots: they are the news.
    if (!n) this.ensureFresh(true);
    return n ? n.children : this.roots;
  }

  getParent(n: OutlineNode): OutlineNode | undefined {
    return this.parents.get(n);
  }

  getTreeItem(n: OutlineNode): vscode.TreeItem {
    const heading = n.level > 0;
    const item = new vscode.TreeItem(
      n.label,
      n.children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${this.nb?.uri.toString()}#${this.keys.get(n) ?? n.id}`;
    // Both versions of a conflict say which side they are (only the other side's carries the mark).
    const cell = this.nb && n.index >= 0 && n.index < this.nb.cellCount ? this.nb.cellAt(n.index) : undefined;
    const side = cell ? markOf(cell)?.side : undefined;
    const conflict = side ? `conflict: ${side === 'theirs' ? 'theirs' : 'mine'}` : '';
    const marks = [n.pinned ? `$(${FLAG_ICONS.pinned})` : '', n.skipped ? `$(${FLAG_ICONS.skipped})` : '', n.exploded ? `$(${FLAG_ICONS.exploded})` : '', side ? `$(${FLAG_ICONS.conflict})` : ''].filter(Boolean);
    const flags = [n.pinned ? 'pinned' : '', n.skipped ? 'skipped' : '', n.exploded ? 'exploded reply' : '', conflict].filter(Boolean);
    item.description = heading ? `${n.count} msgs · ~${tokensText(n.sectionTokens)} tok${flags.length ? ' · ' + flags.join(', ') : ''}` : flags.join(', ');
    item.iconPath = new vscode.ThemeIcon(side ? FLAG_ICONS.conflict : n.skipped ? FLAG_ICONS.skipped : n.pinned ? FLAG_ICONS.pinned : heading ? HEADING_ICON : typeIcon(n.msgType));
    item.tooltip = new vscode.MarkdownString(undefined, true);
    item.tooltip.appendText(`${heading ? `Heading ${n.level}` : n.msgType} ${n.id}\n${n.label}\n`);
    item.tooltip.appendMarkdown(`${marks.join(' ')} ~${tokensText(heading ? n.sectionTokens : n.tokens)} tokens`);
    if (side) item.tooltip.appendText(`\n${side === 'theirs' ? 'The version on disk (or their branch)' : 'Your version'}: click, then Keep Mine, Keep Theirs or Keep Both on the cell.`);
    item.contextValue = heading ? 'heading' : n.msgType;
    item.command = { title: 'Reveal', command: REVEAL_COMMAND, arguments: [this.nb?.uri.toString(), n.index, n.id] };
    return item;
  }
}

/** Selects the cell of message `id` (at `index` if ids are not unique or absent) and reveals it. */
export async function revealMessage(uri: string, index: number, id?: string): Promise<boolean> {
  const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri);
  if (!nb) return false;
  const idOf = (c: vscode.NotebookCell) => cellState(c).id;
  let k = index;
  // The id wins over a stale index; the index picks among duplicate ids.
  if (id && !id.startsWith('#') && !(k >= 0 && k < nb.cellCount && idOf(nb.cellAt(k)) === id)) {
    const at = nb.getCells().findIndex((c) => idOf(c) === id);
    if (at >= 0) k = at;
  }
  if (!vscode.window.visibleNotebookEditors.some((e) => e.notebook === nb)) await vscode.window.showNotebookDocument(nb, { preserveFocus: true });
  selectCells(nb, k);
  return k >= 0 && k < nb.cellCount;
}

/** What the workbench holds of one view. */
interface ViewState {
  /** Shown before: a view shown the first time loads the roots by itself. */
  shown: boolean;
  /** `current`: it fetched the current roots; `old`: shown before a quiet rebuild and hidden since, it
   *  holds the old nodes until shown again; `none`: neither. */
  roots: 'none' | 'current' | 'old';
  /** A reveal waits for the view to fetch the current roots. */
  revealOwed: boolean;
}

/** `onNavigate`: the user went to a message through the views (a click on an item runs REVEAL_COMMAND). */
export function registerSectionsView(context: vscode.ExtensionContext, onNavigate: () => void = () => undefined): SectionsProvider {
  const provider = new SectionsProvider();
  const states = new Map<vscode.TreeView<OutlineNode>, ViewState>();
  const state = (v: vscode.TreeView<OutlineNode>) => states.get(v)!;
  const views: vscode.TreeView<OutlineNode>[] = SECTION_VIEWS.map((id) => {
    const own: vscode.TreeDataProvider<OutlineNode> = {
      onDidChangeTreeData: provider.onDidChangeTreeData,
      getTreeItem: (n) => provider.getTreeItem(n),
      getParent: (n) => provider.getParent(n),
      getChildren: (n) => {
        const ns = provider.getChildren(n);
        if (!n) {
          const st = state(view);
          st.roots = 'current';
          // After the roots reached the workbench.
          if (st.revealOwed) {
            st.revealOwed = false;
            setTimeout(() => follow(vscode.window.activeNotebookEditor, [view]), 0);
          }
        }
        return ns;
      },
    };
    const view = vscode.window.createTreeView(id, { treeDataProvider: own, showCollapseAll: true });
    states.set(view, { shown: false, roots: 'none', revealOwed: false });
    return view;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const current = () => {
    const ed = vscode.window.activeNotebookEditor;
    return ed?.notebook.notebookType === NOTEBOOK_TYPE ? ed.notebook : provider.nb && !provider.nb.isClosed ? provider.nb : undefined;
  };
  /** Selects the node of the editor's selected cell in the visible views. */
  const follow = (ed: vscode.NotebookEditor | undefined, onlyVisible = views) => {
    if (!ed || ed.notebook !== provider.nb || ed.selection.isEmpty) return;
    const n = provider.nodeForCell(ed.selection.start);
    for (const v of onlyVisible) {
      if (!v.visible || !n) continue;
      if (state(v).roots !== 'current') state(v).revealOwed = true;
      else void v.reveal(n, { select: true, focus: false, expand: true }).then(undefined, (e) => log.debug(`sections: reveal ${n.id}: ${String(e)}`));
    }
  };
  /**
   * The dialog's conflicts, said at the top of the views (with a badge and Go to Next Conflict on their
   * title). A change of count refetches the tree: the cell a conflict copy is the other version of shows
   * `conflict: mine` by the copy's mark, so its node changes without a change of its own.
   */
  let conflicts = 0;
  const sayConflicts = () => {
    const nb = provider.nb;
    const n = nb ? nb.getCells().filter((c) => conflictOf({ meta: cellState(c).meta ?? {} })).length : 0;
    if (n === conflicts) return false;
    conflicts = n;
    const text = n ? `${n} conflict${n === 1 ? '' : 's'}: both versions kept, marked conflict: mine / theirs below. Click one, then Keep Mine, Keep Theirs or Keep Both on its cell.` : undefined;
    for (const v of views) {
      v.message = text;
      v.badge = n ? { value: n, tooltip: `${n} conflict${n === 1 ? '' : 's'}` } : undefined;
    }
    void vscode.commands.executeCommand('setContext', 'dialogNotebook.hasConflicts', n > 0);
    return true;
  };
  /** Set while no view shows the tree: the outline is built when one does (or a caller reads it). */
  let stale = false;
  const update = (quiet = false) => {
    stale = false;
    const r = provider.refresh(current(), quiet);
    if (sayConflicts() && r !== 'all') {
      forgetRoots();
      provider.resend();
    }
    // A quiet rebuild: a view shown before and hidden now holds the old nodes.
    if (r === 'all' && quiet) for (const v of views) if (state(v).shown && !v.visible) state(v).roots = 'old';
    // New nodes or shifted indices: select the cursor's node again.
    if (r === 'all' || r.length) follow(vscode.window.activeNotebookEditor);
  };
  const schedule = (delay = 100) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (views.some((v) => v.visible)) update();
      else stale = true;
    }, delay);
  };
  provider.ensureFresh = (quiet) => stale && update(quiet);
  /** No view holds the current nodes. */
  const forgetRoots = () => {
    for (const st of states.values()) st.roots = 'none';
  };
  provider.onRebuild = forgetRoots;
  const onShown = (v: vscode.TreeView<OutlineNode>) => {
    const st = state(v);
    const first = !st.shown;
    st.shown = true;
    if (stale) return update(first);
    if (st.roots === 'old') {
      // Its tree is loaded, only old: a refresh now races no load.
      forgetRoots();
      provider.resend();
    }
    follow(vscode.window.activeNotebookEditor, [v]);
  };
  context.subscriptions.push(
    ...views,
    ...views.map((v) => v.onDidChangeVisibility((e) => e.visible && onShown(v))),
    vscode.commands.registerCommand(REVEAL_COMMAND, (uri: string, index: number, id?: string) => {
      onNavigate();
      return revealMessage(uri, index, id);
    }),
    vscode.commands.registerCommand(TREE_COMMAND, () => ({ provider, views })),
    vscode.window.onDidChangeActiveNotebookEditor(() => schedule(0)),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook === provider.nb || e.notebook === vscode.window.activeNotebookEditor?.notebook) schedule();
    }),
    // A surgery edit shows at once rather than after the typing debounce, but not in the edit's way: its
    // caller (a command, a tool call, dialoghelper's reply) goes on first; a reader of the nodes before
    // then gets them fresh, and no view shown: no rebuild (2,000 cells cost ms per edit).
    onDidApplyDialogEdit((nb) => {
      if (nb !== current()) return;
      stale = true;
      schedule(0);
    }),
    vscode.workspace.onDidCloseNotebookDocument((nb) => {
      if (nb === provider.nb) schedule(0);
    }),
    // With a refresh pending the nodes may be stale; the refresh follows the selection itself.
    vscode.window.onDidChangeNotebookEditorSelection((e) => timer === undefined && follow(e.notebookEditor)),
    { dispose: () => timer && clearTimeout(timer) },
  );
  // No view has fetched anything yet.
  provider.refresh(current(), true);
  return provider;
}
