// A reply as a sub-dialog (reply-format §11–§13): `reply2dlg` explodes a prompt's reply into notes and
// code messages whose source is the literal call; `dlg2reply` implodes them back, in the wire style
// the reply already used (DECISIONS, "reply wire format").

import { JsonObject } from './json';
import { legacyToolBlocks, mkDetailsBlock } from './legacyDetails';
import { codeOutput, Dialog, Message } from './model';
import { aiRes } from './outputs';
import { isIdentifier, LiteralCall, parseLiteralCall, pyRepr, pyToJson } from './pyrepr';
import { pyStrip } from './pyText';
import { renderOutputsAi } from './render';
import { fmt2hist, mkToolBlock, ReplyStyle } from './replyFormat';

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
 * The envelope bytes a code message was exploded from, with the call it held: an unedited legacy
 * envelope is written back as it was (its summary line and JSON escaping vary by writer).
 */
interface Origin {
  envelope: string;
  content: string;
  result: string;
  id: string;
}
const origins = new WeakMap<Message, Origin>();

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
  const envelopes = style === 'details' ? legacyToolBlocks(reply) : [];
  const msgs = fmt2hist(reply);
  const results = new Map<string | null, string>();
  for (const m of msgs) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool_result') results.set(p.id, p.text);
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
        const k = envelopes.findIndex((e) => e.id !== null && String(e.id) === p.id);
        if (k >= 0 && p.id !== null) {
          const env = envelopes.splice(k, 1)[0];
          origins.set(cm, { envelope: reply.slice(env.start, env.end), content, result, id: p.id });
        }
      } else if (p.type === 'text' && p.text) sub.mkMessage({ msgType: 'note', content: p.text });
    }
  }
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
  const out: string[] = [];
  for (const m of sub.messages) {
    if (m.msgType !== 'code') {
      out.push(pyStrip(m.content));
      continue;
    }
    const call = parseLiteralCall(m.content);
    if (!call) throw new ReplyError(`not a keyword-only tool call: ${pyRepr(m.content)}`);
    if (typeof m.meta.tool_id !== 'string' || !m.meta.tool_id) m.meta.tool_id = 'call_' + randomHex16();
    const id = m.meta.tool_id as string;
    const text = renderOutputsAi(m.output);
    const origin = origins.get(m);
    if (style === 'details' && origin && origin.content === m.content && origin.result === text && origin.id === id) {
      out.push(origin.envelope);
      continue;
    }
    const args = pyToJson(call.arguments) as JsonObject;
    const block = style === 'details' ? mkDetailsBlock : mkToolBlock;
    out.push(pyStrip(block({ id, name: call.name, arguments: args, text }, null)));
  }
  return out.filter((s) => s).join('\n\n');
}

/** `Message.tool_call`: the literal call a code message's source is, else null; no side effects (§12). */
export function toolCall(m: Message): LiteralCall | null {
  return m.msgType === 'code' ? parseLiteralCall(m.content) : null;
}
