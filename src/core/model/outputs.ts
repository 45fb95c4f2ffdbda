// Reading outputs (model §2, §5) and feeding kernel iopub messages into them (model §7).

import { Json, JsonObject, isJsonObject, jsonClone } from '../base/json';
import { DialogError, Message, Output, truthy } from './dialog';
import { pyRstrip } from '../python/text';
import { pyStrRepr } from '../python';

/** A Jupyter iopub message, as far as the model reads it. */
export interface Jmsg {
  msg_type?: string;
  header?: { msg_type?: string; [k: string]: unknown };
  content?: JsonObject;
  [k: string]: unknown;
}

/** Jupyter's list-of-lines text joined into one string. */
export function joinOut(v: Json | undefined): string {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : String(x))).join('');
  return typeof v === 'string' ? v : v == null ? '' : String(v);
}

function metaOf(o: Json): JsonObject | undefined {
  return isJsonObject(o) && isJsonObject(o.metadata) ? o.metadata : undefined;
}

/** The decoded size of a base64 output value (a string or a list of lines), without decoding it. */
export function base64Length(v: Json | undefined): number {
  const s = joinOut(v).replace(/\s+/g, '');
  return Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
}

/** A prompt's reply text: the markdown of its first `is_ai_res` output; `''` for other types. */
export function aiRes(m: Message): string {
  if (m.msgType !== 'prompt') return '';
  if (typeof m.output === 'string') return m.output;
  const res = m.output.find((o) => truthy(metaOf(o)?.is_ai_res));
  const data = res && isJsonObject(res.data) ? res.data : undefined;
  return data && truthy(data['text/markdown']) ? joinOut(data['text/markdown']) : '';
}

/** True iff a code message has an `error` output. */
export function hasError(m: Message): boolean {
  return m.msgType === 'code' && m.outputs.some((o) => isJsonObject(o) && o.output_type === 'error');
}

/** The `text/markdown` of each display_data / execute_result output that has one (streams never count). */
export function getOutputMds(outs: readonly Output[] | string | null | undefined): string[] {
  if (!outs || typeof outs === 'string') return [];
  const res: string[] = [];
  for (const o of outs) {
    if (!isJsonObject(o) || (o.output_type !== 'display_data' && o.output_type !== 'execute_result')) continue;
    if (isJsonObject(o.data) && Object.prototype.hasOwnProperty.call(o.data, 'text/markdown')) res.push(joinOut(o.data['text/markdown']));
  }
  return res;
}

function jmsgType(j: Jmsg): string {
  return j.msg_type ?? j.header?.msg_type ?? '';
}

/** The nbformat output for an iopub message; copies, so the caller's message is never aliased. */
export function msg2out(jmsg: Jmsg): Output {
  const t = jmsgType(jmsg);
  const c = jmsg.content ?? {};
  const get = (k: string): Json => jsonClone(c[k] ?? null);
  const meta = (): Json => (truthy(c.metadata) ? jsonClone(c.metadata as Json) : {});
  switch (t) {
    case 'stream':
      return { output_type: t, name: get('name'), text: get('text') };
    case 'error':
      return { output_type: t, ename: get('ename'), evalue: get('evalue'), traceback: get('traceback') };
    case 'execute_result':
      return { output_type: t, metadata: meta(), data: get('data'), execution_count: get('execution_count') };
    case 'display_data':
      return { output_type: t, metadata: meta(), data: get('data') };
    default:
      throw new DialogError(`Unrecognized output msg type: ${pyStrRepr(t)}`);
  }
}

/** Messages with a `clear_output(wait=true)` waiting for the next output. */
const clearPending = new WeakSet<Message>();

/** Clears the output now, or (with `wait`) when the next output arrives. */
export function clearOutput(m: Message, wait = false): void {
  if (wait) {
    clearPending.add(m);
    return;
  }
  clearPending.delete(m);
  m.output = m.msgType === 'code' || m.msgType === 'prompt' ? [] : '';
}

export interface AddOutputOptions {
  /** Transforms each new output (e.g. truncation). */
  trunc?: (out: Output) => Output;
  /** Receives `input_request` messages; its result is returned. */
  onInput?: (jmsg: Jmsg) => unknown;
}

/**
 * Converts one iopub message and adds it to `m`'s outputs, handling the stateful parts of the protocol:
 * a pending wait-clear, `;` suppression, input requests and display-id updates. Returns the stored output,
 * the `onInput` result for an input request, or undefined when the message was ignored.
 */
export function addOutput(m: Message, jmsg: Jmsg, opts: AddOutputOptions = {}): unknown {
  if (!truthy(m.output)) m.output = [];
  else m.version++; // the list is edited in place below: projections must not reuse a cached rendering
  if (clearPending.delete(m)) m.output = [];
  let t = jmsgType(jmsg);
  if (t === 'execute_result' && pyRstrip(m.content).endsWith(';')) return undefined;
  if (t === 'input_request') return opts.onInput ? opts.onInput(jmsg) : undefined;
  const transient = jmsg.content?.transient;
  const did = isJsonObject(transient) ? transient.display_id : undefined;
  const isUpdate = t === 'update_display_data';
  if (isUpdate) {
    if (!truthy(did)) throw new DialogError('update_display_data needs a transient display_id');
    t = 'display_data';
  }
  let out = msg2out(isUpdate ? { ...jmsg, msg_type: t, header: { ...(jmsg.header ?? {}), msg_type: t } } : jmsg);
  if (opts.trunc) out = opts.trunc(out);
  if (truthy(did)) out.metadata = { ...(isJsonObject(out.metadata) ? out.metadata : {}), did: did as Json };
  const outs = m.output as Output[];
  if (isUpdate) {
    const k = outs.findIndex((o) => metaOf(o)?.did === did);
    if (k >= 0) {
      outs[k] = out;
      return out;
    }
  }
  outs.push(out);
  return out;
}

/** A minimal iopub message of type `typ` with `content` (test helper of the reference). */
export function mkJmsg(typ: string, content: JsonObject = {}, metadata: JsonObject | null = null): Jmsg {
  return { msg_type: typ, content: { ...content, metadata: metadata ?? {} }, header: { msg_type: typ } };
}

export function mkStream(text: string, name = 'stdout'): Jmsg {
  return mkJmsg('stream', { name, text });
}

export function mkError(ename = 'Exception', evalue = '', traceback: string[] = []): Jmsg {
  return mkJmsg('error', { ename, evalue, traceback });
}

export function mkDispdata(data: JsonObject, metadata: JsonObject | null = null, displayId: string | null = null): Jmsg {
  return mkJmsg('display_data', { data, transient: displayId ? { display_id: displayId } : {} }, metadata);
}

export function mkExecresult(data: JsonObject, metadata: JsonObject | null = null, executionCount: Json = 1): Jmsg {
  return mkJmsg('execute_result', { data, execution_count: executionCount }, metadata);
}
