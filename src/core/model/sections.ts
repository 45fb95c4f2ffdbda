// Markdown-heading sections (model §4): a heading note opens a section that runs to the next heading
// of the same or a higher level.

import { DialogError, Message, truthy } from './dialog';
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

/** Whether `m` is a heading whose section is folded (Solveit's `heading_collapsed`). */
export function isFoldedHeading(m: Message): boolean {
  return headerLevel(m) > 0 && truthy(m.meta.heading_collapsed);
}

/**
 * `msgs` with the whole section of each folded heading among them, in dialog order: as in Solveit,
 * pinning, hiding, exporting, deleting or copying a folded heading acts on what it hides.
 */
export function withFoldedSections(pool: readonly Message[], msgs: readonly Message[]): Message[] {
  if (!msgs.some(isFoldedHeading)) return [...msgs];
  const all = new Set(msgs);
  for (const m of msgs) if (isFoldedHeading(m)) for (const s of sectionMsgs(pool, m)) all.add(s);
  return pool.filter((m) => all.has(m));
}

const HASHES_RE = new RegExp(`^ {0,3}#{1,6}(?=[${PY_WS}])`);

/** A note's text made a heading of `level` (1–6): its heading's `#`s replaced, else `# ` put before it. */
export function withHeadingLevel(text: string, level: number): string {
  if (!Number.isInteger(level) || level < 1 || level > 6) throw new DialogError(`a heading level is 1 to 6, not ${level}`);
  const hashes = '#'.repeat(level);
  return headerInfo(text)[0] ? text.replace(HASHES_RE, hashes) : `${hashes} ${text}`;
}

/** Sets or clears a boolean meta flag as Solveit stores them (true, or left out); whether it changed. */
function setMetaFlag(m: Message, key: string, on: boolean): boolean {
  if (truthy(m.meta[key]) === on) return false;
  const meta = { ...m.meta };
  if (on) meta[key] = true;
  else delete meta[key];
  m.meta = meta;
  return true;
}

/**
 * Folds or unfolds the section of heading `head` as Solveit stores it: `heading_collapsed` on the
 * heading, `hidden` on every message inside a folded section (so a message of a folded subsection stays
 * hidden when its parent unfolds). Changes the messages of `pool` in place; returns those that changed.
 */
export function setSectionFolded(pool: readonly Message[], head: Message, folded: boolean): Message[] {
  if (!headerLevel(head)) throw new DialogError(`${head.id} is not a heading`);
  const changed = new Set<Message>();
  if (setMetaFlag(head, 'heading_collapsed', folded)) changed.add(head);
  const hidden = new Set<Message>();
  for (const h of pool) if (isFoldedHeading(h)) for (const m of sectionMsgs(pool, h).slice(1)) hidden.add(m);
  for (const m of sectionMsgs(pool, head).slice(1)) if (setMetaFlag(m, 'hidden', hidden.has(m))) changed.add(m);
  return pool.filter((m) => changed.has(m));
}

/** Sets a message's collapsed input (`hide_input`) or output (`collapsed`) flag; whether it changed. */
export function setCollapsed(m: Message, part: 'input' | 'output', on: boolean): boolean {
  return setMetaFlag(m, part === 'input' ? 'hide_input' : 'collapsed', on);
}
