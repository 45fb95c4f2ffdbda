// The canonical chat as text turns for VS Code's Language Model API, which (as of the 1.90 API this
// extension targets) takes text only, from users and assistants: replies are written back in their reply
// markdown (`hist2fmt`, tool blocks included) and the system prompt opens the first user turn.

import { JsonObject, Msg, hist2fmt } from '../../../core';
import { AnswerRequest } from './provider';
import { offeredHistory, wireName } from './wire';

export interface LmTurn {
  role: 'user' | 'assistant';
  text: string;
}

function userText(m: Msg): string {
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).filter(Boolean).join('\n');
}

/** Alternating text turns for `req`; media never reach this API (send the plan with vision off). */
export function lmTurns(req: AnswerRequest): LmTurn[] {
  const turns: LmTurn[] = [];
  const push = (role: LmTurn['role'], text: string) => {
    const prev = turns[turns.length - 1];
    if (prev?.role === role) prev.text += `\n\n${text}`;
    else turns.push({ role, text });
  };
  if (req.system) push('user', req.system);
  let run: Msg[] = [];
  const flush = () => {
    if (run.length) push('assistant', hist2fmt(run, null) || '.');
    run = [];
  };
  for (const m of req.messages) {
    if (m.role === 'user') {
      flush();
      push('user', userText(m) || '.');
    } else run.push(m);
  }
  flush();
  return turns;
}

/** A part of a turn with tools: text, a call the model made, or a call's result. */
export type LmPart = { type: 'text'; text: string } | { type: 'call'; id: string; name: string; input: JsonObject } | { type: 'result'; id: string; text: string };

export interface LmToolTurn {
  role: 'user' | 'assistant';
  parts: LmPart[];
}

/**
 * The turns for a request that offers tools (the LM API takes tool calls and results since 1.95): calls
 * of offered tools as call parts answered by result parts in the next user turn; everything else as text
 * (offeredHistory), the system prompt first, turns of one role merged.
 */
export function lmToolTurns(req: AnswerRequest): LmToolTurn[] {
  const turns: LmToolTurn[] = [];
  // Texts that meet are one text, split by a blank line as lmTurns splits them: a model (or a provider
  // that joins a message's parts as they are) reads the same words with tools offered as without.
  const push = (role: LmToolTurn['role'], parts: LmPart[]) => {
    if (!parts.length) return;
    let prev = turns[turns.length - 1];
    if (prev?.role !== role) turns.push((prev = { role, parts: [] }));
    for (const p of parts) {
      const last = prev.parts[prev.parts.length - 1];
      if (last?.type === 'text' && p.type === 'text') last.text += `\n\n${p.text}`;
      else prev.parts.push(p);
    }
  };
  if (req.system) push('user', [{ type: 'text', text: req.system }]);
  for (const m of offeredHistory(req.messages, req.tools ?? [])) {
    const parts: LmPart[] = [];
    for (const p of m.content) {
      const last = parts[parts.length - 1];
      if (p.type === 'text' && p.text && last?.type === 'text') last.text += `\n${p.text}`;
      else if (p.type === 'text' && p.text) parts.push({ type: 'text', text: p.text });
      else if (p.type === 'tool_use') parts.push({ type: 'call', id: wireName(p.id ?? p.name), name: wireName(p.name), input: p.arguments });
      else if (p.type === 'tool_result') parts.push({ type: 'result', id: wireName(p.id ?? p.name), text: p.text });
    }
    push(m.role === 'assistant' ? 'assistant' : 'user', parts);
  }
  return turns;
}
