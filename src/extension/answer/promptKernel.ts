// A prompt's use of its dialog's kernel (issue 10): the ``$`expr` `` values sent with the history (the
// `vars_hist` turn) and the ``&`fn` `` functions offered as tools, whose calls run in the kernel. The kernel
// is the one the dialog's code cells run in, started when none runs yet (as Solveit does); in an
// untrusted workspace none starts and no tool runs: the prompt is answered without them and the user told,
// once per dialog (kernelNotices.ts), as a reference that is not a tool is.

import * as vscode from 'vscode';
import { AimInfo, Msg, ToolUsePart, varsChat } from '../../core';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { KernelSession } from '../kernel/session';
import { DialogKernels } from '../kernel/dialogKernels';
import { ToolResult, ToolSchema, callTool, kernelVars, toolSchemas } from '../kernel/hostTools';
import { AnswerError } from './providers/provider';
import { PromptRefs, callRef, refsText, toolTurn, unknownToolText, varsNamespace } from './kernelRefs';
import { sayOnce } from './kernelNotices';

export interface PromptKernel {
  /** The `vars_hist` turn (user, then the model's acknowledgement), or none. */
  vars: Msg[];
  /** The functions offered to the model, by the reference the prompt wrote. */
  tools: { ref: string; schema: ToolSchema }[];
  /** What the prompt names that could not be used (a reference that is not a tool), for the prompt's note. */
  missing: string[];
  /** Runs one round of calls in the kernel; stopping interrupts the kernel. Resolves to the tool turn. */
  call(calls: readonly ToolUsePart[], signal: AbortSignal): Promise<Msg>;
}

/**
 * Evaluates `refs` in the dialog's kernel; undefined when there are none, or when the workspace is not
 * trusted (the user is told). Throws AnswerError when the kernel cannot start.
 */
export async function promptKernel(kernels: DialogKernels | undefined, nb: vscode.NotebookDocument, refs: PromptRefs, aim: AimInfo | null): Promise<PromptKernel | undefined> {
  if (!refs.exprs.length && !refs.tools.length) return undefined;
  const named = refsText(refs);
  if (!kernels) return void sayOnce(nb, `No kernel layer: the prompt was answered without ${named}.`);
  if (!vscode.workspace.isTrusted) {
    const msg = `This workspace is not trusted, so no kernel runs and no tool is called: the prompt was answered without ${named}. Trust the workspace to use them.`;
    if (sayOnce(nb, msg)) void vscode.window.showWarningMessage(msg);
    return undefined;
  }
  let ks: KernelSession;
  try {
    ks = await kernels.session(nb);
  } catch (e) {
    throw new AnswerError('other', `The prompt uses ${named}, but the dialog's kernel could not start: ${reason(e)}`);
  }
  const vars = refs.exprs.length ? varsChat(aim, varsNamespace(await kernelVars(ks, refs.exprs))) : [];
  const tools: PromptKernel['tools'] = [];
  const missing: string[] = [];
  for (const spec of refs.tools.length ? await toolSchemas(ks, refs.tools) : []) {
    if ('schema' in spec) tools.push({ ref: spec.ref, schema: spec.schema });
    else {
      missing.push(`&\`${spec.ref}\` is not a tool (${spec.error})`);
      sayOnce(nb, `&\`${spec.ref}\` is not a tool (${spec.error}): the model was not offered it. Run the cell that defines it first.`);
    }
  }
  log.info(`From the kernel: ${refs.exprs.length} values, tools ${tools.map((t) => t.ref).join(', ') || 'none'}`);
  return {
    vars,
    tools,
    missing,
    call: async (calls, signal) => {
      const results: ToolResult[] = [];
      const stop = () => void kernels.interrupt(nb).catch((e) => log.warn(`Interrupt failed: ${reason(e)}`));
      signal.addEventListener('abort', stop);
      try {
        for (const c of calls) {
          const ref = callRef(c, tools);
          if (signal.aborted) results.push({ ok: false, text: 'Not run: the answer was stopped.', printed: '' });
          else if (!ref) results.push({ ok: false, text: unknownToolText(c.name, tools.map((t) => t.schema.name)), printed: '' });
          else results.push(await runCall(ks, ref, c, signal));
        }
      } finally {
        signal.removeEventListener('abort', stop);
      }
      return toolTurn(calls, results);
    },
  };
}

/** One call; a function that raises gives its error line, as a result the model reads. */
async function runCall(ks: KernelSession, ref: string, c: ToolUsePart, signal: AbortSignal): Promise<ToolResult> {
  log.info(`Tool call ${ref}(${JSON.stringify(c.arguments)})`);
  try {
    const r = await callTool(ks, ref, c.arguments);
    log.info(`Tool ${ref} ${r.ok ? 'returned' : 'raised'}: ${r.text.slice(0, 200)}${r.printed ? ` (printed ${r.printed.length} characters)` : ''}`);
    return r;
  } catch (e) {
    // Stopped: the kernel was interrupted (KeyboardInterrupt). Anything else: the kernel is unusable.
    if (!signal.aborted) throw e;
    return { ok: false, text: reason(e), printed: '' };
  }
}
