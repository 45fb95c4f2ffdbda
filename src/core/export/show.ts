// A dialog as readable text for diffs (`dlg show`, git's textconv): one block per message, its text as
// it is (so a one-line change is a one-line diff), the reply after a marker, outputs in brief: stream and
// plain text as they are, everything else by its type and size, never base64. Display only.

import { isJsonObject } from '../base/json';
import { Dialog, Message, Output } from '../model/dialog';
import { aiRes, base64Length, joinOut } from '../model/outputs';
import { stripAnsi } from '../base/ansi';
import { conflictOf } from '../threeway/conflict';

const TEXT_SHOWN = ['text/plain', 'text/markdown'];

function size(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function outputLines(o: Output): string[] {
  const type = String(o.output_type);
  if (type === 'stream') return [`[${String(o.name ?? 'stream')}]`, ...stripAnsi(joinOut(o.text)).replace(/\n$/, '').split('\n')];
  if (type === 'error') return [`[error] ${String(o.ename ?? '')}: ${String(o.evalue ?? '')}`];
  const lines = [`[${type}]`];
  const data = isJsonObject(o.data) ? o.data : {};
  for (const mime in data) {
    if (TEXT_SHOWN.includes(mime)) lines.push(...stripAnsi(joinOut(data[mime])).replace(/\n$/, '').split('\n'));
    else if (/^(text\/|application\/.*json|image\/svg)/.test(mime)) lines.push(`(${mime}, ${size(joinOut(data[mime]).length)})`);
    else lines.push(`(${mime}, ${size(base64Length(data[mime]))})`);
  }
  return lines;
}

function header(m: Message): string {
  const flags: string[] = [];
  if (m.pinned) flags.push('pinned');
  if (m.skipped) flags.push('skipped');
  const c = conflictOf(m);
  if (c) flags.push(c.side === 'theirs' ? `conflict: their version of ${c.of ?? 'a message deleted here'}` : 'conflict: deleted there');
  return `=== ${m.msgType} ${m.id}${flags.length ? ` (${flags.join(', ')})` : ''} ===`;
}

/** The readable text of one message. */
export function showMessage(m: Message): string {
  const lines = [header(m), m.content];
  if (m.msgType === 'prompt') {
    const reply = aiRes(m);
    if (reply) lines.push('--- reply ---', reply);
  } else if (m.msgType === 'code' && m.outputs.length) {
    lines.push('--- output ---');
    for (const o of m.outputs) lines.push(...outputLines(o));
  }
  for (const a of m.attachments) lines.push(`(attachment ${a.id}: ${a.contentType}, ${size(a.data.length)})`);
  return lines.join('\n');
}

/** The readable text of a dialog, ending in a newline. */
export function dlg2show(d: Dialog): string {
  return d.messages.map((m) => showMessage(m) + '\n').join('\n');
}
