// Structural placement: add, delete and move messages, and move a heading with its section.

import { JsonObject, jsonClone } from '../base/json';
import { Dialog, DialogError, Message, MessageInit, isMsgType } from '../model/dialog';
import { headerLevel, sectionMsgs } from '../model/sections';
import { DialogEdit, MsgRef, applyEdit, freshIdFor, indexIn, indicesIn, resolveMsg, resolveMsgs, spliceEdits } from './edit';

export interface Placement {
  before?: MsgRef | null;
  after?: MsgRef | null;
}

/** The pre-edit index to insert at for a placement; `fallback` when neither is given. */
export function insertIndex(d: Dialog, where: Placement, fallback: number): number {
  if (where.before != null && where.after != null) throw new DialogError('Pass at most one of before/after');
  if (where.after != null) return indexIn(d, resolveMsg(d, where.after)) + 1;
  if (where.before != null) return indexIn(d, resolveMsg(d, where.before));
  return fallback;
}

export interface AddMsgOptions extends Placement {
  msgType?: string;
  meta?: JsonObject | null;
  /** Sets `meta.nbdev.export = "true"`. */
  export?: boolean;
  /** Where to insert without before/after: after this message (the host's current one), else append. */
  current?: MsgRef | null;
}

/** Plans `add_msg`: a new message with a fresh 8-hex id. Returns it as the result. */
export function planAddMsg(d: Dialog, source: string, opts: AddMsgOptions = {}): DialogEdit<Message> {
  const msgType = opts.msgType ?? 'code';
  if (!isMsgType(msgType)) throw new DialogError(`unknown msg_type '${msgType}'`);
  let at: number;
  if (opts.before == null && opts.after == null && opts.current != null) {
    // a vanished current message falls back to appending (surgery.md add_msg)
    const k = typeof opts.current === 'string' ? d.indexOf(opts.current) : indexIn(d, opts.current);
    at = k < 0 ? d.messages.length : k + 1;
  } else at = insertIndex(d, opts, d.messages.length);
  const init: MessageInit = { content: source, msgType, id: freshIdFor(d, new Set()), meta: jsonClone(opts.meta ?? {}) };
  const m = new Message(init);
  if (opts.export) m.meta.nbdev = { ...((m.meta.nbdev as JsonObject | undefined) ?? {}), export: 'true' };
  return { edits: spliceEdits(d.messages.length, [], new Map([[at, [m]]])), result: m };
}

export function addMsg(d: Dialog, source: string, opts: AddMsgOptions = {}): Message {
  return applyEdit(d, planAddMsg(d, source, opts));
}

/** Plans `del_msgs`: removes the messages; returns them in the order given. */
export function planDelMsgs(d: Dialog, ids: MsgRef[] | string): DialogEdit {
  const msgs = resolveMsgs(d, ids);
  return { edits: spliceEdits(d.messages.length, indicesIn(d, msgs), new Map()), result: msgs };
}

export function delMsgs(d: Dialog, ids: MsgRef[] | string): Message[] {
  return applyEdit(d, planDelMsgs(d, ids));
}

/**
 * Plans `move_msgs`: moves the messages, in the order listed, before or after the anchor (V229).
 * Everything is resolved first, and an anchor that is itself being moved is rejected (the reference
 * removes first and then fails, losing the messages).
 */
export function planMoveMsgs(d: Dialog, ids: MsgRef[] | string, where: Placement): DialogEdit {
  if ((where.before == null) === (where.after == null)) throw new DialogError('Exactly one of before/after required');
  const msgs = resolveMsgs(d, ids);
  const anchor = resolveMsg(d, (where.before ?? where.after)!);
  if (msgs.includes(anchor)) throw new DialogError(`cannot move message ${anchor.id} relative to itself`);
  const at = insertIndex(d, where, d.messages.length);
  return { edits: spliceEdits(d.messages.length, indicesIn(d, msgs), new Map([[at, msgs]])), result: msgs };
}

export function moveMsgs(d: Dialog, ids: MsgRef[] | string, where: Placement): Message[] {
  return applyEdit(d, planMoveMsgs(d, ids, where));
}

/**
 * Plans moving a message up or down one step; a heading note moves with its whole section.
 *
 * The step jumps one block: for a heading of level L, up jumps over the previous same-level section,
 * or (when the previous heading of level ≤ L is a parent) over everything between that parent and
 * the section; down jumps over the next same-level section and never leaves the parent. A message
 * that is not a heading swaps with its neighbour. Returns the moved messages.
 */
export function planMoveSection(d: Dialog, id: MsgRef, dir: 'up' | 'down'): DialogEdit {
  const head = resolveMsg(d, id);
  const msgs = d.messages;
  const sec = sectionMsgs(msgs, head);
  const start = indexIn(d, head);
  const end = start + sec.length;
  const lvl = headerLevel(head);
  const where = lvl ? 'its section' : 'the dialog';
  let from: number, to: number; // the block jumped over: [from, to)
  if (dir === 'up') {
    to = start;
    from = start - 1;
    if (lvl) {
      let k = start - 1;
      while (k >= 0 && !(headerLevel(msgs[k]) && headerLevel(msgs[k]) <= lvl)) k--;
      from = k >= 0 && headerLevel(msgs[k]) === lvl ? k : k + 1;
    }
    if (from < 0 || from >= to) throw new DialogError(`cannot move ${head.id} up: it is already first in ${where}`);
  } else {
    from = end;
    to = end + 1;
    if (lvl) to = end < msgs.length && headerLevel(msgs[end]) === lvl ? end + sectionMsgs(msgs, msgs[end]).length : end;
    if (to > msgs.length || from >= to) throw new DialogError(`cannot move ${head.id} down: it is already last in ${where}`);
  }
  const deletes = sec.map((_, k) => start + k);
  const at = dir === 'up' ? from : to;
  return { edits: spliceEdits(msgs.length, deletes, new Map([[at, sec]])), result: sec };
}

export function moveSection(d: Dialog, id: MsgRef, dir: 'up' | 'down'): Message[] {
  return applyEdit(d, planMoveSection(d, id, dir));
}
