// What every model provider offers the dialog controller: one streamed answer to a canonical chat.

import type { Msg } from '../../../core';
import type { AnswerEvent, ErrorKind } from '../../../core/answer';
import type { ToolSchema } from '../../kernel/hostTools';

export type { AnswerEvent };

export type ProviderId = 'anthropic' | 'openai' | 'vscode-lm';

export interface AnswerRequest {
  /** The provider's model id (`dialogNotebook.model` after the `provider:` prefix). */
  model: string;
  system?: string;
  /** The context plan's `chat`: ends with the prompt's user turn. */
  messages: readonly Msg[];
  /** The reply budget (`max_tokens`), the same the context plan reserved. */
  maxTokens: number;
  /** Functions the model may call now (the ``&`fn` `` of the dialog's kernel); none: it may call nothing. */
  tools?: readonly ToolSchema[];
  /** Offer the provider's own server-side web search (Anthropic's; `dialogNotebook.web.enabled`). */
  webSearch?: boolean;
  /** `none`: the tools are declared (the history's calls of them stay tool turns) but none may be called now. */
  toolChoice?: 'none';
  /** Think before answering (the prompt's 🧠 switch): Anthropic's budget, or an OpenAI `reasoning_effort`. */
  thinking?: { budgetTokens: number; effort: 'minimal' | 'low' | 'medium' | 'high' };
}

export interface AnswerProvider {
  readonly id: ProviderId;
  /**
   * Streams the answer: text / thinking deltas and tool calls in order, `usage`, `retry` waits (rate
   * limits, overload), and one `end` (`aborted` when `signal` fired: what arrived stays valid). Failures
   * other than an abort throw `AnswerError`.
   */
  answer(request: AnswerRequest, signal: AbortSignal): AsyncIterable<AnswerEvent>;
  /** Loads what the first answer would (its SDK, the client) and makes `request`'s body beforehand, sending nothing. */
  prepare?(request?: AnswerRequest): Promise<void>;
}

/** `no-key` / `no-model`: nothing to send with, before any request; the rest as `classifyError` says. */
export type AnswerErrorKind = Exclude<ErrorKind, 'aborted'> | 'no-key' | 'no-model';

/** A failed answer, with the provider's message (keys redacted) for the cell's error output. */
export class AnswerError extends Error {
  constructor(
    readonly kind: AnswerErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AnswerError';
  }
}
