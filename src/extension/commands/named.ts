// Refusals name messages as a user sees them: the core's reasons carry message ids ("cannot move
// aa13699a up…"), which a notebook never shows; each id of the dialog becomes its message's first line.

import { Dialog } from '../../core/model';
import { firstLine } from '../../core/outline';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every id of a message of `d` replaced by that message's first line in quotes. */
export function named(text: string, d: Dialog): string {
  const byId = new Map(d.messages.filter((m) => m.id && text.includes(m.id)).map((m) => [m.id, m] as const));
  if (!byId.size) return text;
  const ids = [...byId.keys()].sort((a, b) => b.length - a.length).map(escapeRe);
  return text.replace(new RegExp(`(?<![\\w-])(?:${ids.join('|')})(?![\\w-])`, 'g'), (id) => {
    const m = byId.get(id)!;
    const line = firstLine(m.content);
    return line ? `"${line}"` : `the empty ${m.msgType}`;
  });
}
