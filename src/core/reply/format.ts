// Reply markdown ↔ canonical chat messages (reply-format §6–§8): `fmt2hist` parses a reply into
// assistant/tool turns, `hist2fmt` renders turns back into a reply in either wire style.

import { Json, isJsonObject, JsonObject, parseJson } from '../base/json';
import { convToolEnvelopes, convTools, mkDetailsBlock } from './legacyDetails';
import { Msg, Part, textPart, thinkingPart, ThinkingPart, toolResult, toolUse } from '../hist/parts';
import { fencedBlocks, mkToolBlock, pendingRow, removeBlocks, removeThink, thinkBlock, thinkTexts, THINK_START, TOOL_INFO, toolText, USAGE_INFO } from './blocks';
import { pyStrip } from '../python/text';

export * from './blocks';
export * from './legacyDetails';

/** The two wire forms of a tool call in a reply (DECISIONS, "reply wire format"). */
export type ReplyStyle = 'details' | 'fenced';

const RESULT_OPEN = '\n`````result\n';
const RESULT_CLOSE = '\n`````\n';

/**
 * The result fences of a text (§8): newline, 5 backticks + `result`, the shortest body, newline, 5
 * backticks, newline. Found with indexOf: the lazy regex rescanned to the end for every unclosed one.
 */
function resultFences(text: string): { index: number; end: number; body: string }[] {
  const out: { index: number; end: number; body: string }[] = [];
  let at = 0;
  for (;;) {
    const k = text.indexOf(RESULT_OPEN, at);
    if (k < 0) break;
    const b = k + RESULT_OPEN.length;
    const c = text.indexOf(RESULT_CLOSE, b);
    if (c < 0) break; // no later opening can close either
    out.push({ index: k, end: c + RESULT_CLOSE.length, body: text.slice(b, c) });
    at = c + RESULT_CLOSE.length;
  }
  return out;
}

/** Splits assistant messages on result fences: results become user turns, calls move last (§8). */
export function splitResultFences(msgs: Msg[]): Msg[] {
  const out: Msg[] = [];
  for (const m of msgs) {
    const hasFence = m.role === 'assistant' && m.content.some((p) => p.type === 'text' && resultFences(p.text).length > 0);
    if (!hasFence) {
      out.push(m);
      continue;
    }
    const thinks: ThinkingPart[] = [];
    const rest: Part[] = [];
    for (const p of m.content) {
      if (p.type === 'thinking') thinks.push(p);
      else if (p.type !== 'text') rest.push(p);
      else {
        let at = 0;
        const piece = (s: string) => {
          const t = pyStrip(s);
          if (t) out.push({ role: 'assistant', content: [...thinks, textPart(t)] });
        };
        for (const f of resultFences(p.text)) {
          piece(p.text.slice(at, f.index));
          out.push({ role: 'user', content: [textPart(RESULT_OPEN + f.body + RESULT_CLOSE)] });
          at = f.end;
        }
        piece(p.text.slice(at));
      }
    }
    if (rest.length) out.push({ role: 'assistant', content: rest });
  }
  return out;
}

const FENCE_CALL_OPEN = /(?:^|\n)`````(py|bash)\n/;

/**
 * `extract_fence_call`: the trailing `````py / `````bash fence of a text, or null. The reference's
 * `(?:^|\n)`````(py|bash)\n([\s\S]*?)\n`````\s*$`, without its rescans: the closing can only be the
 * last line (all that follows is whitespace), and the body starts at the first opening before it.
 */
export function extractFenceCall(text: string): [string, string] | null {
  const t = text.trimEnd(); // exactly JS `\s`
  const close = t.length - 6;
  if (close < 0 || !t.endsWith('\n`````')) return null;
  const m = FENCE_CALL_OPEN.exec(t);
  if (!m || m.index + m[0].length > close) return null;
  return [m[1], t.slice(m.index + m[0].length, close)];
}

function dot(): Msg {
  return { role: 'assistant', content: [textPart('.')] };
}

/** A parsed tool block that fmt2hist can use: an object, not server-side, with an id and a name. */
function usableCall(v: Json): JsonObject | undefined {
  if (!isJsonObject(v) || v.server || v.id === undefined || v.id === null) return undefined;
  return typeof v.name === 'string' ? v : undefined;
}

export interface Fmt2histOptions {
  /**
   * Keep legacy token-usage envelopes as prose instead of dropping them. `reply2dlg` uses it: the
   * reference keeps them there (it reads no legacy envelope), and an implode should not lose them.
   */
  keepLegacyUsage?: boolean;
  /**
   * Read think blocks as thinking parts at the start of the first assistant turn (`showthink` on, so
   * `hist2fmt` writes them back). Off by default: the history drops them (§6), and the wires never
   * send a thinking part as text.
   */
  keepThinking?: boolean;
}

