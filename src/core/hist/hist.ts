// `dlg2hist` (ai-projections §8): a dialog as the model's live input, `[U1, A1, …, Un, An]`.
// Media resizing is async and this is not: run `prepareMedia` first and pass its result as `images`.

import { Dialog, DialogError, Message, truthy } from '../model/dialog';
import { AimInfo, HistPart } from './media';
import { PartsOptions } from './xml';
import { messageParts } from './partsCache';
import { aiOutput } from './render';

/** A user turn (text, media bytes and URL refs) or an assistant reply text. */
export type HistTurn = HistPart[] | string;

export interface HistOptions extends Omit<PartsOptions, 'last'> {
  /** Cut the dialog after this message id (then back to the last prompt at or before it). */
  upto?: string;
}

/** Session bookkeeping raws (`meta.rec_kind`) and skipped messages never reach the model. */
export function histMessages(msgs: readonly Message[]): Message[] {
  return msgs.filter((m) => !(m.msgType === 'raw' && truthy(m.meta.rec_kind)) && !truthy(m.skipped));
}

/**
 * The history up to the last prompt (or to `upto`): each prompt's user turn holds the non-prompt
 * messages since the previous prompt, then the prompt's own parts; its reply (`ai_output`, the pending
 * placeholder when empty) follows. Prompts render bare unless `envelope` (DECISIONS, prompt text).
 * Unlike the reference, a dialog that continues past its last prompt is cut there rather than rejected.
 * `prompts`, when given, receives the prompt of each reply, in order.
 */
export function dlg2hist(d: Dialog | readonly Message[], aim: AimInfo = {}, opts: HistOptions = {}, prompts?: Message[]): HistTurn[] {
  let all = d instanceof Dialog ? d.messages : d;
  if (opts.upto !== undefined) {
    const k = all.findIndex((m) => m.id === opts.upto);
    if (k < 0) throw new DialogError(`no message id: '${opts.upto}'`);
    all = all.slice(0, k + 1);
  }
  const msgs = histMessages(all);
  let last = msgs.length - 1;
  while (last >= 0 && msgs[last].msgType !== 'prompt') last--;
  if (last < 0) throw new DialogError('dlg2hist requires a prompt: the dialog has none (skipped prompts do not count)');
  const res: HistTurn[] = [];
  let turn: HistPart[] = [];
  const lastOpts = { ...opts, last: true };
  for (let k = 0; k <= last; k++) {
    const m = msgs[k];
    const parts = messageParts(m, aim, k === last ? lastOpts : opts);
    for (const p of parts) turn.push(p);
    if (m.msgType === 'prompt') {
      res.push(turn, aiOutput(m, opts));
      prompts?.push(m);
      turn = [];
    }
  }
  return res;
}
