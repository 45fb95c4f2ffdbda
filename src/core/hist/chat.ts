// The canonical chat projection (ai-projections §9–10): `dlg2chat` for transmission to any provider,
// `chat2dlg` back (canonical, not byte-exact). What is lost on the way is listed in the spec.

import { JsonObject, isJsonObject } from '../base/json';
import { Attachment, Dialog, DialogError, Message } from '../model/dialog';
import { MediaKind, Msg, Part, ToolResultPart, ToolUsePart, mediaPart, mkMsg as msg, textPart } from './parts';
import { fmt2hist, hist2fmt } from '../reply/format';
import { AimInfo, DATA_URL, HistPart, detectMime, isMediaUrl, mediaTagMime } from './media';
import { HistOptions, dlg2hist } from './hist';
import { INSTRUCTIONS } from './xml';
import { varsHist } from './hostRefs';
import { md5, toHex } from '../base/hashes';
import { b64decode } from '../base/base64';
import { encodeBase64 } from '../base/base64';

function mediaKind(mime: string): MediaKind {
  if (mime.startsWith('image/')) return 'input_image';
  if (mime.startsWith('audio/')) return 'input_audio';
  if (mime.startsWith('video/')) return 'input_video';
  return 'input_file';
}

/** The data URL of bytes sent, by the bytes (the scaled images of a dialog are the same arrays from one answer to the next). */
const dataUrls = new WeakMap<Uint8Array, { mime: string; url: string }>();
function dataUrl(bytes: Uint8Array, mime: string): string {
  const hit = dataUrls.get(bytes);
  if (hit?.mime === mime) return hit.url;
  const url = `data:${mime};base64,${encodeBase64(bytes)}`;
  dataUrls.set(bytes, { mime, url });
  return url;
}

/**
 * A user turn as parts. Bytes are typed by their sniffed mime; where sniffing fails (an output declared
 * `image/png` that is not one) the reference raises, we use the mime its `<media>` tag declared
 * (DECISIONS: never crash on undecodable media).
 */
function userParts(turn: HistPart[]): Part[] {
  const res: Part[] = [];
  for (let k = 0; k < turn.length; k++) {
    const p = turn[k];
    if (typeof p === 'string') res.push(textPart(p));
    else if (p instanceof Uint8Array) {
      const mime = detectMime(p) ?? mediaTagMime(turn[k - 1]) ?? 'application/octet-stream';
      res.push(mediaPart(mediaKind(mime), dataUrl(p, mime), mime));
    } else if (isMediaUrl(p)) {
      const mime = p.mime ?? 'application/octet-stream';
      res.push(mediaPart(mediaKind(mime), p.url, mime));
    }
  }
  return res;
}

/**
 * `reply2chat`: a reply parsed by `fmt2hist`, with every batched assistant turn (several calls, then one
 * tool turn with their results) exploded into strict call/result alternation, as live sessions record it.
 */
export function reply2chat(reply: string): Msg[] {
  const msgs = fmt2hist(reply);
  const res: Msg[] = [];
  for (let k = 0; k < msgs.length; k++) {
    const m = msgs[k];
    const calls = m.content.filter((p): p is ToolUsePart => p.type === 'tool_use');
    const next = msgs[k + 1];
    if (m.role !== 'assistant' || calls.length < 2 || next?.role !== 'tool') {
      res.push(m);
      continue;
    }
    const results = next.content.slice();
    const take = (id: string | null): Part[] => {
      const j = results.findIndex((r) => r.type === 'tool_result' && (r as ToolResultPart).id === id);
      return j < 0 ? [] : results.splice(j, 1);
    };
    calls.forEach((c, j) => {
      res.push(msg('assistant', j === 0 ? [...m.content.filter((p) => p.type !== 'tool_use'), c] : [c]));
      res.push(msg('tool', take(c.id)));
    });
    for (const r of results) res[res.length - 1].content.push(r);
    k++;
  }
  return res;
}

/** Each prompt's reply as chat messages, kept while its reply text is the same (parsing replies is most of `dlg2chat`). Shared: read-only. */
const replyChats = new WeakMap<Message, { reply: string; chat: readonly Msg[] }>();
function replyChat(prompt: Message, reply: string): readonly Msg[] {
  const hit = replyChats.get(prompt);
  if (hit && hit.reply === reply) return hit.chat;
  const chat = reply2chat(reply);
  replyChats.set(prompt, { reply, chat });
  return chat;
}

