// Split one message into several, and merge several into one (surgery.md split_msg / merge_msgs).

import { copyExport } from '../model/directives';
import { jsonClone } from '../base/json';
import { mergeContent, mergeParts } from '../model/merge';
import { Attachment, Dialog, DialogError, Message } from '../model/dialog';
import { chompLine, cpLen, cpSlice, endsWithLineBreak, pySplitlines } from '../python/text';
import { DialogEdit, MsgRef, applyEdit, freshIdFor, indexIn, resolveMsg, resolveMsgs, spliceEdits } from './edit';

/**
 * Cuts `text` before each 1-based line, absorbing one `"\n\n"` per cut so that merging (which joins
 * with `"\n\n"`) restores blank-line-separated text exactly (V224–V226). Unlike the reference, line
 * terminators, including a final newline, are kept as written.
 */
export function splitText(text: string, linenos: number[]): string[] {
  const lines = pySplitlines(text, true);
  const bounds = [0, ...linenos.map((n) => n - 1), lines.length];
  const pieces: string[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    let piece = lines.slice(bounds[k], bounds[k + 1]).join('');
    if (k + 2 < bounds.length) piece = chompLine(piece); // the line break at the cut
    pieces.push(piece);
  }
  for (let k = 0; k + 1 < pieces.length; k++) {
    if (/\r?\n$/.test(pieces[k])) pieces[k] = pieces[k].replace(/\r?\n$/, '');
    else if (/^\r?\n/.test(pieces[k + 1])) pieces[k + 1] = pieces[k + 1].replace(/^\r?\n/, '');
  }
  return pieces;
}

function checkLinenos(m: Message, linenos: number[]): void {
  const count = pySplitlines(m.content).length;
  if (!linenos.length) throw new DialogError('split needs at least one line number');
  linenos.forEach((n, k) => {
    if (!Number.isInteger(n) || n < 2 || n > count) throw new DialogError(`Invalid split line ${n}. Valid range: 2-${count}`);
    if (k && n <= linenos[k - 1]) throw new DialogError(`split line numbers must be strictly increasing, got ${linenos.join(', ')}`);
  });
}

function planPieces(d: Dialog, m: Message, pieces: string[]): DialogEdit {
  const refs = (a: Attachment, s: string) => s.includes(a.id);
  const first = pieces[0];
  const firstAtts = m.attachments.filter((a) => refs(a, first) || !pieces.some((p) => refs(a, p)));
  const taken = new Set<string>();
  const fresh = pieces.slice(1).map((p) => {
    return new Message({
      id: freshIdFor(d, taken),
      content: copyExport(p, m.content),
      msgType: m.msgType,
      meta: jsonClone(m.meta),
      skipped: jsonClone(m.skipped),
      pinned: jsonClone(m.pinned),
      attachments: m.attachments.filter((a) => refs(a, p)).map((a) => a.clone()),
    });
  });
  const k = indexIn(d, m);
  const update = { kind: 'update' as const, index: k, id: m.id, set: { content: first, attachments: firstAtts } };
  return { edits: [update, ...spliceEdits(d.messages.length, [], new Map([[k + 1, fresh]]))], result: [m, ...fresh] };
}

/**
 * Plans `split_msg`: cut before each 1-based line number (strictly increasing, within 2..line count).
 * The first piece keeps the id, output and the attachments it or nobody else references; new pieces
 * get the type, a copy of meta and flags, their own attachments, no output and the export line.
 */
export function planSplitMsg(d: Dialog, id: MsgRef, linenos: number[]): DialogEdit {
  const m = resolveMsg(d, id);
  checkLinenos(m, linenos);
  return planPieces(d, m, splitText(m.content, linenos));
}

export function splitMsg(d: Dialog, id: MsgRef, linenos: number[]): Message[] {
  return applyEdit(d, planSplitMsg(d, id, linenos));
}

/**
 * Plans a split at a cursor position (in code points). At the start of a line it is the line split;
 * inside a line the text is cut there as is (merging then adds a blank line).
 */
export function planSplitMsgAt(d: Dialog, id: MsgRef, pos: number): DialogEdit {
  const m = resolveMsg(d, id);
  const len = cpLen(m.content);
  if (!Number.isInteger(pos) || pos <= 0 || pos >= len) throw new DialogError(`Invalid split position ${pos}. Valid range: 1-${len - 1}`);
  const left = cpSlice(m.content, pos);
  const right = m.content.slice(left.length);
  // a cut right after a line break is a line split (but never between the halves of a \r\n)
  if (endsWithLineBreak(left) && !(left.endsWith('\r') && right.startsWith('\n'))) {
    return planPieces(d, m, splitText(m.content, [pySplitlines(left).length + 1]));
  }
  return planPieces(d, m, [left, right]);
}

export function splitMsgAt(d: Dialog, id: MsgRef, pos: number): Message[] {
  return applyEdit(d, planSplitMsgAt(d, id, pos));
}

/**
 * Plans `merge_msgs` (V222–V228): merge into the first message listed, which keeps its id and flags;
 * the others are removed. The type is the common one, else note; content and meta come from
 * `mergeParts`, the output is cleared and attachments are concatenated.
 */
export function planMergeMsgs(d: Dialog, ids: MsgRef[] | string): DialogEdit<Message> {
  const msgs = resolveMsgs(d, ids);
  if (msgs.length < 2) throw new DialogError('merge needs at least two messages');
  const target = msgs.every((m) => m.msgType === msgs[0].msgType) ? msgs[0].msgType : 'note';
  const [content, meta] = mergeParts(msgs, msgs.map((m) => mergeContent(m, target)));
  const first = msgs[0];
  const attachments = msgs.flatMap((m) => m.attachments);
  const output = target === 'code' || target === 'prompt' ? [] : '';
  const set = { msgType: target, content, meta, output, attachments };
  const rest = msgs.slice(1).map((m) => indexIn(d, m));
  return {
    edits: [{ kind: 'update', index: indexIn(d, first), id: first.id, set }, ...spliceEdits(d.messages.length, rest, new Map())],
    result: first,
  };
}

export function mergeMsgs(d: Dialog, ids: MsgRef[] | string): Message {
  return applyEdit(d, planMergeMsgs(d, ids));
}
