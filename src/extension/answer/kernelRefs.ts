// What a prompt takes from its dialog's kernel (ai-projections §11): which ``$`expr` `` values and
// ``&`fn` `` tools the sent history names, the values as `vars_hist` entries, and the tool calls of an
// answer run in the kernel, their results as the tool turn the model and the reply get. No vscode import.

import { KernelValue, MEDIA_TOKENS, Message, Msg, Part, ToolUsePart, getExprs, getRefs, toolResult, tokenEstimate } from '../../core';
import type { ToolResult, ToolSchema, VarValue } from '../kernel/hostTools';

export interface PromptRefs {
  /** ``$`expr` `` payloads of the prompts sent, sorted and unique. */
  exprs: string[];
  /** ``&`fn` `` / ``&`[f, g]` `` names of the prompts sent, sorted and unique. */
  tools: string[];
}

/** The references of the prompts in the history sent (the prompt answered included). */
export function promptRefs(messages: readonly Message[]): PromptRefs {
  const prompts = messages.filter((m) => m.msgType === 'prompt').map((m) => m.content);
  return { exprs: getExprs(messages), tools: getRefs(prompts.join('\n')) ?? [] };
}

const none = (r: PromptRefs) => !r.exprs.length && !r.tools.length;

/**
 * What the request asks the dialog's kernel for, given the history it sends (the prompt answered last):
 * the references of its prompts, or none. Nothing when it names none; nothing either when the prompt
 * answered names none itself and no kernel runs, as the request then carries nothing from a kernel: one
 * would be started only for earlier prompts' names, which it has not defined yet. `resolvedBy` keeps the
 * references a kernel resolves (``&`add_msg` `` is a dialog tool); `all`, the history's references when known.
 */
export function kernelAsks(messages: readonly Message[], kernelRuns: boolean, resolvedBy = (r: PromptRefs) => r, all = promptRefs(messages)): PromptRefs | undefined {
  const refs = resolvedBy(all);
  if (none(refs)) return undefined;
  return kernelRuns || !none(resolvedBy(promptRefs(messages.slice(-1)))) ? refs : undefined;
}

/** ``$`expr` `` → ``$`expr` ``, ``&`[f, g]` `` → ``&`[f, g]` ``: how the user is told what was not used. */
export function refsText(refs: PromptRefs): string {
  return [...refs.exprs.map((e) => `$\`${e}\``), ...refs.tools.map((t) => `&\`${t}\``)].join(', ');
}

/**
 * The kernel's values as `vars_hist`'s namespace: each value typed by the kernel (`int`, `DataFrame`),
 * bytes and images as media; an expression that raised is sent as its error line, typed by the exception,
 * so the model knows the value is missing rather than guessing it.
 */
export function varsNamespace(values: readonly VarValue[]): Record<string, KernelValue | Uint8Array> {
  const ns: Record<string, KernelValue | Uint8Array> = {};
  for (const v of values) {
    if ('error' in v) ns[v.expr] = { pyType: v.error.split(':')[0].trim() || 'Exception', text: v.error };
    else if ('bytes' in v) ns[v.expr] = v.bytes;
    else ns[v.expr] = { pyType: v.type, text: v.text };
  }
  return ns;
}

/** Estimated tokens of canonical messages (text by the History tab's estimate, media as one image). */
export function chatTokens(msgs: readonly Msg[]): number {
  let n = 0;
  for (const m of msgs) for (const p of m.content) n += p.type === 'text' ? tokenEstimate(p.text) : MEDIA_TOKENS;
  return n;
}

/** A call the model made: the kernel function it names, or none (a tool the request did not offer). */
export function callRef(call: ToolUsePart, tools: readonly { ref: string; schema: ToolSchema }[]): string | undefined {
  return tools.find((t) => t.schema.name === call.name)?.ref;
}

/** The result the model reads for a call of a tool it was not offered: nothing ran, and what it may call. */
export function unknownToolText(name: string, offered: readonly string[]): string {
  const may = offered.length ? `The tools you can call are: ${offered.join(', ')}.` : 'No tool can be called now.';
  return `Error: no tool named ${name} is available in this dialog, so the call was not run. ${may}`;
}

/** The calls of an answer's round that the extension must answer (server tools are the provider's). */
export function clientCalls(parts: readonly Part[]): ToolUsePart[] {
  return parts.filter((p): p is ToolUsePart => p.type === 'tool_use' && !p.server);
}

/** The tool turn answering `calls`, in their order: each result's text is what the model reads. */
export function toolTurn(calls: readonly ToolUsePart[], results: readonly ToolResult[]): Msg {
  return { role: 'tool', content: calls.map((c, k) => toolResult(c.id, c.name, results[k].text, c.arguments)) };
}