/** `dlg2chat`: `dlg2hist` as canonical messages; `aim` null means vision on. Tool-call ids must be unique. */
export function dlg2chat(d: Dialog | readonly Message[], aim: AimInfo | null = null, opts: HistOptions = {}): Msg[] {
  const prompts: Message[] = [];
  const hist = dlg2hist(d, aim ?? { supports_vision: true }, opts, prompts);
  const res: Msg[] = [];
  for (let k = 0; k < hist.length; k++) {
    const h = hist[k];
    if (k % 2 === 0) res.push(msg('user', userParts(h as HistPart[])));
    else for (const m of replyChat(prompts[k >> 1], h as string)) res.push(m);
  }
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const m of res) {
    for (const p of m.content) {
      if (p.type !== 'tool_use' || p.id == null) continue;
      if (seen.has(p.id)) dups.add(p.id);
      seen.add(p.id);
    }
  }
  if (dups.size) throw new DialogError(`duplicate tool call id(s): ${[...dups].sort().join(', ')}`);
  return res;
}

/** `vars_hist` as canonical messages: the variables user turn and the model's acknowledgement. */
export function varsChat(aim: AimInfo | null, ns: Record<string, unknown>): Msg[] {
  const [user, ack] = varsHist(aim ?? { supports_vision: true }, ns);
  return [msg('user', userParts(user)), msg('assistant', [textPart(ack)])];
}

const ENVELOPE_RE = new RegExp(
  `${INSTRUCTIONS.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n<prompt(?: sid="([^"]*)")?(?: time="[^"]*")?>([\\s\\S]*)</prompt>$`,
);

/** A `Msg` may carry provenance metadata (e.g. `{uid}` from a transcript importer). */
type MsgWithMeta = Msg & { meta?: JsonObject };

function md5Hex8(s: string): string {
  return toHex(md5(new TextEncoder().encode(s))).slice(0, 8);
}

/**
 * `chat2dlg`: one prompt per user turn (leading non-user messages make a stub turn), its reply
 * rendered by `hist2fmt`. Ids are stable: from `meta.uid`, else the envelope's `sid`, else
 * md5(name + U+001F + turn index).
 */
export function chat2dlg(msgs: readonly Msg[], name = '', mx: number | null = 2000): Dialog {
  const turns: { user: MsgWithMeta | null; replies: Msg[] }[] = [];
  for (const m of msgs) {
    if (m.role === 'user') turns.push({ user: m, replies: [] });
    else {
      if (!turns.length) turns.push({ user: null, replies: [] });
      turns[turns.length - 1].replies.push(m);
    }
  }
  const out: Message[] = turns.map((t, idx) => {
    const segs: string[] = [];
    const attachments: Attachment[] = [];
    for (const p of t.user?.content ?? []) {
      if (p.type === 'text') segs.push(p.text);
      else if (p.type === 'input_image') {
        const dataUrl = DATA_URL.exec(p.text);
        if (dataUrl) {
          const a = new Attachment(b64decode(dataUrl[2]), p.mime ?? dataUrl[1]);
          attachments.push(a);
          segs.push(`![](attachment:${a.id})`);
        } else segs.push(`![](${p.text})`);
      } else throw new DialogError(`unsupported user part: ${p.type}`);
    }
    const meta = t.user?.meta;
    let id: string | null = null;
    if (segs.length) {
      // The guard keeps the match linear: without it every INSTRUCTIONS copy rescans to the end.
      const env = segs[segs.length - 1].endsWith('</prompt>') ? ENVELOPE_RE.exec(segs[segs.length - 1]) : null;
      if (env) {
        segs[segs.length - 1] = segs[segs.length - 1].slice(0, env.index) + env[2];
        if (env[1]) id = env[1];
      }
    }
    const uid = isJsonObject(meta) && meta.uid != null ? String(meta.uid) : null;
    if (uid !== null) id = md5Hex8(uid);
    else if (id === null) id = md5Hex8(`${name}\u001f${idx}`);
    return new Message({
      id,
      msgType: 'prompt',
      content: segs.join('\n\n'),
      output: hist2fmt(t.replies, mx),
      attachments,
      meta: isJsonObject(meta) ? { ...meta } : {},
    });
  });
  return new Dialog(out, name);
}
