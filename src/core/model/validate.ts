// Validation (model §13): reports the first problem that would break saving or rendering; never repairs.

import { Dialog, DialogError, isMsgType, Message } from './dialog';
import { cpCompare, truncstr } from '../python/text';
import { pyRepr, pyStrRepr } from '../python';
import { isJsonObject } from '../base/json';

const OUT_TYPES = new Set(['stream', 'display_data', 'execute_result', 'error']);

/** Why `v` could not be written as JSON (Python's TypeError text), or null when it can. */
function jsonProblem(v: unknown, seen: Set<object> = new Set()): string | null {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return null;
  if (typeof v !== 'object') return `Object of type ${typeof v} is not JSON serializable`;
  if (seen.has(v)) return 'Circular reference detected';
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) {
    return `Object of type ${(v as object).constructor?.name ?? 'object'} is not JSON serializable`;
  }
  seen.add(v);
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    const p = jsonProblem(x, seen);
    if (p) return p;
  }
  seen.delete(v);
  return null;
}

/** Throws a DialogError naming the message for the first rule it breaks; returns `m` otherwise. */
export function validateMessage(m: Message): Message {
  const t = m.msgType as unknown;
  const content = m.content as unknown;
  if (!isMsgType(t)) throw new DialogError(`${m.id}: unknown msg_type ${pyRepr(t)}`);
  if (!m.id || typeof m.id !== 'string') throw new DialogError(`message missing id: ${pyStrRepr(truncstr(String(content ?? ''), 30))}`);
  if (typeof content !== 'string') throw new DialogError(`${m.id}: content must be str`);
  const o = m.output as unknown;
  if (t === 'code' || t === 'prompt') {
    if (!Array.isArray(o)) throw new DialogError(`${m.id}: ${t} output must be a list`);
    const bad = o.find((x) => !(isJsonObject(x) && typeof x.output_type === 'string' && OUT_TYPES.has(x.output_type)));
    if (bad !== undefined) throw new DialogError(`${m.id}: bad output entry ${pyStrRepr(truncstr(pyRepr(bad), 50))}`);
  } else if (typeof o === 'string' ? o.length : Array.isArray(o) ? o.length : o) {
    throw new DialogError(`${m.id}: ${t} message must not carry output`);
  }
  const p = jsonProblem(m.meta);
  if (p) throw new DialogError(`${m.id}: meta not JSON-serializable: ${p}`);
  return m;
}

/** Unique ids, then every message, then the dialog meta; returns `d`. */
export function validateDialog(d: Dialog): Dialog {
  const counts = new Map<string, number>();
  for (const m of d.messages) counts.set(m.id, (counts.get(m.id) ?? 0) + 1);
  const dups = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  if (dups.length) throw new DialogError(`duplicate message id(s): ${dups.sort(cpCompare).join(', ')}`);
  for (const m of d.messages) validateMessage(m);
  return validateDialogMeta(d);
}

/** Throws a DialogError when the dialog meta could not be written as JSON; returns `d` otherwise. */
export function validateDialogMeta(d: Dialog): Dialog {
  const p = jsonProblem(d.meta);
  if (p) throw new DialogError(`dialog meta not JSON-serializable: ${p}`);
  return d;
}
