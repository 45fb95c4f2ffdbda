// Copy / cut / paste between dialogs. The buffer is a JSON-able payload (a host may put it on the
// system clipboard or in extension state), so attachments travel along as base64.

import { Json, JsonObject, jsonClone } from '../base/json';
import { decodeBase64, encodeBase64 } from '../base/base64';
import { Attachment, Dialog, DialogError, Message, Output } from '../model/dialog';
import { DialogEdit, MsgRef, applyEdit, freshIdFor, indicesIn, resolveMsgs, spliceEdits } from './edit';
import { Placement, insertIndex } from './move';

export const CLIPBOARD_KIND = 'dialog-notebooks/messages';

export interface ClipAttachment {
  id: string;
  content_type: string;
  /** base64 of the bytes, or the stored text when it never decoded (`invalid: true`). */
  data: string;
  invalid?: boolean;
}

export interface ClipMessage {
  /** The id in the source dialog, informational only: pasted messages get fresh ids. */
  id: string;
  msg_type: string;
  content: string;
  output: Json;
  meta: JsonObject;
  skipped: Json;
  pinned: Json;
  attachments: ClipAttachment[];
}

export interface ClipboardPayload {
  kind: typeof CLIPBOARD_KIND;
  version: 1;
  messages: ClipMessage[];
}

export function msg2clip(m: Message): ClipMessage {
  return {
    id: m.id,
    msg_type: m.msgType,
    content: m.content,
    output: jsonClone(m.output as Json),
    meta: jsonClone(m.meta),
    skipped: jsonClone(m.skipped),
    pinned: jsonClone(m.pinned),
    attachments: m.attachments.map((a) =>
      a.invalidBase64 !== undefined
        ? { id: a.id, content_type: a.contentType, data: a.invalidBase64, invalid: true }
        : { id: a.id, content_type: a.contentType, data: encodeBase64(a.data) },
    ),
  };
}

/** A new message from a clipboard entry, with the given id. */
export function clip2msg(c: ClipMessage, id: string): Message {
  const m = new Message({
    id,
    content: c.content,
    msgType: c.msg_type,
    meta: jsonClone(c.meta),
    skipped: jsonClone(c.skipped),
    pinned: jsonClone(c.pinned),
    attachments: c.attachments.map((a) => {
      const bytes = a.invalid ? undefined : decodeBase64(a.data);
      // Data that does not decode stays as written, an invalid attachment, rather than being lost.
      return bytes ? new Attachment(bytes, a.content_type, a.id) : new Attachment(new Uint8Array(), a.content_type, a.id, a.data);
    }),
  });
  m.output = jsonClone(c.output) as Output[] | string;
  return m;
}

/** `copy_msgs`: snapshots of the messages, in the order given. Changes nothing. */
export function copyMsgs(d: Dialog, ids: MsgRef[] | string): ClipboardPayload {
  return { kind: CLIPBOARD_KIND, version: 1, messages: resolveMsgs(d, ids).map(msg2clip) };
}

/** Plans `cut_msgs`: the payload as result, plus the removal. */
export function planCutMsgs(d: Dialog, ids: MsgRef[] | string): DialogEdit<ClipboardPayload> {
  const msgs = resolveMsgs(d, ids);
  const payload: ClipboardPayload = { kind: CLIPBOARD_KIND, version: 1, messages: msgs.map(msg2clip) };
  return { edits: spliceEdits(d.messages.length, indicesIn(d, msgs), new Map()), result: payload };
}

export function cutMsgs(d: Dialog, ids: MsgRef[] | string): ClipboardPayload {
  return applyEdit(d, planCutMsgs(d, ids));
}

function checkPayload(p: unknown): ClipboardPayload {
  const o = p as ClipboardPayload | null;
  if (!o || typeof o !== 'object' || o.kind !== CLIPBOARD_KIND || !Array.isArray(o.messages)) {
    throw new DialogError('the clipboard holds no dialog messages');
  }
  for (const c of o.messages) {
    if (typeof c?.content !== 'string' || typeof c.msg_type !== 'string' || !Array.isArray(c.attachments)) {
      throw new DialogError('the clipboard holds a malformed message');
    }
  }
  return o;
}

/**
 * Plans `paste_msgs`: copies of the payload's messages, with fresh 8-hex ids, inserted in sequence
 * before/after the anchor, or appended when neither is given. Returns the new messages.
 */
export function planPasteMsgs(d: Dialog, payload: ClipboardPayload | unknown, where: Placement = {}): DialogEdit {
  const p = checkPayload(payload);
  const at = insertIndex(d, where, d.messages.length);
  const taken = new Set<string>();
  const msgs = p.messages.map((c) => clip2msg(c, freshIdFor(d, taken)));
  return { edits: spliceEdits(d.messages.length, [], new Map([[at, msgs]])), result: msgs };
}

export function pasteMsgs(d: Dialog, payload: ClipboardPayload | unknown, where: Placement = {}): Message[] {
  return applyEdit(d, planPasteMsgs(d, payload, where));
}
