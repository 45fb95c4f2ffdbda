// What a save writes of a cell's attachments: those its text (or a prompt's reply) refers to as
// `attachment:NAME`, and those the cell had when it was read, kept as they were. An image pasted into a
// prompt and then undone leaves its bytes in the cell (VS Code undoes the text apart from the cell's
// metadata), referenced by nothing: those are not written.

import { Attachment, Dialog, Message } from '../model/dialog';
import { aiRes } from '../model/outputs';

/** Whether `text` refers to attachment `id`, as written or URL-encoded (`![](attachment:a%20b.png)`). */
function refersTo(text: string, id: string): boolean {
  return text.includes(`attachment:${id}`) || text.includes(`attachment:${encodeURI(id)}`);
}

/** The attachment names the cell had when read (`origin.state`, see cellState). */
function readNames(m: Message): Set<string> {
  const atts = m.origin?.state?.attachments;
  return new Set(Array.isArray(atts) ? atts.map((a) => (Array.isArray(a) ? a[0] : undefined)).filter((id): id is string => typeof id === 'string') : []);
}

/** The attachments of `m` a save writes (see above), in their order. */
export function savedAttachments(m: Message): Attachment[] {
  if (!m.attachments.length) return m.attachments;
  const text = m.content + (m.msgType === 'prompt' ? aiRes(m) : '');
  const read = readNames(m);
  return m.attachments.filter((a) => read.has(a.id) || refersTo(text, a.id));
}

/** `d` without attachments no text refers to and its file did not have; the messages that lose none are `d`'s own. */
export function withoutUnreferencedAttachments(d: Dialog): Dialog {
  const messages = d.messages.map((m) => {
    const kept = savedAttachments(m);
    if (kept.length === m.attachments.length) return m;
    const c = m.clone();
    c.attachments = kept.map((a) => a.clone());
    c.origin = m.origin;
    return c;
  });
  if (messages.every((m, k) => m === d.messages[k])) return d;
  const copy = new Dialog(messages, d.name, d.meta);
  copy.origin = d.origin;
  return copy;
}
