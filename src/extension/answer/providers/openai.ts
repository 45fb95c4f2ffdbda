// Answers from any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, LiteLLM, OpenRouter),
// streamed through `openai`, which is imported on the first answer, not at activation (dist/lazy/, scripts/build.mjs).

import type OpenAI from 'openai';
import { StopReason, Usage } from '../../../core/answer';
import { AnswerError, AnswerEvent, AnswerProvider, AnswerRequest } from './provider';
import { openaiParams } from './openaiWire';
import { withRetries } from './retrying';
import { LastBody, callArgs } from './wire';
import { HostKind, noKeyMessage } from '../../secretHints';

export interface OpenAIOptions {
  /** Keyless local servers (Ollama) take any non-empty string. */
  apiKey: string;
  /** `dialogNotebook.openai.baseUrl`; empty: the SDK's own `OPENAI_BASE_URL`, else OpenAI's. */
  baseUrl?: string;
  /** Where the extension runs, for the no-key message (default: the desktop). */
  host?: HostKind;
}

const STOPS: Record<string, StopReason> = { stop: 'stop', length: 'length', tool_calls: 'tool_use', function_call: 'tool_use', content_filter: 'refusal' };

function usage(u: OpenAI.CompletionUsage & { cost?: unknown }): Usage {
  const res: Usage = { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens };
  if (u.prompt_tokens_details?.cached_tokens) res.cached_tokens = u.prompt_tokens_details.cached_tokens;
  if (u.completion_tokens_details?.reasoning_tokens) res.reasoning_tokens = u.completion_tokens_details.reasoning_tokens;
  if (typeof u.cost === 'number') res.cost = u.cost; // OpenRouter, LiteLLM
  return res;
}

/** Reasoning text, which compatible servers stream beside `content` under one of these names. */
function reasoning(delta: object): string | undefined {
  const d = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const r = d.reasoning_content ?? d.reasoning;
  return typeof r === 'string' && r ? r : undefined;
}

export class OpenAIProvider implements AnswerProvider {
  readonly id = 'openai';
  private client?: Promise<OpenAI>;
  private readonly body = new LastBody(openaiParams);

  constructor(private readonly opts: OpenAIOptions) {}

  private sdk(): Promise<OpenAI> {
    // `undefined`, not '', lets the SDK read OPENAI_BASE_URL.
    return (this.client ??= import('openai').then(({ default: Sdk }) => new Sdk({
      apiKey: this.opts.apiKey,
      baseURL: this.opts.baseUrl || undefined,
      maxRetries: 0,
      dangerouslyAllowBrowser: true, // the browser build: the user's own key, from SecretStorage
    })));
  }

  async prepare(req?: AnswerRequest): Promise<void> {
    if (!this.opts.apiKey) return;
    await this.sdk();
    if (req) this.body.of(req);
  }

  async *answer(req: AnswerRequest, signal: AbortSignal): AsyncIterable<AnswerEvent> {
    // The SDK throws without a key; this reports that instead.
    if (!this.opts.apiKey) throw new AnswerError('no-key', noKeyMessage('openai', this.opts.host ?? 'desktop'));
    const client = await this.sdk();
    yield* withRetries('The OpenAI-compatible endpoint', () => this.attempt(client, req, signal), signal, [this.opts.apiKey]);
  }

  private async *attempt(client: OpenAI, req: AnswerRequest, signal: AbortSignal): AsyncIterable<AnswerEvent> {
    const stream = await client.chat.completions.create(this.body.of(req), { signal });
    const calls: { id: string; name: string; json: string }[] = [];
    let reason: StopReason = 'other';
    for await (const chunk of stream) {
      if (chunk.usage) yield { type: 'usage', usage: usage(chunk.usage) };
      const choice = chunk.choices[0];
      if (!choice) continue;
      const d = choice.delta;
      const think = reasoning(d);
      if (think) yield { type: 'thinking', text: think };
      if (d.content) yield { type: 'text', text: d.content };
      if (d.refusal) yield { type: 'text', text: d.refusal };
      for (const t of d.tool_calls ?? []) {
        const c = (calls[t.index] ??= { id: '', name: '', json: '' });
        c.id ||= t.id ?? '';
        c.name += t.function?.name ?? '';
        c.json += t.function?.arguments ?? '';
      }
      if (choice.finish_reason) reason = STOPS[choice.finish_reason] ?? 'other';
    }
    // Calls arrive as argument fragments: they are complete only once the stream is.
    if (!signal.aborted) for (const c of calls) if (c) yield { type: 'tool_use', id: c.id, name: c.name, arguments: callArgs(c.json) };
    yield { type: 'end', reason: signal.aborted ? 'aborted' : reason };
  }
}
