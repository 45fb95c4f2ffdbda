// The tools one answer offers the model, and who runs each call: the dialog tools (Solveit's Use tools,
// or those a prompt names, extension/tools), read_url (extension/web) and the prompt's ``&`fn` `` kernel
// functions (promptKernel). The tool turn answering a round holds every call's result, in the calls'
// order, then the images a call read (the API takes them after the results).

import * as vscode from 'vscode';
import { Msg, ToolUsePart, mediaPart, toolResult } from '../../core';
import { WEB_TOOLS, isDialogTool } from '../../core/tools';
import type { ToolSchema } from '../kernel/hostTools';
import { DialogToolSession, offeredDialogTools } from '../tools/dialogTools';
import { WebToolSession, offeredWebTools } from '../web';
import { PromptRefs, unknownToolText } from './kernelRefs';
import { PromptKernel } from './promptKernel';
import { DialogKernels } from '../kernel/dialogKernels';

export interface AnswerToolbox {
  schemas: ToolSchema[];
  /** Runs one round's calls; resolves to the tool turn answering them. */
  call(calls: readonly ToolUsePart[], signal: AbortSignal): Promise<Msg>;
}

/** The references the kernel resolves: ``&`add_msg` `` names a dialog tool, ``&`read_url` `` the web tool, not a kernel function. */
export function kernelRefs(refs: PromptRefs): PromptRefs {
  return { ...refs, tools: refs.tools.filter((t) => !isDialogTool(t) && !WEB_TOOLS.includes(t)) };
}

/** The dialog tools of an answer to the prompt `answering` of `nb`; undefined when it gets none. */
export function answerDialogTools(nb: vscode.NotebookDocument, refs: PromptRefs, answering: string, kernels: DialogKernels | undefined): DialogToolSession | undefined {
  const defs = offeredDialogTools(nb, refs.tools, !!kernels);
  return defs.length ? new DialogToolSession(nb, defs, { answering, kernels }) : undefined;
}

/** read_url for an answer on `nb`; undefined when it is not offered. */
export function answerWebTools(nb: vscode.NotebookDocument, refs: PromptRefs): WebToolSession | undefined {
  const defs = offeredWebTools(refs.tools);
  return defs.length ? new WebToolSession(nb, defs) : undefined;
}

/** Every kind of tool as one; undefined when the answer offers none. */
export function answerToolbox(kernel: PromptKernel | undefined, dialog: DialogToolSession | undefined, web?: WebToolSession): AnswerToolbox | undefined {
  const defs = [...(dialog?.defs ?? []), ...(web?.defs ?? [])];
  const schemas: ToolSchema[] = [...defs.map(({ name, description, parameters }) => ({ name, description, parameters })), ...(kernel?.tools ?? []).map((t) => t.schema)];
  if (!schemas.length) return undefined;
  return {
    schemas,
    call: async (calls, signal) => {
      const content: Msg['content'] = [];
      const images: Msg['content'] = [];
      for (const c of calls) {
        if (signal.aborted) content.push(toolResult(c.id, c.name, 'Not run: the answer was stopped.', c.arguments));
        else if (dialog?.offers(c.name)) content.push(toolResult(c.id, c.name, (await dialog.call(c.name, c.arguments, signal)).text, c.arguments));
        else if (web?.offers(c.name)) {
          const r = await web.call(c.name, c.arguments, signal);
          content.push(toolResult(c.id, c.name, r.text, c.arguments));
          for (const i of r.images ?? []) images.push(mediaPart('input_image', `data:${i.mime};base64,${i.data}`, i.mime));
        }
        else if (kernel) content.push(...(await kernel.call([c], signal)).content);
        else content.push(toolResult(c.id, c.name, unknownToolText(c.name, schemas.map((s) => s.name)), c.arguments));
      }
      return { role: 'tool', content: [...content, ...images] };
    },
  };
}
