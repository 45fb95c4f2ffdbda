// The kernels of open dialogs as the doors use them: a prompt's ``$`expr` `` values and ``&`fn` `` tools
// (answer/promptKernel.ts), and the dialog tools' `python`, whether the assistant, a Language Model Tool
// or MCP calls it (tools/door.ts). The kernel layer's code runner (runner.ts) is the one implementation.

import type * as vscode from 'vscode';
import type { KernelSession } from './session';

/** The kernels of open dialogs, as the kernel layer offers them to prompts and tools. */
export interface DialogKernels {
  /** The dialog's kernel: the running one, else one started now; throws why none could start. */
  session(nb: vscode.NotebookDocument): Promise<KernelSession>;
  interrupt(nb: vscode.NotebookDocument): Promise<boolean>;
  /** The dialog's kernel if one runs now (none is started). */
  running(nb: vscode.NotebookDocument): KernelSession | undefined;
}
