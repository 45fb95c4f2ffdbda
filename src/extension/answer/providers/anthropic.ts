// Answers from Anthropic's Messages API, streamed through `@anthropic-ai/sdk`, which is imported on the
// first answer, not at activation (dist/lazy/, scripts/build.mjs).

import type Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import { StopReason, Usage } from '../../../core/answer';
import { AnswerError, AnswerEvent, AnswerProvider, AnswerRequest } from './provider';
import { anthropicParams } from './anthropicWire';
import { withRetries } from './retrying';
import { LastBody, callArgs } from './wire';
import { HostKind, noKeyMessage } from '../../secretHints';

export interface AnthropicOptions {
  apiKey: string;
  /** `dialogNotebook.anthropic.baseUrl`; empty: the SDK's own `ANTHROPIC_BASE_URL`, else Anthropic's. */
  baseUrl?: string;
  /** Where the extension runs, for the no-key message (default: the desktop). */
  host?: HostKind;
}

const STOPS: Record<string, StopReason> = { end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool_use', refusal: 'refusal' };

/** Anthropic counts cached input apart from `input_tokens`; the usage block's `prompt_tokens` is all input. */
function usage(u: Partial<Anthropic.MessageDeltaUsage>, output: number): Usage {
  const read = u.cache_read_input_tokens ?? 0;
  const write = u.cache_creation_input_tokens ?? 0;
  const input = (u.input_tokens ?? 0) + read + write;
  const res: Usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
  if (read) res.cached_tokens = read;
  if (write) res.cache_creation_tokens = write;
  const searches = u.server_tool_use?.web_search_requests;
  if (searches) res.web_search_requests = searches;
  return res;
}

/** A cited source as the reply's link: ` ([title](url))`, once per text block and URL. */
function sourceLinks(citations: readonly Anthropic.TextCitation[]): string {
  const seen = new Map<string, string>();
  for (const c of citations) if (c.type === 'web_search_result_location' && !seen.has(c.url)) seen.set(c.url, c.title ?? c.url);
  return [...seen].map(([url, title]) => ` ([${title.replace(/[[\]]/g, '')}](${url}))`).join('');
}

export class AnthropicProvider implements AnswerProvider {
  readonly id = 'anthropic';
  private client?: Promise<Anthropic>;
  /**
   * The body as the bytes sent, made once per request (by the warm-up, before Ctrl+Enter): in a busy
   * extension host serialising and encoding a big history takes tens of ms (750 kB: 40–60 ms).
   */
  private readonly body = new LastBody((req) => new TextEncoder().encode(JSON.stringify({ ...anthropicParams(req), stream: true })));

  constructor(private readonly opts: AnthropicOptions) {}

  private sdk(): Promise<Anthropic> {
    // `undefined`, not '', lets the SDK read ANTHROPIC_BASE_URL; our retry loop reports each wait.
    return (this.client ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => new Sdk({
      apiKey: this.opts.apiKey || null,
      baseURL: this.opts.baseUrl || undefined,
      maxRetries: 0,
      // The browser build calls the API from a web worker; the key is the user's own (SecretStorage).
      // In a browser this also sends the header Anthropic's CORS requires.
      dangerouslyAllowBrowser: true,
    })));
  }

  async prepare(req?: AnswerRequest): Promise<void> {
    if (!this.opts.apiKey) return;
    await this.sdk();
    if (req) this.body.of(req);
  }

  async *answer(req: AnswerRequest, signal: AbortSignal): AsyncIterable<AnswerEvent> {
    if (!this.opts.apiKey) throw new AnswerError('no-key', noKeyMessage('anthropic', this.opts.host ?? 'desktop'));
    yield* withRetries('Anthropic', () => this.attempt(req, signal), signal, [this.opts.apiKey]);
  }

  private async *attempt(req: AnswerRequest, signal: AbortSignal): AsyncIterable<AnswerEvent> {
    // `messages.create` with these bytes: the SDK's own POST, which sends a byte body as it is.
    const stream = await (await this.sdk()).post<Stream<Anthropic.RawMessageStreamEvent>>('/v1/messages', { body: this.body.of(req), headers: { 'content-type': 'application/json' }, stream: true, signal });
    const calls = new Map<number, { id: string; name: string; json: string; server: boolean }>();
    /** The web search citations of each text block, written as links when the block ends. */
    const cited = new Map<number, Anthropic.TextCitation[]>();
    let input: Partial<Anthropic.MessageDeltaUsage> = {};
    let reason: StopReason = 'other';
    for await (const ev of stream) {
      switch (ev.type) {
        case 'message_start':
          input = ev.message.usage;
          yield { type: 'usage', usage: usage(input, ev.message.usage.output_tokens) };
          break;
        case 'content_block_start': {
          const b = ev.content_block;
          if (b.type === 'text' && b.text) yield { type: 'text', text: b.text };
          else if (b.type === 'thinking' && b.thinking) yield { type: 'thinking', text: b.thinking };
          else if (b.type === 'tool_use' || b.type === 'server_tool_use') calls.set(ev.index, { id: b.id, name: b.name, json: '', server: b.type === 'server_tool_use' });
          break;
        }
        case 'content_block_delta': {
          const d = ev.delta;
          if (d.type === 'text_delta') yield { type: 'text', text: d.text };
          else if (d.type === 'thinking_delta') yield { type: 'thinking', text: d.thinking };
          else if (d.type === 'citations_delta') cited.set(ev.index, [...(cited.get(ev.index) ?? []), d.citation as Anthropic.TextCitation]);
          else if (d.type === 'input_json_delta') {
            const c = calls.get(ev.index);
            if (c) c.json += d.partial_json;
          }
          break;
        }
        case 'content_block_stop': {
          const sources = cited.get(ev.index);
          if (sources) {
            cited.delete(ev.index);
            const links = sourceLinks(sources);
            if (links) yield { type: 'text', text: links };
          }
          const c = calls.get(ev.index);
          if (!c) break;
          calls.delete(ev.index);
          yield { type: 'tool_use', id: c.id, name: c.name, arguments: callArgs(c.json), server: c.server };
          break;
        }
        case 'message_delta':
          // Cumulative counts; input ones only when they changed (server tools), so keep the start's.
          input = { ...input, ...Object.fromEntries(Object.entries(ev.usage).filter(([, v]) => v != null)) };
          yield { type: 'usage', usage: usage(input, ev.usage.output_tokens) };
          if (ev.delta.stop_reason) reason = STOPS[ev.delta.stop_reason] ?? 'other';
          break;
      }
    }
    // The SDK ends the iteration quietly when aborted: what arrived stands.
    yield { type: 'end', reason: signal.aborted ? 'aborted' : reason };
  }
}
