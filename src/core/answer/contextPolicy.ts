// The context-window policy (seed 004's `DefaultContextManager`, plus Solveit's pinned messages): what of
// a dialog is sent to answer one prompt when the history would not fit. The prompt and pinned messages
// always go; the others go newest first while they fit; the first that does not fit is cut, keeping its
// latest text behind `[...earlier content truncated...]`; older ones are left out. The dialog itself is
// never changed: the cut message is a shortened copy.

import { Dialog, DialogError, Message, truthy } from '../model';
import { AimInfo, HistOptions, MEDIA_TOKENS, Msg, aiOutput, dlg2chat, histMessages, mediaTokens, messageParts, tokenEstimate } from '../hist';

export const TRUNCATED_MARK = '[...earlier content truncated...]';
/** Tokens kept free below the input limit (seed 004's `SAFETY_BUFFER`). */
export const SAFETY_TOKENS = 5_000;
/** A border message is cut only when at least this much room is left (as the seed does), else left out. */
export const MIN_CUT_TOKENS = 50;

export interface ContextLimits {
  /** The model's input window (LM API `maxInputTokens`, a table of known models, or a setting). */
  maxInputTokens: number;
  /** Tokens reserved for the reply (the request's `max_tokens`). */
  replyTokens: number;
  safetyTokens?: number;
}

export interface ContextOptions {
  /** Tokens of a text; default the estimate the History tab uses. */
  count?: (text: string) => number;
  /** Tokens of media bytes (an image, already scaled); default the History tab's (images by their pixels). */
  countMedia?: (bytes: Uint8Array) => number;
  /** The system prompt: sent with every request, so it comes off the budget first. */
  system?: string;
  /** What the model takes (null: vision on, as `dlg2chat`); unsupported media become tags. */
  aim?: AimInfo | null;
  /** As for `dlg2chat` (prepared images, file reader, renderers …); `upto` is the prompt. */
  hist?: Omit<HistOptions, 'upto'>;
}

export type Verdict = 'kept' | 'cut' | 'leftOut';

export interface MessageVerdict {
  id: string;
  verdict: Verdict;
  /** Pinned messages (and the prompt) are kept whatever the budget. */
  pinned: boolean;
  /** The message's tokens in full. */
  tokens: number;
  /** What is sent of it: `tokens`, less when cut, 0 when left out. */
  sentTokens: number;
}

export interface ContextPlan {
  /** The history messages sent, in dialog order: the cut one shortened, the prompt without its old reply. */
  messages: Message[];
  /** The request's messages: `dlg2chat` of `messages`, ending with the prompt's user turn. */
  chat: Msg[];
  /** One verdict per history message up to the prompt (skipped ones are not history), in dialog order. */
  verdicts: MessageVerdict[];
  /** Tokens the system prompt and history may use: input limit less reply and safety. */
  budget: number;
  /** Estimated tokens sent (system prompt included). */
  total: number;
  /** The prompt and pinned messages alone exceed the budget: the request will likely be refused. */
  over: boolean;
}

/** A copy of `m` with other text: same id, meta, attachments (so prepared images still match) and owner. */
function variant(m: Message, content: string, reply?: string): Message {
  const v = new Message({ id: m.id, content, msgType: m.msgType, output: reply ?? m.output, attachments: m.attachments, meta: m.meta, extra: m.extra, pinned: m.pinned });
  v.dlg = m.dlg;
  return v;
}

/** The last `keep` UTF-16 units of `s`, never starting inside a surrogate pair. */
function tail(s: string, keep: number): string {
  let at = Math.max(0, s.length - keep);
  const c = s.charCodeAt(at);
  if (c >= 0xdc00 && c <= 0xdfff) at++;
  return s.slice(at);
}

/**
 * Plans the request for `promptId` (a prompt of the dialog, not skipped). Throws DialogError when it is
 * not one, and as `dlg2chat` does (duplicate tool-call ids).
 */
