// Markdown-heading sections (model §4): a heading note opens a section that runs to the next heading
// of the same or a higher level.

import { DialogError, Message } from './dialog';
import { PY_WS } from '../python/text';

// ` {0,3}(#{1,6})\s+(.*)` with Python semantics: `\s` may cross a newline ("#\nfoo" is a heading) and
// `.` stops only at `\n` (JS `.` would also stop at `\r`, U+2028, U+2029).
const HEADER_RE = new RegExp(`^ {0,3}(#{1,6})[${PY_WS}]+([^\\n]*)`);

/** `[level, heading]` of the heading at the start of `text`, or `[0, null]`. */
export function headerInfo(text: string | null | undefined): [number, string | null] {
  const m = HEADER_RE.exec(text ?? '');
  return m ? [m[1].length, m[2]] : [0, null];
}

/** The heading level of a note; 0 for every other message type. */
export function headerLevel(m: Message): number {
  return m.msgType === 'note' ? headerInfo(m.content)[0] : 0;
}

/** `head` plus the following messages of `pool` up to the next heading of the same or a higher level. */
export function sectionMsgs(pool: readonly Message[], head: Message): Message[] {
  const lvl = headerLevel(head);
  if (!lvl) return [head];
  const at = pool.findIndex((m) => m.equals(head));
  if (at < 0) throw new DialogError(`section head ${head.id} is not in the pool`);
  const res = [head];
  for (const m of pool.slice(at + 1)) {
    const l = headerLevel(m);
    if (l && l <= lvl) break;
    res.push(m);
  }
  return res;
}