/**
 * `fmt2hist`: a reply as canonical turns (§6). Legacy envelopes are converted first (port decision
 * §10); usage, think and server blocks are dropped; a trailing tool turn gains an assistant ".".
 */
export function fmt2hist(reply: string, opts: Fmt2histOptions = {}): Msg[] {
  let text = opts.keepLegacyUsage ? convToolEnvelopes(reply) : convTools(reply);
  if (text.includes(USAGE_INFO)) text = removeBlocks(text, USAGE_INFO);
  const thinks = opts.keepThinking && text.includes(THINK_START) ? thinkTexts(text).map((t) => thinkingPart(t, true)) : [];
  if (text.includes(THINK_START)) text = removeThink(text);
  if (thinks.length) return withThinking(fmt2hist(text, { ...opts, keepThinking: false }), thinks);
  if (!text.includes(TOOL_INFO)) return splitResultFences([{ role: 'assistant', content: [textPart(pyStrip(text) || '.')] }]);

  text = pyStrip(text);
  const out: Msg[] = [];
  let asst: Part[] = [];
  let tools: Part[] = [];
  const flush = () => {
    if (asst.length) out.push({ role: 'assistant', content: asst });
    if (tools.length) out.push({ role: 'tool', content: tools });
    asst = [];
    tools = [];
  };
  const prose = (s: string) => {
    const t = pyStrip(s);
    if (!t) return;
    if (tools.length) flush();
    asst.push(textPart(t));
  };
  let at = 0;
  for (const b of fencedBlocks(text)) {
    if (b.info !== TOOL_INFO) continue;
    let v: Json;
    try {
      v = parseJson(b.body).value;
    } catch {
      continue; // invalid JSON is prose
    }
    prose(text.slice(at, b.start));
    at = b.end;
    const call = usableCall(v);
    if (!call) continue;
    const id = String(call.id);
    const name = call.name as string;
    asst.push(toolUse(id, name, isJsonObject(call.args) ? call.args : {}));
    tools.push(toolResult(id, name, toolText(call.result ?? null)));
  }
  prose(text.slice(at));
  flush();
  const msgs = splitResultFences(out.length ? out : [dot()]);
  if (msgs.length && msgs[msgs.length - 1].role === 'tool') msgs.push(dot());
  return msgs;
}

/** `msgs` with `thinks` in front of the first assistant turn's parts. */
function withThinking(msgs: Msg[], thinks: ThinkingPart[]): Msg[] {
  const k = msgs.findIndex((m) => m.role === 'assistant');
  if (k < 0) return [{ role: 'assistant', content: thinks }, ...msgs];
  const out = msgs.slice();
  out[k] = { ...out[k], content: [...thinks, ...out[k].content] };
  return out;
}

export interface Hist2fmtOptions {
  mx?: number | null;
  showthink?: boolean;
  /** Wire style of the tool blocks; `fenced` is the reference's, `details` the seeds' (fastllm). */
  style?: ReplyStyle;
}

/**
 * `hist2fmt`: assistant and tool turns rendered as reply markdown (§7). Calls are held until their
 * result arrives, so text after a call in the same turn comes before the call's block.
 */
export function hist2fmt(msgs: Msg[], mx: number | null = 2000, showthink = false, style: ReplyStyle = 'fenced'): string {
  const block = style === 'details' ? mkDetailsBlock : mkToolBlock;
  const pending = new Map<string | null, Extract<Part, { type: 'tool_use' }>>();
  const out: string[] = [];
  for (const m of msgs) {
    if (m.role === 'assistant') {
      for (const p of m.content) {
        if (p.type === 'tool_use' && !p.server) pending.set(p.id, p);
        else if (p.type === 'tool_use') out.push(pyStrip(block({ id: p.id, name: p.name, arguments: p.arguments, text: 'Server tool call executed.', server: true }, mx)));
        else if (p.type === 'text' || p.type === 'refusal') out.push(pyStrip(p.text));
        else if (p.type === 'thinking') out.push(showthink && pyStrip(p.text) ? thinkBlock(p.text) : '');
        else if (p.type === 'tool_result' || p.type === 'server_tool_result') continue; // Gemini code execution: no id to re-parse
        else out.push(p.text);
      }
    } else if (m.role === 'tool') {
      for (const p of m.content) {
        if (p.type !== 'tool_result' || p.id === null || p.id === undefined) continue;
        const call = pending.get(p.id);
        pending.delete(p.id);
        out.push(pyStrip(block({ id: p.id, name: p.name, arguments: call?.arguments ?? {}, text: p.text, server: p.server }, mx)));
      }
    } else throw new Error(`hist2fmt renders assistant and tool messages only, got '${m.role}'`);
  }
  for (const p of pending.values()) out.push(pendingRow(p.name, p.arguments));
  return out.filter((s) => s).join('\n\n');
}
