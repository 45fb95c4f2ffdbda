// The "Dialog Sections" tree (explorer and the Dialog side bar): headings nest, prompts and code are
// leaves with type icons and pinned / skipped marks; a click reveals the cell, and the tree follows the
// notebook selection.

import * as vscode from 'vscode';
import { OutlineNode } from '../core/outline';
import { NOTEBOOK_TYPE } from './cells';
import { selectCells } from './commandTarget';
import { nodeAt, notebookOutline } from './outlineModel';

export const SECTION_VIEWS = ['dialogNotebook.sections', 'dialogNotebook.sectionsSidebar'];
export const REVEAL_COMMAND = 'dialogNotebook.revealMessage';

const ICONS: Record<string, string> = { prompt: 'sparkle', code: 'code', note: 'symbol-namespace', raw: 'file-text' };

/** `1.2k` style token counts. */
export function tokensText(n: number): string {
  return n < 1000 ? `${n}` : `${(n / 1000).toFixed(n < 10000 ? 1 : 0)}k`;
}

export class SectionsProvider implements vscode.TreeDataProvider<OutlineNode> {
  private readonly changed = new vscode.EventEmitter<OutlineNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: OutlineNode[] = [];
  private parents = new Map<OutlineNode, OutlineNode | undefined>();
  private keys = new Map<OutlineNode, string>();
  nb: vscode.NotebookDocument | undefined;

  /** Rebuilds from `nb` (cells that did not change reuse their cached items). */
  refresh(nb: vscode.NotebookDocument | undefined): void {
    this.nb = nb;
    this.roots = nb ? notebookOutline(nb) : [];
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
    this.changed.fire(undefined);
  }

  get nodes(): OutlineNode[] {
    return this.roots;
  }

  nodeForCell(index: number): OutlineNode | undefined {
    return nodeAt(this.roots, index);
  }

  getChildren(n?: OutlineNode): OutlineNode[] {
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
    const marks = [n.pinned ? '$(pinned)' : '', n.skipped ? '$(eye-closed)' : '', n.exploded ? '$(split-vertical)' : ''].filter(Boolean);
    const flags = [n.pinned ? 'pinned' : '', n.skipped ? 'skipped' : '', n.exploded ? 'exploded reply' : ''].filter(Boolean);
    item.description = heading ? `${n.count} msgs · ~${tokensText(n.sectionTokens)} tok${flags.length ? ' · ' + flags.join(', ') : ''}` : flags.join(', ');
    item.iconPath = new vscode.ThemeIcon(n.skipped ? 'eye-closed' : n.pinned ? 'pinned' : ICONS[n.msgType] ?? 'circle-small');
    item.tooltip = new vscode.MarkdownString(undefined, true);
    item.tooltip.appendText(`${heading ? `Heading ${n.level}` : n.msgType} ${n.id}\n${n.label}\n`);
    item.tooltip.appendMarkdown(`${marks.join(' ')} ~${tokensText(heading ? n.sectionTokens : n.tokens)} tokens`);
    item.contextValue = heading ? 'heading' : n.msgType;
    item.command = { title: 'Reveal', command: REVEAL_COMMAND, arguments: [this.nb?.uri.toString(), n.index, n.id] };
    return item;
  }
}

/** Selects the cell of message `id` (at `index` if ids are not unique or absent) and reveals it. */
export async function revealMessage(uri: string, index: number, id?: string): Promise<boolean> {
  const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri);
  if (!nb) return false;
  let k = index;
  if (id && !id.startsWith('#')) {
    const at = nb.getCells().findIndex((c) => (c.metadata?.dialog as { id?: string } | undefined)?.id === id);
    if (at >= 0) k = at;
  }
  if (!vscode.window.visibleNotebookEditors.some((e) => e.notebook === nb)) await vscode.window.showNotebookDocument(nb, { preserveFocus: true });
  selectCells(nb, k);
  return k >= 0 && k < nb.cellCount;
}

export function registerSectionsView(context: vscode.ExtensionContext): SectionsProvider {
  const provider = new SectionsProvider();
  const views = SECTION_VIEWS.map((id) => vscode.window.createTreeView(id, { treeDataProvider: provider, showCollapseAll: true }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const current = () => {
    const ed = vscode.window.activeNotebookEditor;
    return ed?.notebook.notebookType === NOTEBOOK_TYPE ? ed.notebook : provider.nb && !provider.nb.isClosed ? provider.nb : undefined;
  };
  const schedule = (delay = 100) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      provider.refresh(current());
    }, delay);
  };
  const follow = (ed: vscode.NotebookEditor) => {
    if (ed.notebook !== provider.nb || ed.selection.isEmpty) return;
    const n = provider.nodeForCell(ed.selection.start);
    for (const v of views) if (v.visible && n) void v.reveal(n, { select: true, focus: false, expand: true }).then(undefined, () => undefined);
  };
  context.subscriptions.push(
    ...views,
    vscode.commands.registerCommand(REVEAL_COMMAND, revealMessage),
    vscode.window.onDidChangeActiveNotebookEditor(() => schedule(0)),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook === provider.nb || e.notebook === vscode.window.activeNotebookEditor?.notebook) schedule();
    }),
    vscode.workspace.onDidCloseNotebookDocument((nb) => {
      if (nb === provider.nb) schedule(0);
    }),
    vscode.window.onDidChangeNotebookEditorSelection((e) => follow(e.notebookEditor)),
    { dispose: () => timer && clearTimeout(timer) },
  );
  provider.refresh(current());
  return provider;
}
