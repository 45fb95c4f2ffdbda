// Exploded replies: a prompt's reply laid out as messages right after it (`reply2dlg`: notes and
// tool-call code), each tagged in `extra` with the prompt's id so it is recognised, and imploded back
// (`dlg2reply`) by command or when the dialog is saved. `extra` is never written to the file, so a tag
// can never leak into a saved dialog.

import { Json } from '../base/json';
import { Dialog, DialogError, Message } from '../model/dialog';
import { aiRes } from '../model/outputs';
import { renderOutputsAi } from '../hist/render';
import { REPLY_STYLE_KEY, dlg2reply, reply2dlg } from './subDialog';
import { DialogEdit, MsgRef, freshIdFor, indexIn, resolveMsg, spliceEdits } from '../surgery/edit';

/** On each exploded message: the id of the prompt whose reply it is part of. */
export const EXPLODED_KEY = 'explodedFrom';
/** On the exploded prompt: the reply as it was, its wire style and a fingerprint of the exploded parts. */
export const EXPLODED_REPLY_KEY = 'explodedReply';

interface ExplodedReply {
  reply: string;
  style: string | null;
  snapshot: string;
}

/** The prompt id an exploded message belongs to, else null. */
export function explodedFrom(m: Message): string | null {
  const v = m.extra[EXPLODED_KEY];
  return typeof v === 'string' ? v : null;
}

function explodedReply(m: Message): ExplodedReply | null {
  const v = m.extra[EXPLODED_REPLY_KEY] as ExplodedReply | undefined;
  return v && typeof v === 'object' && typeof v.reply === 'string' ? v : null;
}

/** What decides whether exploded parts changed: what `dlg2reply` reads from them. */
function snapshotOf(msgs: readonly Message[]): string {
  return JSON.stringify(msgs.map((m) => [m.msgType, m.content, m.msgType === 'code' ? renderOutputsAi(m.output) : '', (m.meta.tool_id ?? null) as Json]));
}

/** The messages of `d` exploded from prompt `promptId`, in dialog order. */
export function explodedMsgs(d: Dialog, promptId: string): Message[] {
  return d.messages.filter((m) => explodedFrom(m) === promptId);
}

/** The prompt an implode of `m` acts on: `m` itself when it is a prompt, else the prompt it was exploded from. */
function promptFor(d: Dialog, m: Message): Message {
  const from = explodedFrom(m);
  const p = from !== null ? d.messages.find((x) => x.id === from && x.msgType === 'prompt') : m;
  if (!p || p.msgType !== 'prompt') throw new DialogError(from !== null ? `the prompt ${from} of this exploded part is gone` : `${m.id} is not a prompt`);
  return p;
}

/**
 * Plans exploding a prompt's reply into messages inserted after it: notes for text, code messages for
 * tool calls (source = the literal call, output = the result). The prompt's reply is emptied and kept
 * aside, so imploding unchanged parts restores it byte for byte. Returns the new messages.
 */
