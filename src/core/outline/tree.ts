// The section outline of a dialog (model §4 heading rules, as `sectionMsgs`): heading notes nest by
// level, prompts and code are leaves under the innermost open heading; every heading counts the
// messages and estimated tokens of its section. Built from per-message items so a host can cache the
// items of unchanged messages and rebuild the tree in one cheap pass.

import { Dialog, Message, truthy } from '../model/dialog';
import { aiRes } from '../model/outputs';
import { renderOutputsAi, tokenEstimate } from '../hist/render';
import { headerInfo } from '../model/sections';
import { partitionDirectives } from '../model/directives';
import { explodedFrom } from '../reply/explode';
import { conflictOf } from '../threeway/conflict';

export interface OutlineItem {
  id: string;
  index: number;
  msgType: string;
  /** Heading level (1–6) of a heading note, else 0. */
  level: number;
  label: string;
  pinned: boolean;
  skipped: boolean;
  /** Part of an exploded reply. */
  exploded: boolean;
  /** One version of a message changed on both sides of a merge, kept with the other (core/threeway). */
  conflict: boolean;
  tokens: number;
}

export interface OutlineNode extends OutlineItem {
  /** Messages in the section (the heading included); 1 for leaves. */
  count: number;
  /** Estimated tokens of the whole section. */
  sectionTokens: number;
  children: OutlineNode[];
}

const LABEL_MAX = 80;

function cut(text: string): string {
  // a heading's text may hold a lone CR or a line separator (Python's `.` crosses them): show a space
  const cps = Array.from(text.replace(/[\r\n\t\u2028\u2029]+/g, ' '));
  return cps.length > LABEL_MAX ? cps.slice(0, LABEL_MAX - 1).join('') + '…' : cps.join('');
}

/** Markdown images as `[image alt]`: a data URL or attachment id says nothing in a one-line label. */
function shortImages(line: string): string {
  // What `/!\[([^\]]*)\]\([^)]*\)/g` replaces, found with forward scans: the regex rescans to the end from
  // every `![` that has no `](…)` after it. An image's alt ends at the first `]`, so every `![` before
  // that `]` shares its fate; with no `)` after a `](` no later image can close either.
  let out = '';
  let at = 0;
  let from = 0;
  for (;;) {
    const p = line.indexOf('![', from);
    if (p < 0) break;
    const q = line.indexOf(']', p + 2);
    if (q < 0) break;
    from = q + 1;
    if (line.charCodeAt(q + 1) !== 40) continue;
    const r = line.indexOf(')', q + 2);
    if (r < 0) break;
    const alt = line.slice(p + 2, q).trim();
    out += line.slice(at, p) + (alt ? `[image ${alt}]` : '[image]');
    at = from = r + 1;
  }
  return at ? out + line.slice(at) : line;
}

// Where a label's line ends: an editor's line breaks and Unicode's line and paragraph separators.
const LABEL_BREAK = /\r\n|\r|\n|\u2028|\u2029/g;

/** The first non-blank line of `text` and the offset it starts at; null when every line is blank. */
function firstTextLine(text: string): { line: string; start: number } | null {
  let start = 0;
  for (const m of text.matchAll(LABEL_BREAK)) {
    const line = text.slice(start, m.index);
    if (line.trim()) return { line, start };
    start = m.index + m[0].length;
  }
  const last = text.slice(start);
  return last.trim() ? { line: last, start } : null;
}

/** The first non-blank line of `text`, trimmed, images shortened, cut to a label. */
export function firstLine(text: string): string {
  return cut(shortImages((firstTextLine(text)?.line ?? '').trim()));
}

/** Where the line `firstLine` labels starts in `text` (0 when every line is blank), for hosts that point at it. */
export function firstLineOffset(text: string): number {
  return firstTextLine(text)?.start ?? 0;
}

