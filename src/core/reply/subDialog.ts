// A reply as a sub-dialog (reply-format §11–§13): `reply2dlg` explodes a prompt's reply into notes and
// code messages whose source is the literal call; `dlg2reply` implodes them back, in the wire style
// the reply already used (DECISIONS, "reply wire format").

import { JsonObject } from '../base/json';
import { LegacyBlock, legacyToolBlocks, mkDetailsBlock } from './legacyDetails';
import { codeOutput, Dialog, Message } from '../model/dialog';
import { aiRes } from '../model/outputs';
import { isIdentifier, LiteralCall, parseLiteralCall, pyRepr, pyToJson } from '../python';
import { pyStrip } from '../python/text';
import { renderOutputsAi } from '../hist/render';
import { fmt2hist, mkToolBlock, ReplyStyle } from './format';
import { editEnvelope } from './editEnvelope';

/** `sub.meta` key remembering the wire style of the exploded reply. */
export const REPLY_STYLE_KEY = 'reply_style';
/** The style of a reply that had no tool blocks (DECISIONS: the seeds' `<details>`). */
export const DEFAULT_REPLY_STYLE: ReplyStyle = 'details';

export class ReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValueError';
  }
}

/**
 * What a legacy (`<details>`) reply looked like where a message came from. The reference keeps such a
 * reply byte-exact (to it, the whole reply is one note), so an unedited explode/implode must too: an
 * unedited envelope is written back as it was (summary lines and JSON escaping vary by writer), and
 * the whitespace between two messages that are still neighbours is the original one.
 */
interface Origin {
  /** The exact bytes the message stands for: the envelope, or the note's prose. */
  text: string;
  /** The whitespace that preceded it, and the message it followed (null: the reply's start). */
  before: string;
  prev: Message | null;
  /** For a code message: the call as exploded, to tell whether it was edited. */
  call?: { content: string; result: string; id: string };
}
const origins = new WeakMap<Message, Origin>();
/** The whitespace after the last message of an exploded legacy reply. */
const trailers = new WeakMap<Dialog, { last: Message; after: string }>();

/** The wire style a reply uses: `details` if it holds a legacy envelope, `fenced` if a fenced block, else none. */
export function replyStyle(reply: string): ReplyStyle | null {
  if (legacyToolBlocks(reply).length) return 'details';
  return fmt2hist(reply).some((m) => m.role === 'tool') ? 'fenced' : null;
}

function checkName(name: string): void {
  if (!name.split('.').every(isIdentifier)) throw new ReplyError(`not a dotted Python identifier: ${name}`);
}

/** `reply2dlg`: a prompt's reply as a Dialog of notes and code messages (§11). */
export function reply2dlg(prompt: Message): Dialog {
  const reply = aiRes(prompt);
  const sub = new Dialog([], prompt.id);
  const style = replyStyle(reply);
  if (style) sub.meta[REPLY_STYLE_KEY] = style;
  // Envelopes by call id, each list reversed so pop() takes the first (a scan per call would be quadratic).
  const envelopes = new Map<string, LegacyBlock[]>();
  for (const e of style === 'details' ? legacyToolBlocks(reply) : []) {
    if (e.id === null) continue;
    const list = envelopes.get(String(e.id));
    if (list) list.push(e);
    else envelopes.set(String(e.id), [e]);
  }
  for (const list of envelopes.values()) list.reverse();
  const msgs = fmt2hist(reply, { keepLegacyUsage: true });
  const results = new Map<string | null, string>();
  for (const m of msgs) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool_result') results.set(p.id, p.text);
  // Layout memory (legacy replies only): each message's bytes are looked up after the previous one;
  // a gap that is not pure whitespace (a dropped block, say) breaks the chain there.
  let cursor: number | null = style === 'details' ? 0 : null;
  let prev: Message | null = null;
  const remember = (m: Message, text: string, call?: Origin['call']) => {
    const at = cursor === null ? -1 : reply.indexOf(text, cursor);
    const before = at < 0 ? '' : reply.slice(cursor!, at);
    if (at >= 0 && !/\S/.test(before)) {
      origins.set(m, { text, before, prev, call });
      cursor = at + text.length;
    } else cursor = null;
    prev = m;
  };
  for (const m of msgs) {
    if (m.role === 'tool') continue;
    for (const p of m.content) {
      if (p.type === 'tool_use') {
        checkName(p.name);
        const keys = Object.keys(p.arguments);
        const bad = keys.find((k) => !isIdentifier(k));
        if (bad !== undefined) throw new ReplyError(`not a Python identifier: ${bad}`);
        const content = `${p.name}(${keys.map((k) => `${k}=${pyRepr(p.arguments[k])}`).join(', ')})`;
        const result = results.get(p.id) ?? '';
        const cm = sub.mkMessage({ msgType: 'code', content, output: codeOutput(result), meta: { tool_id: p.id } });
        const env = p.id === null ? undefined : envelopes.get(p.id)?.pop();
        if (env) remember(cm, reply.slice(env.start, env.end), { content, result, id: p.id! });
        else cursor = null;
      } else if (p.type === 'text' && p.text) remember(sub.mkMessage({ msgType: 'note', content: p.text }), p.text);
    }
  }
  if (cursor !== null && prev && !/\S/.test(reply.slice(cursor))) trailers.set(sub, { last: prev, after: reply.slice(cursor) });
  return sub;
}

