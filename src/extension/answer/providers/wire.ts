// What both chat APIs share on the wire: the tool names and call ids they accept, tool-call arguments
// streamed as JSON fragments, and the history's calls of tools not offered now sent as text.

import { JsonObject, Msg, ToolResultPart, ToolUsePart, isJsonObject, parseJson, textPart } from '../../../core';
import type { AnswerRequest } from './provider';

/** A name or id as the APIs accept it (`^[a-zA-Z0-9_-]{1,64}$`); dialogs hold dotted names (`tools.write_stdin`). */
export function wireName(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || '_';
}

/** A call's gathered argument JSON; an unparseable or non-object input is kept whole under `input`. */
export function callArgs(json: string): JsonObject {
  if (!json.trim()) return {};
  try {
    const v = parseJson(json).value;
    return isJsonObject(v) ? v : { input: v };
  } catch {
    return { input: json };
  }
}

/**
 * The history as sent with `offered` tools: a past call of a tool not offered now (Solveit's own
 * `python`, a function no longer referenced) and its result become text, so no tool is declared that
 * would do nothing if called — Anthropic refuses tool blocks of undeclared tools, and a declared one
 * could be called. Calls of offered tools stay tool turns. Results leave a tool turn for a user turn
 * after it (OpenAI's tool messages must answer the assistant's calls just before them).
 */
export function offeredHistory(messages: readonly Msg[], offered: readonly { name: string }[] = []): Msg[] {
  const names = new Set(offered.map((t) => wireName(t.name)));
  const asText = (p: ToolUsePart | ToolResultPart) => !p.server && !names.has(wireName(p.name));
  const out: Msg[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const kept = m.content.filter((p) => p.type !== 'tool_result' || !asText(p));
      const moved = m.content.filter((p): p is ToolResultPart => p.type === 'tool_result' && asText(p));
      if (kept.length) out.push({ ...m, content: kept });
      if (moved.length) out.push({ role: 'user', content: moved.map((p) => textPart(`[Result of the earlier ${p.name} call: ${p.text}]`)) });
      continue;
    }
    const content = m.content.map((p) =>
      p.type === 'tool_use' && asText(p) ? textPart(`[An earlier call of ${p.name}, a tool not available now: ${p.name}(${JSON.stringify(p.arguments)})]`) : p,
    );
    out.push({ ...m, content });
  }
  return out;
}

/** Whether two requests would make the same body: the same fields, and the same message objects in order (plans are read-only). */
function sameRequest(a: AnswerRequest, b: AnswerRequest): boolean {
  return (
    a.model === b.model &&
    a.system === b.system &&
    a.maxTokens === b.maxTokens &&
    a.toolChoice === b.toolChoice &&
    a.webSearch === b.webSearch &&
    a.thinking?.budgetTokens === b.thinking?.budgetTokens &&
    a.thinking?.effort === b.thinking?.effort &&
    a.messages.length === b.messages.length &&
    a.messages.every((m, k) => m === b.messages[k]) &&
    JSON.stringify(a.tools) === JSON.stringify(b.tools)
  );
}

/**
 * The provider's body of the last request, kept while the next request is the same: the warm-up
 * (warmUp.ts) makes the next answer's body beforehand, so Ctrl+Enter only sends it.
 */
export class LastBody<B> {
  private last: { req: AnswerRequest; body: B } | undefined;

  constructor(private readonly make: (req: AnswerRequest) => B) {}

  of(req: AnswerRequest): B {
    if (this.last && sameRequest(this.last.req, req)) return this.last.body;
    const body = this.make(req);
    this.last = { req, body };
    return body;
  }
}