export function planExplodeReply(d: Dialog, ref: MsgRef): DialogEdit {
  const p = resolveMsg(d, ref);
  if (p.msgType !== 'prompt') throw new DialogError(`${p.id} is not a prompt: only a prompt's reply can be exploded`);
  if (explodedMsgs(d, p.id).length || explodedReply(p)) throw new DialogError(`the reply of ${p.id} is already exploded`);
  const reply = aiRes(p);
  if (!reply.trim()) throw new DialogError(`${p.id} has no reply to explode`);
  let sub: Dialog;
  try {
    sub = reply2dlg(p);
  } catch (e) {
    throw new DialogError(`cannot explode the reply of ${p.id}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const taken = new Set<string>();
  const parts = sub.messages.map((m) => {
    m.id = freshIdFor(d, taken);
    m.dlg = null;
    m.extra[EXPLODED_KEY] = p.id;
    return m;
  });
  const style = typeof sub.meta[REPLY_STYLE_KEY] === 'string' ? (sub.meta[REPLY_STYLE_KEY] as string) : null;
  const tag: ExplodedReply = { reply, style, snapshot: snapshotOf(parts) };
  const at = indexIn(d, p);
  return {
    edits: [
      { kind: 'update', index: at, id: p.id, set: { output: '', extra: { [EXPLODED_REPLY_KEY]: tag } } },
      ...spliceEdits(d.messages.length, [], new Map([[at + 1, parts]])),
    ],
    result: parts,
  };
}

/** The reply the exploded parts of `p` implode to (throws DialogError when a part is not a valid call). */
export function implodedReply(p: Message, parts: readonly Message[]): string {
  const tag = explodedReply(p);
  if (tag && tag.snapshot === snapshotOf(parts)) return joinReplies(aiRes(p), tag.reply);
  const sub = new Dialog(
    parts.map((m) => {
      const c = m.clone();
      delete c.extra[EXPLODED_KEY];
      return c;
    }),
    p.id,
  );
  if (tag?.style) sub.meta[REPLY_STYLE_KEY] = tag.style;
  try {
    return joinReplies(aiRes(p), dlg2reply(sub));
  } catch (e) {
    throw new DialogError(`cannot implode the reply of ${p.id}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A reply typed into the prompt while it was exploded comes first. */
function joinReplies(current: string, imploded: string): string {
  return current.trim() && imploded ? `${current}\n\n${imploded}` : current.trim() ? current : imploded;
}

/** Plans imploding: the exploded parts of the prompt (given, or the prompt of a given part) become its reply again. */
export function planImplodeReply(d: Dialog, ref: MsgRef): DialogEdit<Message> {
  const p = promptFor(d, resolveMsg(d, ref));
  const parts = explodedMsgs(d, p.id);
  if (!parts.length && !explodedReply(p)) throw new DialogError(`the reply of ${p.id} is not exploded`);
  const reply = implodedReply(p, parts);
  return {
    edits: [
      { kind: 'update', index: indexIn(d, p), id: p.id, set: { output: reply, extra: { [EXPLODED_REPLY_KEY]: undefined } } },
      ...spliceEdits(d.messages.length, parts.map((m) => indexIn(d, m)), new Map()),
    ],
    result: p,
  };
}

/**
 * Implodes every exploded reply of `d` in place (what saving does). Parts that no longer implode (a
 * call edited into something that is not a keyword-only call) or whose prompt is gone stay as ordinary
 * messages, so nothing is lost; the returned problems say which.
 */
export function implodeExploded(d: Dialog): string[] {
  const problems: string[] = [];
  const byPrompt = new Map<string, Message[]>();
  for (const m of d.messages) {
    const from = explodedFrom(m);
    if (from !== null) byPrompt.set(from, [...(byPrompt.get(from) ?? []), m]);
  }
  const drop = new Set<Message>();
  for (const p of d.messages) {
    if (p.msgType !== 'prompt' || !(byPrompt.has(p.id) || explodedReply(p))) continue;
    const parts = byPrompt.get(p.id) ?? [];
    byPrompt.delete(p.id);
    try {
      p.output = implodedReply(p, parts);
      for (const m of parts) drop.add(m);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
      for (const m of parts) delete m.extra[EXPLODED_KEY];
    }
    delete p.extra[EXPLODED_REPLY_KEY];
  }
  for (const [from, parts] of byPrompt) {
    problems.push(`${parts.length} exploded part(s) of the missing prompt ${from} are kept as messages`);
    for (const m of parts) delete m.extra[EXPLODED_KEY];
  }
  if (drop.size) d.messages = d.messages.filter((m) => !drop.has(m));
  return problems;
}

/**
 * The dialog a save writes (and export and the history preview read): `d` with every exploded reply
 * imploded, `d` itself untouched. Only the messages imploding changes are copied, keeping their storage
 * origin so an unchanged reply still writes its original bytes; the rest are shared, so treat the
 * result as read-only. `problems` receives what `implodeExploded` reports.
 */
export function savedDialog(d: Dialog, problems: string[] = []): Dialog {
  const from = new Set(d.messages.map(explodedFrom).filter((id) => id !== null));
  const touched = (m: Message) => explodedFrom(m) !== null || (m.msgType === 'prompt' && (from.has(m.id) || explodedReply(m) !== null));
  const copy = new Dialog(
    d.messages.map((m) => {
      if (!touched(m)) return m;
      const c = m.clone();
      c.origin = m.origin;
      return c;
    }),
    d.name,
    d.meta,
  );
  copy.origin = d.origin;
  problems.push(...implodeExploded(copy));
  return copy;
}
