// The window status bar item of an active dialog's kernel: its environment and Python version (the
// tooltip: its interpreter) or kernelspec, and its state (not started, starting, idle, busy, restarting,
// dead). A dead kernel's item restarts it on click; otherwise it selects the Python environment.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { CodeRunner, KernelState } from './runner';

const ICONS: Partial<Record<KernelState, string>> = {
  'not started': '$(circle-outline)',
  connecting: '$(sync~spin)',
  starting: '$(sync~spin)',
  restarting: '$(sync~spin)',
  autorestarting: '$(sync~spin)',
  busy: '$(circle-filled)',
  dead: '$(error)',
};

export class KernelStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dialogNotebook.kernel', vscode.StatusBarAlignment.Right, 101);
  private readonly subs: vscode.Disposable[];

  constructor(private readonly runner: CodeRunner) {
    this.item.name = 'Dialog Kernel';
    this.subs = [
      this.item,
      vscode.window.onDidChangeActiveNotebookEditor(() => this.update()),
      runner.onDidChangeState((uri) => {
        if (uri.toString() === vscode.window.activeNotebookEditor?.notebook.uri.toString()) this.update();
      }),
    ];
    this.update();
  }

  private update(): void {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    if (nb?.notebookType !== NOTEBOOK_TYPE) return this.item.hide();
    const state = this.runner.state(nb);
    const { label: name, path } = this.runner.describe(nb);
    this.item.text = `${ICONS[state] ?? '$(circle-outline)'} ${name}: ${state}`;
    const where = path ? `${name}: ${path}\n\n` : '';
    this.item.tooltip =
      where +
      (state === 'not started'
        ? `The ${name} kernel of this dialog starts when a code cell runs. Click to select another Python environment.`
        : state === 'dead'
          ? `The ${name} kernel is dead: click to restart it.`
          : `The ${name} kernel of this dialog is ${state}. Restart and interrupt it from the notebook toolbar; click to select another Python environment.`);
    this.item.command = state === 'dead' ? { title: 'Restart Kernel', command: 'dialogNotebook.restartKernel', arguments: [nb.uri] } : 'dialogNotebook.selectEnvironment';
    this.item.show();
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
  }
}
