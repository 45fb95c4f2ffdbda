// The "Dialog Lineage" tree (Dialog side bar): every dialog of the workspace that records lineage, and
// its parents, as the core's family tree. Built from the LineageIndex when VS Code asks (only while the
// view is shown), rebuilt after file events; a click opens the fork at the message it was split at.

import * as vscode from 'vscode';
import { LineageNode, buildLineageTree, forkPoint, nameBesideParent, resolvePath, stemOf } from '../../core/fork';
import { LineageIndex } from './lineageIndex';
import { openDialogAt } from './openAt';

export const LINEAGE_VIEW = 'dialogNotebook.lineage';
const OPEN_COMMAND = 'dialogNotebook.openLineageNode';

export class LineageProvider implements vscode.TreeDataProvider<LineageNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  /**
   * Each node's parent, for the nodes of every build (a WeakMap: the tree view or a caller may still hold
   * nodes of the build before, which a refresh in between must not leave parentless), and the message
   * ids of every dialog of the last build.
   */
  private readonly parents = new WeakMap<LineageNode, LineageNode>();
  private ids = new Map<string, readonly string[]>();

  constructor(private readonly index: LineageIndex) {}

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(n?: LineageNode): Promise<LineageNode[]> {
    if (n) return n.children;
    const entries = await this.index.entries();
    const tree = buildLineageTree(entries);
    this.ids = new Map(entries.map((e) => [e.path, e.ids]));
    const walk = (p: LineageNode) => {
      for (const c of p.children) {
        this.parents.set(c, p);
        walk(c);
      }
    };
    for (const r of tree.roots) walk(r);
    return tree.roots;
  }

  getParent(n: LineageNode): LineageNode | undefined {
    return this.parents.get(n);
  }

  getTreeItem(n: LineageNode): vscode.TreeItem {
    // Under its parent a fork shows what its name adds (`fork-2`), which a narrow side bar does not cut off.
    const parent = this.getParent(n);
    const label = parent ? nameBesideParent(stemOf(n.path), stemOf(parent.path)) : stemOf(n.path);
    const item = new vscode.TreeItem(label, n.children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = n.path;
    const l = n.lineage;
    const split = l ? ` · split@${l.split}${n.splitLine ? `: ${n.splitLine}` : ''}` : '';
    item.description = n.missing ? 'missing' : `${n.msgCount} msgs${split}`;
    const trouble = n.missing || n.cycle || n.problem;
    item.iconPath = new vscode.ThemeIcon(trouble ? 'warning' : l ? 'git-branch' : 'comment-discussion');
    const uri = this.index.uriOf(n.path);
    const lines = [uri ? vscode.workspace.asRelativePath(uri) : n.path];
    if (n.missing) lines.push('missing: no dialog at this path (deleted, or outside the workspace)');
    if (l) lines.push(`forked ${l.time} at message ${l.parentMsg}${n.splitLine ? ` "${n.splitLine}"` : ''}${l.lastN ? ` (first ${l.firstK} + last ${l.lastN})` : ''}`);
    if (l && n.foundBy === 'message') lines.push(`parent not at ${resolvePath(n.path, l.parent)}: found by message ${l.parentMsg}`);
    if (n.cycle) lines.push(`cycle: ${n.cycle.map(stemOf).join(' → ')}`);
    if (n.problem) lines.push(n.problem);
    item.tooltip = lines.join('\n');
    if (uri) {
      item.resourceUri = uri;
      item.command = { title: 'Open at Split', command: OPEN_COMMAND, arguments: [n] };
    }
    return item;
  }

  /** Opens the dialog of `n`, at its split message when it is a fork. */
  async open(n: LineageNode): Promise<vscode.NotebookDocument | undefined> {
    const uri = this.index.uriOf(n.path);
    if (!uri) return undefined;
    const l = n.lineage;
    if (!l) return openDialogAt(uri, 0);
    const parent = this.getParent(n);
    const at = forkPoint((parent && this.ids.get(parent.path)) ?? [], this.ids.get(n.path) ?? [], l);
    return openDialogAt(uri, at.fork, l.parentMsg);
  }
}

export function registerLineageView(context: vscode.ExtensionContext, index: LineageIndex): LineageProvider {
  const provider = new LineageProvider(index);
  context.subscriptions.push(
    vscode.window.createTreeView(LINEAGE_VIEW, { treeDataProvider: provider, showCollapseAll: true }),
    vscode.commands.registerCommand(OPEN_COMMAND, (n: LineageNode) => provider.open(n)),
    index.onDidChange(() => provider.refresh()),
  );
  return provider;
}
