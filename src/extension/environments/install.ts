// Install ipykernel: `python -m pip install ipykernel` for an environment that lacks it, in a terminal the
// user sees (and can stop), never silently; a package a dialog expects (runner.ts) the same way. The environments are looked at again once it closes; a run
// asks the environment again anyway, so a kernel starts as soon as the install is done.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { log } from '../log';
import { envLabel } from './environment';
import { Environments } from './environments';
import { CodeRunner } from '../kernel/runner';

/** The interpreter as a word of the terminal's shell. */
function shellWord(path: string): string {
  if (process.platform === 'win32') return `& "${path}"`;
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The interpreter to install into: the one given, the active dialog's environment, else one picked among those that lack it. */
async function interpreter(arg: unknown, runner: CodeRunner, envs: Environments): Promise<string | undefined> {
  if (typeof arg === 'string' && arg.trim()) return arg.trim();
  const nb = vscode.window.activeNotebookEditor?.notebook;
  const t = nb?.notebookType === NOTEBOOK_TYPE ? runner.target(nb) : undefined;
  if (t?.kind === 'env' && !t.env.ipykernel) return t.env.executable;
  const lacking = (await envs.all()).filter((e) => !e.ipykernel);
  if (!lacking.length) return void vscode.window.showInformationMessage('Every Python environment found has ipykernel.');
  const pick = await vscode.window.showQuickPick(
    lacking.map((e) => ({ label: envLabel(e), description: e.executable, exe: e.executable })),
    { title: 'Install ipykernel into…' },
  );
  return pick?.exe;
}

export async function installIpykernel(arg: unknown, runner: CodeRunner, envs: Environments): Promise<void> {
  const exe = await interpreter(arg, runner, envs);
  if (exe) pipInstall(exe, 'ipykernel', envs);
}

/** `exe -m pip install pkg` in a terminal the user sees (and can stop); the environments are looked at again once it closes. */
export function pipInstall(exe: string, pkg: string, envs: Environments): void {
  const command = `${shellWord(exe)} -m pip install ${pkg}`;
  log.info(`Installing ${pkg} in a terminal: ${command}`);
  const terminal = vscode.window.createTerminal({ name: `Install ${pkg}` });
  const closed = vscode.window.onDidCloseTerminal((t) => {
    if (t !== terminal) return;
    closed.dispose();
    void envs.refresh();
  });
  terminal.show();
  terminal.sendText(command);
}