export function contextPlan(d: Dialog | readonly Message[], promptId: string, limits: ContextLimits, opts: ContextOptions = {}): ContextPlan {
  const all = d instanceof Dialog ? d.messages : d;
  const at = all.findIndex((m) => m.id === promptId);
  const prompt = all[at];
  if (!prompt || prompt.msgType !== 'prompt' || truthy(prompt.skipped)) throw new DialogError(`not a prompt that can be answered: '${promptId}'`);
  const count = opts.count ?? tokenEstimate;
  const countMedia = opts.countMedia ?? mediaTokens;
  const aim = opts.aim === undefined || opts.aim === null ? { supports_vision: true } : opts.aim;
  const hist = opts.hist ?? {};

  // The prompt is answered afresh: its old reply is neither sent nor counted.
  const msgs = histMessages(all.slice(0, at)).concat(variant(prompt, prompt.content, ''));
  const last = msgs.length - 1;
  const tokens = (m: Message): number => {
    let t = 0;
    for (const p of messageParts(m, aim, m === msgs[last] ? { ...hist, last: true } : hist)) {
      t += typeof p === 'string' ? count(p) : p instanceof Uint8Array ? countMedia(p) : MEDIA_TOKENS;
    }
    return m.msgType === 'prompt' && m !== msgs[last] ? t + count(aiOutput(m, hist)) : t;
  };

  const budget = limits.maxInputTokens - limits.replyTokens - (limits.safetyTokens ?? SAFETY_TOKENS);
  const system = opts.system ? count(opts.system) : 0;
  const verdicts: MessageVerdict[] = msgs.map((m, k) => {
    const t = tokens(m);
    return { id: m.id, verdict: 'kept', pinned: k === last || truthy(m.pinned), tokens: t, sentTokens: t };
  });
  const sent = msgs.slice();
  let room = budget - system - verdicts.reduce((n, v) => n + v.tokens, 0);
  if (room < 0) {
    room = budget - system - verdicts.reduce((n, v) => n + (v.pinned ? v.tokens : 0), 0);
    let full = room > 0;
    for (let k = last - 1; k >= 0; k--) {
      const v = verdicts[k];
      if (v.pinned) continue;
      if (full && v.tokens <= room) {
        room -= v.tokens;
        continue;
      }
      const cut = full && room >= MIN_CUT_TOKENS ? shorten(msgs[k], room, tokens, hist) : null;
      full = false;
      if (cut) {
        sent[k] = cut.message;
        v.verdict = 'cut';
        v.sentTokens = cut.tokens;
      } else {
        v.verdict = 'leftOut';
        v.sentTokens = 0;
      }
    }
  }
  const messages = sent.filter((_, k) => verdicts[k].verdict !== 'leftOut');
  const chat = dlg2chat(messages, aim, hist);
  chat.pop(); // the prompt's empty reply: the pending placeholder
  const total = system + verdicts.reduce((n, v) => n + v.sentTokens, 0);
  return { messages, chat, verdicts, budget, total, over: total > budget };
}

/**
 * Whether `extra` more tokens sent before the history (the kernel's values turn) leave `plan` as it is:
 * it kept every message and they fit its room. Otherwise it must be planned again in the smaller window.
 */
export function planFits(plan: ContextPlan, extra: number): boolean {
  return plan.total + extra <= plan.budget && plan.verdicts.every((v) => v.verdict === 'kept');
}

/**
 * `m` cut from the front to fit `room` tokens: its text (a prompt's content, then its reply) keeps the
 * longest end that fits, behind the marker. Media and code outputs stay whole. Null when nothing fits.
 */
function shorten(m: Message, room: number, tokens: (m: Message) => number, hist: HistOptions): { message: Message; tokens: number } | null {
  const reply = m.msgType === 'prompt' ? aiOutput(m, hist) : '';
  const make = (keep: number): Message => {
    if (keep > reply.length) return variant(m, `${TRUNCATED_MARK}\n${tail(m.content, keep - reply.length)}`);
    return variant(m, TRUNCATED_MARK, `${TRUNCATED_MARK}\n${tail(reply, keep)}`);
  };
  let best: { message: Message; tokens: number } | null = null;
  let lo = 1;
  let hi = m.content.length + reply.length;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const message = make(mid);
    const t = tokens(message);
    if (t <= room) {
      best = { message, tokens: t };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
