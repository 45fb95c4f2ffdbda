// Change a message's type without losing its text, and toggle the pinned / skipped flags.

import { Dialog, DialogError, isMsgType, Message, truthy } from '../model/dialog';
import { aiRes } from '../model/outputs';
import { DialogEdit, MessagePatch, MsgRef, UpdateEdit, applyEdit, indexIn, resolveMsg, resolveMsgs } from './edit';

const PROMPT_HEAD = '## AI Prompt\n';
const REPLY_HEAD = '\n## AI Response\n';

export interface ConvertOptions {
  /** Allow converting a prompt with a reply to code, dropping the reply. */
  dropReply?: boolean;
}

/**
 * Plans a type change. A type change drops outputs (model §2), which would silently lose a prompt's
 * reply, so:
 * * prompt with a reply → note or raw: the text becomes `## AI Prompt\n{content}\n## AI Response\n{reply}`,
 *   the form `mergeContent` uses;
 * * a note or raw in exactly that form → prompt: the prompt and its reply come back (a round trip);
 * * prompt with a reply → code: refused unless `dropReply` (the reply is no Python).
 * Code outputs are dropped: they are reproducible by running the code again.
 */
export function planConvertMsg(d: Dialog, id: MsgRef, msgType: string, opts: ConvertOptions = {}): DialogEdit<Message> {
  const m = resolveMsg(d, id);
  if (!isMsgType(msgType)) throw new DialogError(`unknown msg_type '${msgType}'`);
  if (m.msgType === msgType) return { edits: [], result: m };
  const set: MessagePatch = { msgType };
  const reply = aiRes(m);
  if (reply) {
    if (msgType === 'code' && !opts.dropReply) {
      throw new DialogError(`${m.id}: converting a prompt with a reply to code would lose the reply; convert it to a note instead`);
    }
    if (msgType !== 'code') set.content = `${PROMPT_HEAD}${m.content}${REPLY_HEAD}${reply}`;
  } else if (msgType === 'prompt' && m.content.startsWith(PROMPT_HEAD)) {
    const body = m.content.slice(PROMPT_HEAD.length);
    const cut = body.indexOf(REPLY_HEAD);
    if (cut >= 0) {
      set.content = body.slice(0, cut);
      set.output = body.slice(cut + REPLY_HEAD.length);
    }
  }
  return { edits: [{ kind: 'update', index: indexIn(d, m), id: m.id, set }], result: m };
}

export function convertMsg(d: Dialog, id: MsgRef, msgType: string, opts: ConvertOptions = {}): Message {
  return applyEdit(d, planConvertMsg(d, id, msgType, opts));
}

export type MsgFlag = 'pinned' | 'skipped';

/**
 * Plans setting a flag on the messages: `value` true writes `true` (what Solveit writes), false
 * writes 0 (the default, not stored). Without `value` it toggles: all are set unless the first one
 * already is. Messages already in the wanted state get no edit.
 */
export function planSetFlag(d: Dialog, ids: MsgRef[] | string, flag: MsgFlag, value?: boolean): DialogEdit {
  if (flag !== 'pinned' && flag !== 'skipped') throw new DialogError(`unknown flag '${flag as string}'`);
  const msgs = resolveMsgs(d, ids);
  const on = value ?? !truthy(msgs[0][flag]);
  const edits: UpdateEdit[] = msgs
    .filter((m) => truthy(m[flag]) !== on)
    .map((m) => ({ kind: 'update', index: indexIn(d, m), id: m.id, set: { [flag]: on ? true : 0 } }));
  return { edits: edits.sort((a, b) => a.index - b.index), result: msgs };
}

export function setFlag(d: Dialog, ids: MsgRef[] | string, flag: MsgFlag, value?: boolean): Message[] {
  return applyEdit(d, planSetFlag(d, ids, flag, value));
}
