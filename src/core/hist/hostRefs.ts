// Host helpers around prompts (ai-projections §11): sigil references and the variables turn.

import { Message } from '../model/dialog';
import { pyStr } from '../python';
import { AimInfo, HistPart, mediaItem, pyTypeName } from './media';
import { xmlAttrs } from './xmlAttrs';

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Sorted unique names referenced as ``&`name` `` or ``&`[a, b]` `` (word characters and dots); null when none. */
export function getRefs(text: string, sigil = '&'): string[] | null {
  const names = new Set<string>();
  const re = new RegExp(`${esc(sigil)}\`(?:([\\w.]+)|\\[([\\w.,\\s]*)\\])\``, 'gu');
  for (const m of text.matchAll(re)) {
    if (m[1]) names.add(m[1]);
    else for (const n of m[2].split(',')) if (n.trim()) names.add(n.trim());
  }
  return names.size ? [...names].sort() : null;
}

/** Sorted unique ``$`…` `` payloads (no backtick inside) of the prompts only. */
export function getExprs(msgs: readonly Message[], sigil = '$'): string[] {
  const res = new Set<string>();
  const re = new RegExp(`${esc(sigil)}\`([^\`]+)\``, 'g');
  for (const m of msgs) if (m.msgType === 'prompt') for (const h of m.content.matchAll(re)) res.add(h[1]);
  return [...res].sort();
}

/** A value read from a kernel: its Python type name and `str()` text, written as they are. */
export interface KernelValue {
  pyType: string;
  text: string;
}

function isKernelValue(v: unknown): v is KernelValue {
  return typeof v === 'object' && v !== null && typeof (v as KernelValue).pyType === 'string' && typeof (v as KernelValue).text === 'string';
}

/**
 * `vars_hist`: one synthetic turn giving the model the values of `ns`. Byte values travel as `variable`
 * media. The element layout (no whitespace between children) follows §6; the reference's exact
 * spacing inside `<variables>` is not recorded in the spec. A `KernelValue` (a kernel's value) carries its
 * own type name; other values are JS values, typed as Python would read them.
 */
export function varsHist(aim: AimInfo, ns: Record<string, unknown>): [HistPart[], string] {
  const keys = Object.keys(ns);
  const label = (k: string) => (k.startsWith('$`') || k.startsWith('!`') ? k : `$\`${k}\``);
  let body = `The 'variables' section provides values of: ${keys.map(label).join(', ')}`;
  const media: HistPart[] = [];
  for (const k of keys) {
    const v = ns[k];
    if (v instanceof Uint8Array) media.push(...mediaItem('variable', k, v, aim));
    else if (isKernelValue(v)) body += `<variable${xmlAttrs([['name', k], ['type', v.pyType]])}>${v.text}</variable>`;
    else body += `<variable${xmlAttrs([['name', k], ['type', pyTypeName(v)]])}>${pyStr(v)}</variable>`;
  }
  return [[`<variables>${body}</variables>`, ...media], 'Understood, I will use these variable values.'];
}
