// Running code cells in Jupyter kernels (on the servers of jupyter/): the code runner plugged into the
// dialog controller, which is also every door's way to a dialog's kernel (dialogKernels.ts: prompts, the
// dialog tools, MCP), the kernel's host-side tools (hostTools.ts: values, functions as tools, the dialog
// tools' `python`), the controllers of the Python environments, the kernel status item, the Dialog
// Variables view, and the commands Restart Kernel, Interrupt Kernel, Set Jupyter Token…, Select Python
// Environment… and Install ipykernel.

import * as vscode from 'vscode';
import { registerPackageOffer } from './packageOffer';
import { platform } from '../platform';
import { DialogController } from '../answer/controller';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { NOTEBOOK_TYPE } from '../document/cells';
import { EnvironmentControllers } from '../environments/controllers';
import { Environments } from '../environments/environments';
import { installIpykernel, pipInstall } from '../environments/install';
import { CodeRunner } from './runner';
import { JupyterServers, JupyterToken } from '../jupyter';
import { KernelStatusItem } from './statusItem';
import { VariablesView } from '../views/variables';

/**
 * The dialog a kernel command acts on: the one given (the notebook toolbar passes the document, the
 * cell status bar its uri), else the active dialog editor's.
 */
function targetDialog(arg: unknown): vscode.NotebookDocument | undefined {
  const given =
    arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.parse(arg) : arg && typeof arg === 'object' && 'uri' in arg && arg.uri instanceof vscode.Uri ? arg.uri : undefined;
  const nb = given ? vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === given.toString()) : vscode.window.activeNotebookEditor?.notebook;
  return nb?.notebookType === NOTEBOOK_TYPE ? nb : undefined;
}

export function registerKernel(context: vscode.ExtensionContext, controller: DialogController): CodeRunner {
  const token = new JupyterToken(context.secrets);
  // The browser has no environments of its own: only a remote server's kernelspecs.
  const envs = new Environments(platform().environmentFinder ?? { discover: async () => [], probe: async () => undefined }, context.globalState);
  const servers = new JupyterServers(token, async () => (await envs.all()).filter((e) => e.jupyterServer).map((e) => e.executable));
  const runner = new CodeRunner(servers, (env) => envs.recheck(env));
  const variables = new VariablesView(runner);
  const pickers = new EnvironmentControllers(controller, runner, envs, servers, context.workspaceState, context.extension.id);
  controller.setCodeRunner(runner);
  controller.promptRunner.kernels = runner;
  const withDialog = (what: string, act: (nb: vscode.NotebookDocument) => Promise<unknown>) => async (arg?: unknown) => {
    const nb = targetDialog(arg);
    if (!nb) return void vscode.window.showInformationMessage(`${what}: open a dialog first.`);
    try {
      return await act(nb);
    } catch (e) {
      log.error(`${what} failed: ${reason(e)}`);
      void vscode.window.showErrorMessage(`${what} failed: ${reason(e)}`);
    }
  };
  context.subscriptions.push(
    // In order: the kernels are asked to shut down, then the servers stop (a local one ends its kernels).
    pickers,
    envs,
    runner,
    servers,
    new KernelStatusItem(runner),
    variables,
    vscode.commands.registerCommand(
      'dialogNotebook.restartKernel',
      withDialog('Restart Kernel', (nb) => runner.restart(nb)),
    ),
    vscode.commands.registerCommand(
      'dialogNotebook.interruptKernel',
      withDialog('Interrupt Kernel', async (nb) => {
        if (!(await runner.interrupt(nb))) void vscode.window.showInformationMessage('No kernel runs for this dialog.');
      }),
    ),
    vscode.commands.registerCommand('dialogNotebook.setJupyterToken', (t?: unknown) => token.setCommand(t)),
    vscode.commands.registerCommand('dialogNotebook.selectEnvironment', (path?: unknown) => pickers.select(path)),
    vscode.commands.registerCommand('dialogNotebook.refreshEnvironments', () => pickers.refresh()),
    vscode.commands.registerCommand('dialogNotebook.refreshVariables', () => variables.refresh()),
    vscode.commands.registerCommand('dialogNotebook.installIpykernel', (path?: unknown) => installIpykernel(path, runner, envs)),
    // Internal (no palette entry): the runner's offer of a package a dialog expects.
    vscode.commands.registerCommand('dialogNotebook.installPythonPackage', (exe: string, pkg: string) => pipInstall(exe, pkg, envs)),
  );
  registerPackageOffer(context, runner);
  return runner;
}
