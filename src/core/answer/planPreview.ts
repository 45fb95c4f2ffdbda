// The History tab's view of a request: the turns of a `contextPlan` (its `chat` is what is sent, so the
// tab shows the request itself), skipped messages struck where they would have joined, the message the
// policy cut marked before its text, and those it left out listed with their tokens.

import { Dialog, Message } from '../model';
import { AimInfo, HistOptions, HistPreview, PreviewMode, PreviewTurn, chatTurns, dlg2hist, histTurns, skippedGroups } from '../hist';
import { USAGE_INFO, removeBlocks } from '../reply';
import { firstLine } from '../outline';
import { pyStrip } from '../python';
import { ContextPlan, TRUNCATED_MARK } from './contextPolicy';

export interface PlanMessage {
  id: string;
  /** `type: first line`, as skipped messages are shown. */
  text: string;
  tokens: number;
  /** What of it is sent (less than `tokens` when cut). */
  sentTokens: number;
}

export interface PlanPreview extends HistPreview {
  /** Tokens the system prompt and history may use; `total` is what the plan sends, system prompt included. */
  budget: number;
  over: boolean;
  leftOut: PlanMessage[];
  cut: PlanMessage[];
}

const label = (m: Message) => `${m.msgType}: ${firstLine(m.content) || '(empty)'}`;

/**
 * The preview of `plan` (made for a prompt of `d` with the same `aim` and media). `chat` mode shows
 * `plan.chat` itself (what is sent); `hist` mode the same messages as `dlg2hist` turns, without the
 * pending reply and without usage blocks, which are never sent.
 */
export function planPreview(d: Dialog, plan: ContextPlan, mode: PreviewMode, opts: { aim?: AimInfo | null; hist?: Omit<HistOptions, 'upto'> } = {}): PlanPreview {
  const byId = new Map(d.messages.map((m) => [m.id, m]));
  const promptId = plan.verdicts[plan.verdicts.length - 1].id;
  const out = new Set(plan.verdicts.filter((v) => v.verdict === 'leftOut').map((v) => v.id));
  // Skipped messages join the user turn of the next prompt that is sent.
  const upto = d.messages.slice(0, d.indexOf(promptId) + 1).filter((m) => !out.has(m.id));
  const skipped = skippedGroups(upto);
  let turns: PreviewTurn[];
  if (mode === 'chat') turns = chatTurns(plan.chat, skipped);
  else {
    const hist = dlg2hist(plan.messages, opts.aim ?? { supports_vision: true }, { ...opts.hist, upto: promptId });
    // Usage blocks are bookkeeping no request carries: not shown beside the history either.
    const replies = hist.slice(0, -1).map((t, k) => (k % 2 && typeof t === 'string' && t.includes(USAGE_INFO) ? pyStrip(removeBlocks(t, USAGE_INFO)) : t));
    turns = histTurns(replies, skipped);
  }
  const listed = (verdict: 'leftOut' | 'cut'): PlanMessage[] =>
    plan.verdicts
      .filter((v) => v.verdict === verdict)
      .map((v) => {
        const m = byId.get(v.id);
        return { id: v.id, text: m ? label(m) : v.id, tokens: v.tokens, sentTokens: v.sentTokens };
      });
  const cut = listed('cut');
  for (const c of cut) {
    for (const t of turns) {
      const k = t.parts.findIndex((p) => p.text.includes(TRUNCATED_MARK));
      if (k < 0 || t.parts.some((p) => p.kind === 'cut')) continue;
      t.parts.splice(k, 0, { kind: 'cut', text: `${c.text} (cut to ~${c.sentTokens} of ~${c.tokens} tokens)` });
      break;
    }
  }
  return { promptId, mode, turns, total: plan.total, budget: plan.budget, over: plan.over, leftOut: listed('leftOut'), cut };
}