function randomHex16(): string {
  let s = '';
  for (let k = 0; k < 16; k++) s += Math.floor(Math.random() * 16).toString(16);
  return s;
}

export interface Dlg2replyOptions {
  /** Wire style for the tool blocks; default: the style the reply had, else DEFAULT_REPLY_STYLE. */
  style?: ReplyStyle;
}

/** `dlg2reply`: a sub-dialog back as reply markdown (§13). Gives code messages without one a `meta.tool_id`. */
export function dlg2reply(sub: Dialog, opts: Dlg2replyOptions = {}): string {
  const stored = sub.meta[REPLY_STYLE_KEY];
  const style: ReplyStyle = opts.style ?? (stored === 'fenced' || stored === 'details' ? stored : DEFAULT_REPLY_STYLE);
  let out = '';
  let prev: Message | null = null;
  for (const m of sub.messages) {
    const origin = origins.get(m);
    const text = emission(m, style, origin);
    if (!text) continue;
    // Two messages that are still neighbours keep the whitespace between them, edited or not.
    const keep = !!origin && origin.prev === prev && style === 'details';
    out += keep ? origin.before : prev ? '\n\n' : '';
    out += text;
    prev = m;
  }
  const tail = trailers.get(sub);
  if (tail && tail.last === prev && style === 'details') out += tail.after;
  return out;
}

/** The text one message contributes to the reply (§13), before joining. */
function emission(m: Message, style: ReplyStyle, origin: Origin | undefined): string {
  if (m.msgType !== 'code') return pyStrip(m.content);
  const call = parseLiteralCall(m.content);
  if (!call) throw new ReplyError(`not a keyword-only tool call: ${pyRepr(m.content)}`);
  if (typeof m.meta.tool_id !== 'string' || !m.meta.tool_id) m.meta.tool_id = 'call_' + randomHex16();
  const id = m.meta.tool_id as string;
  const text = renderOutputsAi(m.output);
  const was = origin?.call;
  if (style === 'details' && was && was.content === m.content && was.result === text && was.id === id) return origin!.text;
  const args = pyToJson(call.arguments) as JsonObject;
  if (style === 'details' && was && was.id === id) {
    // An edited call keeps its envelope's form: only the changed fields are rewritten.
    const edited = editEnvelope(origin!.text, { call: was.content === m.content ? undefined : { name: call.name, args }, result: was.result === text ? undefined : text });
    if (edited !== undefined) return edited;
  }
  const block = style === 'details' ? mkDetailsBlock : mkToolBlock;
  return pyStrip(block({ id, name: call.name, arguments: args, text }, null));
}

/** `Message.tool_call`: the literal call a code message's source is, else null; no side effects (§12). */
export function toolCall(m: Message): LiteralCall | null {
  return m.msgType === 'code' ? parseLiteralCall(m.content) : null;
}
