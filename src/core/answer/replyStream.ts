// A streamed answer as canonical messages: providers turn their wire events into `AnswerEvent`s, a
// `ReplyBuilder` gathers them into the assistant `Msg`, and the reply markdown is `hist2fmt` of that, the
// usage block and, for a stopped answer, the interrupted marker: Solveit's own reply format.

import { JsonObject } from '../base';
import { INTERRUPTED, Msg, Part, textPart, thinkingPart, toolUse } from '../hist';
import { ReplyStyle, hist2fmt } from '../reply';
import { Usage, UsageForm, usageRecord } from './cost';

/** Why an answer ended, across providers (`end_turn`/`stop` → stop, `max_tokens`/`length` → length …). */
export type StopReason = 'stop' | 'length' | 'tool_use' | 'refusal' | 'aborted' | 'other';

export type AnswerEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  /** A complete tool call (providers buffer the streamed arguments until the call closes). */
  | { type: 'tool_use'; id: string; name: string; arguments: JsonObject; server?: boolean }
  /** The usage so far; a later event replaces an earlier one. */
  | { type: 'usage'; usage: Usage }
  /** A rate limit or overload: retry `retry` of `of` follows after `delayMs`. */
  | { type: 'retry'; retry: number; of: number; delayMs: number; message: string }
  | { type: 'end'; reason: StopReason };

export interface ReplyOptions {
  /** `hist2fmt`'s truncation of tool blocks (2000, null for none). */
  mx?: number | null;
  showthink?: boolean;
  style?: ReplyStyle;
}

export interface UsageOptions {
  usage?: Usage;
  /** How the usage is recorded (default: the fenced block). */
  usageForm?: UsageForm;
  /** The model named in the `<details>` fold's detail line. */
  model?: string;
  interrupted?: boolean;
}

/** The reply markdown for assistant/tool messages, then the usage record, then the marker if stopped. */
export function replyMarkdown(msgs: Msg[], opts: ReplyOptions & UsageOptions = {}): string {
  let s = hist2fmt(msgs, opts.mx === undefined ? 2000 : opts.mx, opts.showthink ?? false, opts.style ?? 'fenced');
  if (opts.usage) {
    const u = usageRecord(opts.usage, opts.usageForm ?? 'fenced', opts.model);
    s = s ? `${s}\n\n${u}` : u;
  }
  // `ai_fmt` strips one trailing "\n" + marker, so the marker goes last, on its own line.
  if (opts.interrupted) s = s ? `${s}\n${INTERRUPTED}` : INTERRUPTED;
  return s;
}

/** Gathers an answer's events; `retry` events are the caller's to show and change nothing here. */
export class ReplyBuilder {
  readonly parts: Part[] = [];
  usage?: Usage;
  reason?: StopReason;

  add(e: AnswerEvent): void {
    const last = this.parts[this.parts.length - 1];
    switch (e.type) {
      case 'text':
      case 'thinking':
        if (last?.type === e.type) last.text += e.text;
        else this.parts.push(e.type === 'text' ? textPart(e.text) : thinkingPart(e.text));
        break;
      case 'tool_use':
        this.parts.push(toolUse(e.id, e.name, e.arguments, e.server ?? false));
        break;
      case 'usage':
        this.usage = e.usage;
        break;
      case 'end':
        this.reason = e.reason;
        break;
    }
  }

  /** The answer as canonical messages: one assistant message, or none before anything arrived. */
  messages(): Msg[] {
    return this.parts.length ? [{ role: 'assistant', content: this.parts.map((p) => ({ ...p })) }] : [];
  }

  /** The reply so far (while streaming) or the final one; the marker when the answer was stopped. */
  markdown(opts: ReplyOptions = {}): string {
    return replyMarkdown(this.messages(), { ...opts, usage: this.usage, interrupted: this.reason === 'aborted' });
  }
}
