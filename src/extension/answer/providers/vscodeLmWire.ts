// The canonical chat as text turns for VS Code's Language Model API, which (as of the 1.90 API this
// extension targets) takes text only, from users and assistants: replies are written back in their reply
// markdown (`hist2fmt`, tool blocks included) and the system prompt opens the first user turn.

import { Msg, hist2fmt } from '../../../core';
import { AnswerRequest } from './provider';

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