/** The item for one message; `text` is what its tokens are estimated from (content, reply, outputs). */
export function outlineItem(
  m: Pick<Message, 'id' | 'msgType' | 'content' | 'pinned' | 'skipped'> & { extra?: Record<string, unknown>; meta?: Message['meta'] },
  index: number,
  outText = '',
): OutlineItem {
  const [level, head] = m.msgType === 'note' ? headerInfo(m.content) : [0, null];
  // A code cell is named by its code, not by the `#| export` directives above it (if it has any code).
  const body = m.msgType === 'code' ? partitionDirectives(m.content)[1].join('') : '';
  const label = level ? cut((head ?? '').trim()) || '(empty heading)' : firstLine(body.trim() ? body : m.content) || `(empty ${m.msgType})`;
  return {
    id: m.id,
    index,
    msgType: m.msgType,
    level,
    label,
    pinned: truthy(m.pinned),
    skipped: truthy(m.skipped),
    exploded: m.extra ? explodedFrom(m as Message) !== null : false,
    conflict: m.meta ? conflictOf({ meta: m.meta }) !== undefined : false,
    tokens: tokenEstimate(m.content) + (outText ? tokenEstimate(outText) : 0),
  };
}

/** What a message adds to the model's input beyond its content: a prompt's reply, code's outputs. */
export function outText(m: Message): string {
  return m.msgType === 'prompt' ? aiRes(m) : m.msgType === 'code' ? renderOutputsAi(m.outputs) : '';
}

/** The outline tree of items in dialog order. */
export function buildOutline(items: readonly OutlineItem[]): OutlineNode[] {
  const roots: OutlineNode[] = [];
  const open: OutlineNode[] = [];
  for (const it of items) {
    const node: OutlineNode = { ...it, count: 0, sectionTokens: 0, children: [] };
    if (it.level) {
      while (open.length && open[open.length - 1].level >= it.level) open.pop();
      (open.length ? open[open.length - 1].children : roots).push(node);
      open.push(node);
    } else if (it.msgType === 'prompt' || it.msgType === 'code') {
      node.count = 1;
      node.sectionTokens = it.tokens;
      (open.length ? open[open.length - 1].children : roots).push(node);
    }
    for (const h of open) {
      h.count++;
      h.sectionTokens += it.tokens;
    }
  }
  return roots;
}

export function dlgOutline(d: Dialog | readonly Message[]): OutlineNode[] {
  const msgs = d instanceof Dialog ? d.messages : d;
  return buildOutline(msgs.map((m, k) => outlineItem(m, k, outText(m))));
}

/** The path of nodes from a root to the node of message `id` (empty when it is not in the tree). */
export function outlinePath(roots: readonly OutlineNode[], id: string): OutlineNode[] {
  for (const n of roots) {
    if (n.id === id) return [n];
    const sub = outlinePath(n.children, id);
    if (sub.length) return [n, ...sub];
  }
  return [];
}

/** Whether two outlines have the same nodes (ids, heading levels) nested the same way. */
export function sameShape(a: readonly OutlineNode[], b: readonly OutlineNode[]): boolean {
  return a.length === b.length && a.every((n, k) => n.id === b[k].id && n.level === b[k].level && sameShape(n.children, b[k].children));
}

const SHOWN = ['index', 'msgType', 'label', 'pinned', 'skipped', 'exploded', 'conflict', 'tokens', 'count', 'sectionTokens'] as const;

/**
 * Copies `fresh` into `old` in place, node by node (the two must have `sameShape`), and returns the old
 * nodes whose fields changed: a tree view keeps its node objects and refreshes only those.
 */
export function patchOutline(old: readonly OutlineNode[], fresh: readonly OutlineNode[], changed: OutlineNode[] = []): OutlineNode[] {
  old.forEach((n, k) => {
    const f = fresh[k];
    if (SHOWN.some((key) => n[key] !== f[key])) {
      for (const key of SHOWN) (n as unknown as Record<string, unknown>)[key] = f[key];
      changed.push(n);
    }
    patchOutline(n.children, f.children, changed);
  });
  return changed;
}
