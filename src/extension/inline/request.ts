// One inline request (ghost text or Edit with AI), sent and streamed: the model resolved, the dialog's
// history planned around the request as a prompt's is (its system prompt and mode, CRAFT context, images
// and `#ai` files; request.ts and core/answer), the text gathered, its tokens added to the session's.

import { AnswerRequest, AnswerError, AnswerProvider } from '../answer/providers/provider';
import { ApiKeys } from '../answer/keys';
import { answerInputs, systemPrompt } from '../answer/request';
import { addSessionUsage } from '../answer/sessionUsage';
import { dialogOf } from '../document/dialogCache';
import { INLINE_SYSTEM, Usage, inlinePlan, pricedUsage } from '../../core/answer';
import { InlineTarget } from './target';

export interface InlineAsk {
  /** The request prompt (completionRequest / editRequest). */
  request: string;
  /** The model setting (`provider:model`). */
  model: string;
  /** The most of the dialog sent, in tokens (the model's window is the other limit). */
  maxContextTokens: number;
  /** The answer's budget. */
  replyTokens: number;
}

export interface InlineAnswer {
  text: string;
  aborted: boolean;
  usage?: Usage;
  /** A line for the log: model, messages, tokens. */
  summary: string;
}

/** The provider and request for `ask` at `t`; throws AnswerError when there is no model or key. */
export async function inlineRequest(keys: ApiKeys, t: InlineTarget, ask: InlineAsk): Promise<{ provider: AnswerProvider; request: AnswerRequest; summary: string }> {
  const d = dialogOf(t.nb);
  const { model, aim, craft, media, limits } = await answerInputs(t.nb, d, keys, ask.model);
  const history = t.history();
  const { system } = systemPrompt(d);
  const plan = inlinePlan(history, ask.request, { maxContextTokens: ask.maxContextTokens, maxInputTokens: limits.maxInputTokens, replyTokens: ask.replyTokens }, { system, aim, hist: media });
  const left = plan.verdicts.filter((v) => v.verdict !== 'kept').length;
  const summary = `${model.setting}: ${plan.chat.length} messages, ~${plan.total} tokens of the dialog${left ? ` (${left} older messages cut or left out)` : ''}`;
  const request: AnswerRequest = {
    model: model.choice.model,
    system: [system, INLINE_SYSTEM].filter(Boolean).join('\n\n'),
    messages: [...craft.chat, ...plan.chat],
    maxTokens: ask.replyTokens,
  };
  return { provider: model.provider, request, summary };
}

/**
 * Asks and streams: `show` gets the text so far on every delta. Ends on the model's end or on `signal`
 * (then `aborted`, with what arrived). Throws AnswerError on a failure. The usage counts in the
 * dialog's session total whatever the end.
 */
export async function askInline(keys: ApiKeys, t: InlineTarget, ask: InlineAsk, signal: AbortSignal, show?: (text: string) => void): Promise<InlineAnswer> {
  const { provider, request, summary } = await inlineRequest(keys, t, ask);
  let text = '';
  let usage: Usage | undefined;
  let aborted = signal.aborted;
  try {
    if (!aborted) {
      for await (const e of provider.answer(request, signal)) {
        if (e.type === 'text') {
          text += e.text;
          show?.(text);
        } else if (e.type === 'usage') usage = e.usage;
        else if (e.type === 'end' && e.reason === 'aborted') aborted = true;
      }
    }
  } catch (e) {
    if (!signal.aborted) throw e instanceof AnswerError ? e : new AnswerError('other', e instanceof Error ? e.message : String(e));
    aborted = true;
  } finally {
    if (usage) addSessionUsage(t.nb, pricedUsage(usage, ask.model));
  }
  return { text, aborted: aborted || signal.aborted, usage, summary };
}
