// The Dialog Variables view: the active dialog's kernel variables (name, type, a short value), asked of
// the kernel after each code cell run while the view is shown, like Jupyter's Variables panel; and
// ``$`…` `` completions in prompts from the same list. Never starts a kernel: no kernel, no variables.

import * as vscode from 'vscode';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { NOTEBOOK_TYPE, PROMPT_LANG } from '../document/cells';
import { KernelVariable, kernelVariables } from '../kernel/hostTools';
import { CodeRunner } from '../kernel/runner';

export const VARIABLES_VIEW = 'dialogNotebook.variables';

function activeDialog(): vscode.NotebookDocument | undefined {
  const nb = vscode.window.activeNotebookEditor?.notebook;
  return nb?.notebookType === NOTEBOOK_TYPE ? nb : undefined;
}

export class VariablesView implements vscode.TreeDataProvider<KernelVariable>, vscode.CompletionItemProvider, vscode.Disposable {
  /** By dialog URI: the variables last asked of its kernel. */
  private readonly vars = new Map<string, KernelVariable[]>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<KernelVariable>;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly runner: CodeRunner) {
    this.view = vscode.window.createTreeView(VARIABLES_VIEW, { treeDataProvider: this });
    const shown = (nb: vscode.NotebookDocument) => this.view.visible && nb === activeDialog();
    this.subs = [
      this.view,
      this.changed,
      runner.onDidRun((nb) => shown(nb) && void this.refresh(nb)),
      runner.onDidChangeState((uri) => {
        // A kernel gone (shut down, restarted on another environment) takes its variables along.
        const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
        if (nb && !runner.running(nb) && this.vars.delete(uri.toString())) this.changed.fire();
      }),
      this.view.onDidChangeVisibility(({ visible }) => {
        const nb = activeDialog();
        if (visible && nb) void this.refresh(nb);
      }),
      vscode.window.onDidChangeActiveNotebookEditor(() => {
        const nb = activeDialog();
        if (this.view.visible && nb) void this.refresh(nb);
        else this.changed.fire();
      }),
      vscode.workspace.onDidCloseNotebookDocument((nb) => this.vars.delete(nb.uri.toString())),
      vscode.languages.registerCompletionItemProvider({ language: PROMPT_LANG }, this, '`'),
    ];
  }

  /** Asks the dialog's kernel for its variables (none when no kernel runs); the view shows them. */
  async refresh(nb: vscode.NotebookDocument | undefined = activeDialog()): Promise<KernelVariable[]> {
    if (!nb) return [];
    const ks = this.runner.running(nb);
    let vars: KernelVariable[] = [];
    if (ks) {
      try {
        vars = await kernelVariables(ks);
      } catch (e) {
        log.warn(`The kernel's variables are unknown: ${reason(e)}`);
        return this.vars.get(nb.uri.toString()) ?? [];
      }
    }
    this.vars.set(nb.uri.toString(), vars);
    this.changed.fire();
    return vars;
  }

  getTreeItem(v: KernelVariable): vscode.TreeItem {
    const item = new vscode.TreeItem(v.name);
    item.description = `${v.type}  ${v.value}`;
    item.tooltip = new vscode.MarkdownString().appendText(`${v.name}: ${v.type}\n\n`).appendCodeblock(v.value, 'python');
    item.iconPath = new vscode.ThemeIcon('symbol-variable');
    return item;
  }

  getChildren(parent?: KernelVariable): KernelVariable[] {
    if (parent) return [];
    const nb = activeDialog();
    const vars = nb ? this.vars.get(nb.uri.toString()) : undefined;
    this.view.message = !nb ? 'Open a dialog to see its variables.' : !this.runner.running(nb) ? 'No kernel runs for this dialog: run a code cell.' : vars?.length === 0 ? 'No variables yet.' : undefined;
    return vars ?? [];
  }

  /** After ``$` `` in a prompt: the kernel's variables (asked now when none are known yet). */
  async provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
    const typed = /\$`([A-Za-z_][\w.]*)?$/.exec(doc.lineAt(pos.line).text.slice(0, pos.character));
    if (!typed) return undefined;
    const nb = vscode.workspace.notebookDocuments.find((d) => d.notebookType === NOTEBOOK_TYPE && d.getCells().some((c) => c.document === doc));
    if (!nb) return undefined;
    const vars = this.vars.get(nb.uri.toString()) ?? (await this.refresh(nb));
    const range = new vscode.Range(pos.translate(0, -(typed[1]?.length ?? 0)), pos);
    return vars.map((v) => {
      const item = new vscode.CompletionItem({ label: v.name, description: v.type }, vscode.CompletionItemKind.Variable);
      item.detail = v.type;
      item.documentation = new vscode.MarkdownString().appendCodeblock(v.value, 'python');
      item.range = range;
      return item;
    });
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
  }
}
