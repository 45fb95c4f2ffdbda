// The dialog tools for VS Code's agents (issue 32 §3): each contributed as a Language Model Tool named
// `dialog_<tool>` (package.json `contributes.languageModelTools`, the same schemas plus `dialog`), acting
// on the active dialog or the open dialog `dialog` names. VS Code asks the user before a call that edits
// or runs code (prepareInvocation), so the call itself does not ask again.

import * as vscode from 'vscode';
import { JsonObject, isJsonObject } from '../../core';
import { AGENT_TOOL_PREFIX, DIALOG_TOOLS, DialogToolDef, WORKSPACE_TOOLS } from '../../core/tools';
import { DialogKernels } from '../kernel/dialogKernels';
import { dialogEditor } from '../commands/target';
import { config } from '../config';
import { dialogName } from './dialogTools';
import { callDialogTool, callWorkspaceTool, openDialog, resolveDialog } from './door';

class DialogLmTool implements vscode.LanguageModelTool<JsonObject> {
  constructor(
    private readonly def: DialogToolDef,
    private readonly kernels: () => DialogKernels | undefined,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<JsonObject>): vscode.PreparedToolInvocation {
    const input = isJsonObject(options.input) ? options.input : {};
    const named = typeof input.dialog === 'string' && input.dialog.trim() ? openDialog(input.dialog) : dialogEditor()?.notebook;
    const where = named ? dialogName(named) : typeof input.dialog === 'string' && input.dialog.trim() ? input.dialog : 'the active dialog';
    const invocationMessage = `${this.def.name} on ${where}`;
    if (this.def.kind === 'read' || config.toolsConfirm === 'never') return { invocationMessage };
    const { dialog: _, ...args } = input;
    const body = this.def.name === 'python' ? `\`\`\`python\n${String(args.code ?? '')}\n\`\`\`` : `\`\`\`json\n${JSON.stringify(args, null, 2)}\n\`\`\``;
    const title = this.def.name === 'python' ? `Run Python in the kernel of ${where}?` : this.def.name === 'del_msgs' ? `Delete messages from ${where}?` : `Edit ${where} with ${this.def.name}?`;
    return { invocationMessage, confirmationMessages: { title, message: new vscode.MarkdownString(body) } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<JsonObject>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const { dialog, ...args } = isJsonObject(options.input) ? options.input : {};
    if (WORKSPACE_TOOLS.includes(this.def.name)) return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart((await callWorkspaceTool({ door: 'agent' }, this.def.name, args)).text)]);
    const nb = await resolveDialog(typeof dialog === 'string' ? dialog : undefined);
    if (this.def.kind !== 'read' && !vscode.workspace.isTrusted) throw new Error(`${this.def.name} changes the dialog, which an untrusted workspace does not allow; trust the workspace first.`);
    const ac = new AbortController();
    const sub = token.onCancellationRequested(() => ac.abort());
    try {
      const r = await callDialogTool({ door: 'agent' }, nb, this.def.name, args, { kernels: this.kernels(), confirm: false, signal: ac.signal });
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(r.text)]);
    } finally {
      sub.dispose();
    }
  }
}

/** Registers `dialog_<tool>` for every dialog tool. */
export function registerLmTools(kernels: () => DialogKernels | undefined): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  return DIALOG_TOOLS.map((def) => vscode.lm.registerTool(AGENT_TOOL_PREFIX + def.name, new DialogLmTool(def, kernels)));
}
