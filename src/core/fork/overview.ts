// The seed's condensed views as text: `overview()`, one numbered line per message, and `tree_overview()`,
// the family tree of forks. Message lines are the core's previews (model §6), so they read as everywhere else.

import { Dialog, aiRes, humanize, preview, truthy } from '../model';
import { cpLen } from '../python';
import { LineageNode, LineageTree } from './lineage';
import { resolvePath } from './paths';

/** The seed's overview width: each entry shows the first 100 characters. */
export const OVERVIEW_WIDTH = 100;

/**
 * One line per message: index, then the preview row (`id:t[dirs]:text`, newlines as ¶, cut to `width`
 * with the full size), a prompt's reply as its size (the preview's second line would break the one-line
 * rule), and the pinned / skipped flags.
 */
export function dlg2overview(d: Dialog, width = OVERVIEW_WIDTH): string {
  const pad = String(Math.max(d.messages.length - 1, 0)).length;
  return d.messages
    .map((m, i) => {
      const reply = m.msgType === 'prompt' ? aiRes(m) : '';
      const flags = (['pinned', 'skipped'] as const).filter((f) => truthy(m[f]));
      return (
        `${String(i).padStart(pad)}. ${preview(m, width).split('\n')[0]}` +
        (reply ? ` ⇒ reply(${humanize(cpLen(reply))})` : '') +
        (flags.length ? `  [${flags.join(', ')}]` : '')
      );
    })
    .join('\n');
}

function nodeLine(n: LineageNode): string {
  if (n.missing) return `[${n.path}] missing`;
  let s = `[${n.path}] msgs=${n.msgCount} split@${n.lineage ? n.lineage.split : 'None'}`;
  // Not "moved": a deleted parent's own parent may hold the message too, so say only what is known.
  if (n.foundBy === 'message') s += ` (not at ${resolvePath(n.path, n.lineage!.parent)}: found by message ${n.lineage!.parentMsg})`;
  if (n.cycle) s += ` (cycle: ${n.cycle.join(' → ')})`;
  if (n.problem) s += ` (${n.problem})`;
  return s;
}

/** The seed's `tree_overview()`: a root per line, each child indented under its parent with `└─`. */
export function treeOverview(tree: LineageTree): string {
  const lines: string[] = [];
  const walk = (n: LineageNode, depth: number) => {
    lines.push((depth ? '  '.repeat(depth) + '└─ ' : '') + nodeLine(n));
    for (const c of n.children) walk(c, depth + 1);
  };
  for (const r of tree.roots) walk(r, 0);
  return lines.join('\n');
}
