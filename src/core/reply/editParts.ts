// A prompt's reply as editable parts for the Dialog panel: `reply2dlg` gives notes and tool calls;
// the panel edits name / arguments / result, adds or deletes calls, and `parts2reply` writes the
// reply back with `dlg2reply`. Parts the user did not touch reuse the very messages `reply2dlg` made,
// so their wire bytes (a legacy envelope's exact text) survive.

import { JsonObject } from '../base/json';
import { DialogError, Message, codeOutput } from '../model/dialog';
import { isIdentifier, parseLiteralCall, pyRepr, PyValue } from '../python';
import { renderOutputsAi } from '../hist/render';
import { dlg2reply, reply2dlg } from './subDialog';
import { aiRes } from '../model/outputs';

export interface ReplyNotePart {
  kind: 'note';
  text: string;
  /** Index of the part in `replyParts` this came from; absent for new parts. */
  from?: number;
}

export interface ReplyCallPart {
  kind: 'call';
  /** Dotted Python name of the tool. */
  name: string;
  /** The keyword arguments as Python source, `k=<literal>` joined by `,\n`. */
  args: string;
  result: string;
  toolId: string;
  from?: number;
}

export type ReplyPart = ReplyNotePart | ReplyCallPart;

function argsText(args: { [k: string]: PyValue }): string {
  return Object.keys(args)
    .map((k) => `${k}=${pyRepr(args[k])}`)
    .join(',\n');
}

function msg2part(m: Message, from: number): ReplyPart {
  if (m.msgType !== 'code') return { kind: 'note', text: m.content, from };
  const call = parseLiteralCall(m.content);
  const toolId = typeof m.meta.tool_id === 'string' ? m.meta.tool_id : '';
  return { kind: 'call', name: call?.name ?? '', args: call ? argsText(call.arguments) : m.content, result: renderOutputsAi(m.output), toolId, from };
}

/** The reply of `prompt` as parts (throws when the reply holds a call that is not a literal call). */
export function replyParts(prompt: Message): ReplyPart[] {
  return reply2dlg(prompt).messages.map(msg2part);
}

/** The code source of a call part, checked: a dotted name and keyword-only literal arguments. */
export function callSource(p: ReplyCallPart): string {
  const name = p.name.trim();
  if (!name.split('.').every(isIdentifier)) throw new DialogError(`not a dotted Python name: '${p.name}'`);
  const src = `${name}(${p.args.trim().replace(/,\s*$/, '')})`;
  const call = parseLiteralCall(src);
  if (!call) throw new DialogError(`the arguments of ${name} are not keyword=literal pairs: ${p.args}`);
  return `${call.name}(${Object.keys(call.arguments).map((k) => `${k}=${pyRepr(call.arguments[k])}`).join(', ')})`;
}

function samePart(a: ReplyPart, b: ReplyPart): boolean {
  if (a.kind === 'note' || b.kind === 'note') return a.kind === 'note' && b.kind === 'note' && a.text === b.text;
  return a.name === b.name && a.args === b.args && a.result === b.result && a.toolId === b.toolId;
}

/** The reply text for edited `parts` of `prompt`'s reply, in the wire style the reply already used. */
export function parts2reply(prompt: Message, parts: readonly ReplyPart[]): string {
  const sub = reply2dlg(prompt);
  const before = sub.messages.map(msg2part);
  // Nothing changed: the reply as it is (dlg2reply would normalise whitespace around the parts).
  if (parts.length === before.length && parts.every((p, k) => p.from === k && samePart(before[k], p))) return aiRes(prompt);
  sub.messages = parts.map((p) => {
    const orig = p.from !== undefined ? sub.messages[p.from] : undefined;
    if (orig && samePart(before[p.from!], p)) return orig;
    // An edited part stays the message it came from (the sub-dialog is this call's own), so
    // dlg2reply can rewrite just the changed fields of its block.
    const same = orig && orig.msgType === (p.kind === 'note' ? 'note' : 'code');
    if (p.kind === 'note') {
      if (!same) return new Message({ msgType: 'note', content: p.text });
      orig.content = p.text;
      return orig;
    }
    const meta: JsonObject = p.toolId ? { tool_id: p.toolId } : {};
    if (!same) return new Message({ msgType: 'code', content: callSource(p), output: codeOutput(p.result), meta });
    orig.content = callSource(p);
    if (renderOutputsAi(orig.output) !== p.result) orig.output = codeOutput(p.result);
    orig.meta = meta;
    return orig;
  });
  return dlg2reply(sub);
}
