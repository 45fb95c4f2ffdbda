// The dialog tools as pure operations on a Dialog: each call is planned against the dialog as it is
// now and gives what dialoghelper returns (ids, Python reprs of its dicts and lists, line-numbered
// content, diffs) plus the edit to perform, so a host turns one call into one undoable edit. A call
// with bad arguments (an unknown id, a line out of range) gives an error text and no edit. `python`
// runs in a kernel, so hosts run it themselves.

import { Json, JsonObject, isJsonObject, parseJson } from '../base/json';
import { b64encode } from '../base/base64';
import { Dialog, DialogError, Message, MsgType, isMsgType, truthy } from '../model/dialog';
import { aiRes } from '../model/outputs';
import { headerLevel, sectionMsgs } from '../model/sections';
import { MessageFields, UpdateOptions } from '../model/update';
import { PyTuple, pyRepr } from '../python';
import { cpLen, cpSlice, pySplitlines } from '../python/text';
import { renderOutputsAi } from '../hist/render';
import { toXml } from '../hist/xml';
import { DialogEdit, indexIn, planAddMsg, planDelMsgs, planTextEdit, planUpdateMsg, resolveMsg, splitIds } from '../surgery';
import { delLines, insertLine, replaceLines, strReplace, strsReplace, StrReplaceOptions, TextOp } from '../surgery/text';
import { findMsgs } from '../surgery/find';
import { changedMessages } from '../threeway/changed';
import { lnhash } from '../surgery/view';
import { WORKSPACE_TOOLS, dialogTool } from './defs';

/** What a call needs to know beyond the dialog. */
export interface ToolContext {
  /** The dialog's name for `curr_dialog` (its path without `.ipynb`). */
  name: string;
  /** Its mode (`learning`, `concise`, `standard`). */
  mode: string;
  /** The current message: the prompt being answered, then the message last added or updated. */
  current: string | null;
  /** The prompt being answered: its reply is being written, so no call may change or delete it. */
  answering?: string | null;
  /**
   * The dialog file's version at git HEAD, for find_msgs' only_chg: null when HEAD does not hold the file
   * (untracked, no commit yet), a sentence when it cannot be read (no repository, no git). Read by the
   * host only for a call that asks (it runs git).
   */
  head?: Dialog | null | string;
}

export interface ToolOutcome {
  /** What the model reads. */
  text: string;
  /** The result as data (dicts, lists, ids), for a door whose wire is JSON (dialoghelper's routes); `text` is its Python repr. */
  value?: Json;
  /** False: the call failed and changes nothing. */
  ok: boolean;
  /** The change to perform (none for reads, failures and edits that change nothing). */
  edit?: DialogEdit<unknown>;
  /** The current message after the call (add_msg and update_msg move it). */
  current?: string | null;
  /** The messages del_msgs would delete (what a confirmation shows). */
  deletes?: Message[];
  /** The images of the message read (its attachments, its outputs'), for hosts that pass images on. */
  images?: ToolImage[];
}

/** An image a result carries beside its text, as base64. */
export interface ToolImage {
  mime: string;
  data: string;
}

type Args = JsonObject;

/** A call that fails with `message` and changes nothing. */
class ToolArgError extends Error {}

/** A read's result: the value, and its Python repr for the model. */
function data(value: Json): ToolOutcome {
  return { text: pyRepr(value), value, ok: true };
}

function fail(message: string): ToolOutcome {
  return { text: `Error: ${message}`, ok: false };
}

// ---------------------------------------------------------------- arguments

function opt<T>(args: Args, key: string, check: (v: Json) => v is Json & T, what: string): T | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (!check(v)) throw new ToolArgError(`${key} must be ${what}, not ${JSON.stringify(v)}`);
  return v as T;
}
const isStr = (v: Json): v is string => typeof v === 'string';
const isInt = (v: Json): v is number => typeof v === 'number' && Number.isInteger(v);
const isBool = (v: Json): v is boolean => typeof v === 'boolean' || v === 0 || v === 1;
const isObj = (v: Json): v is JsonObject => isJsonObject(v);
const sArg = (a: Args, k: string) => opt<string>(a, k, isStr, 'a string');
const iArg = (a: Args, k: string) => opt<number>(a, k, isInt, 'an integer');
const bArg = (a: Args, k: string, dflt = false): boolean => {
  const v = opt<boolean | number>(a, k, isBool, 'true or false');
  return v === undefined ? dflt : !!v;
};
const oArg = (a: Args, k: string) => opt<JsonObject>(a, k, isObj, 'an object');

function required<T>(v: T | undefined, key: string): T {
  if (v === undefined) throw new ToolArgError(`${key} is required`);
  return v;
}

function msgTypeArg(a: Args, dflt?: MsgType): MsgType | undefined {
  const t = sArg(a, 'msg_type') ?? dflt;
  if (t !== undefined && !isMsgType(t)) throw new ToolArgError(`msg_type must be 'code', 'note', 'prompt' or 'raw', not '${t}'`);
  return t;
}

// ---------------------------------------------------------------- how messages read

/** Cuts `s` to `n` characters by dropping its middle. */
function middleOut(s: string, n: number): string {
  if (cpLen(s) <= n) return s;
  const half = Math.floor((n - 1) / 2);
  return cpSlice(s, half) + '…' + [...s].slice(-(n - 1 - half)).join('');
}

/** `     3 │ line`: dialoghelper's numbered lines, numbered from `first`. */
function numbered(lines: readonly string[], first = 1): string {
  return lines.map((l, k) => `${String(k + first).padStart(6)} │ ${l}`).join('\n');
}

/** A message's output as the model reads it: a prompt's reply, a code message's outputs as text. */
function outputText(m: Message): string {
  if (m.msgType === 'prompt') return aiRes(m);
  if (m.msgType === 'code') return renderOutputsAi(m.output);
  return '';
}

/** The flags and metadata dialoghelper's dicts carry beside id, type, content and output. */
function metaFields(m: Message): JsonObject {
  const res: JsonObject = {};
  if (truthy(m.skipped)) res.skipped = true;
  if (truthy(m.pinned)) res.pinned = true;
  for (const [k, v] of Object.entries(m.meta)) if (k !== 'solveit_ai') res[k] = v;
  return res;
}

function msgDict(m: Message, content: string, opts: { output?: boolean; truncOut?: boolean; meta?: boolean } = {}): JsonObject {
  const d: JsonObject = { id: m.id, msg_type: m.msgType, content };
  if (opts.output ?? true) {
    const out = outputText(m);
    d.output = opts.truncOut ? middleOut(out, 100) : out;
  }
  return opts.meta ?? true ? { ...d, ...metaFields(m) } : d;
}

interface XmlOpts {
  nums: boolean;
  inclOut: boolean;
  truncOut: boolean;
  truncIn: boolean;
}

/** The concise XML of view_dlg: each message's item (with its id), contents numbered or cut as asked. */
function dialogXml(d: Dialog, msgs: readonly Message[], o: XmlOpts, content: (m: Message) => string = (m) => m.content): string {
  const body = msgs
    .map((m) => {
      let text = content(m);
      if (o.nums) text = numbered(pySplitlines(text));
      else if (o.truncIn) text = middleOut(text, 80);
      const shown = m.clone();
      shown.content = text;
      const xml = toXml(shown);
      const out = o.inclOut && m.msgType === 'code' ? renderOutputsAi(m.output) : '';
      // A code message's output goes inside its element, cut as dialoghelper cuts it (100, from the middle).
      return out ? `${xml.slice(0, -'</code>'.length)}<out>${o.truncOut ? middleOut(out, 100) : out}</out></code>` : xml;
    })
    .join('');
  return `<dialog name="${d.name}">${body}</dialog>`;
}

const IMAGE_MIMES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** The raster images of `m`: its attachments, then one per output (jpeg > png > webp > gif, as the media path picks). */
function msgImages(m: Message, outputs: boolean): ToolImage[] {
  const res: ToolImage[] = m.attachments.filter((a) => IMAGE_MIMES.includes(a.contentType) && !a.invalidBase64).map((a) => ({ mime: a.contentType, data: b64encode(a.data) }));
  if (!outputs || m.msgType !== 'code') return res;
  for (const o of m.outputs) {
    const data = o.data;
    if (!isJsonObject(data)) continue;
    const mime = IMAGE_MIMES.find((k) => k in data);
    const b64 = mime && data[mime];
    const text = Array.isArray(b64) ? b64.join('') : b64;
    if (mime && typeof text === 'string' && text) res.push({ mime, data: text.replace(/\s+/g, '') });
  }
  return res;
}

// ---------------------------------------------------------------- the read tools

function currDialog(ctx: ToolContext): ToolOutcome {
  return data({ name: ctx.name, mode: ctx.mode });
}

function viewDlgTool(d: Dialog, a: Args): ToolOutcome {
  const type = msgTypeArg(a);
  const skipped = bArg(a, 'include_skipped');
  const msgs = d.messages.filter((m) => (!type || m.msgType === type) && (skipped || !truthy(m.skipped)));
  const o = { nums: bArg(a, 'nums'), inclOut: bArg(a, 'include_output'), truncOut: bArg(a, 'trunc_out', true), truncIn: bArg(a, 'trunc_in') };
  return { text: dialogXml(d, msgs, o), ok: true };
}

function findMsgsTool(d: Dialog, a: Args, ctx: ToolContext): ToolOutcome {
  const headersOnly = bArg(a, 'headers_only');
  const skipped = bArg(a, 'include_skipped');
  let changed: Set<Message> | undefined;
  if (bArg(a, 'only_chg')) {
    if (ctx.head === undefined) return fail("only_chg needs the dialog file's git HEAD version, which this host cannot read");
    if (typeof ctx.head === 'string') return fail(ctx.head);
    changed = changedMessages(ctx.head, d);
  }
  const res = findMsgs(d, {
    pattern: sArg(a, 're_pattern') ?? '',
    msgType: msgTypeArg(a),
    before: iArg(a, 'before') ?? 0,
    after: iArg(a, 'after') ?? 0,
    context: iArg(a, 'context') ?? null,
    useCase: bArg(a, 'use_case'),
    useRegex: bArg(a, 'use_regex', true),
    onlyErr: bArg(a, 'only_err'),
    onlyExp: bArg(a, 'only_exp'),
    ids: sArg(a, 'ids') || undefined,
    limit: iArg(a, 'limit') ?? null,
    headersOnly,
    headerSection: sArg(a, 'header_section') ?? null,
    pred: (m) => (skipped || !truthy(m.skipped)) && (!changed || changed.has(m)),
  });
  const msgs = res.msgs.filter((m) => skipped || !truthy(m.skipped));
  const nums = bArg(a, 'nums');
  const truncIn = bArg(a, 'trunc_in');
  const content = (m: Message) => (headersOnly ? m.content.split('\n')[0] : m.content);
  if (bArg(a, 'as_xml')) {
    const xml = dialogXml(d, msgs, { nums, inclOut: bArg(a, 'include_output', true), truncOut: bArg(a, 'trunc_out'), truncIn }, content);
    return { text: xml, value: xml, ok: true };
  }
  const rows = msgs.map((m) => {
    let text = content(m);
    if (nums) text = numbered(pySplitlines(text));
    else if (truncIn) text = middleOut(text, 80);
    return msgDict(m, text, { output: bArg(a, 'include_output', true), truncOut: bArg(a, 'trunc_out'), meta: bArg(a, 'include_meta', true) });
  });
  return data(rows);
}

/** Content lines start_line..end_line (1-based, inclusive; null or -1 = the last), numbered or hashed as asked. */
function contentLines(text: string, a: Args, numsDefault: boolean): string {
  const start = iArg(a, 'start_line') ?? 1;
  const end = iArg(a, 'end_line');
  const all = pySplitlines(text);
  const e = end == null || end === -1 ? all.length : end < 0 ? all.length + end + 1 : end;
  const s = start < 0 ? Math.max(0, all.length + start) : Math.max(0, start - 1);
  const lines = all.slice(s, Math.max(s, e));
  if (bArg(a, 'lnhashs')) return lines.map((l, k) => lnhash(s + k + 1, l) + l).join('\n');
  if (bArg(a, 'nums', numsDefault)) return numbered(lines, s + 1);
  return start !== 1 || end != null ? lines.join('\n') : text;
}

function readMsgTool(d: Dialog, a: Args, ctx: ToolContext): ToolOutcome {
  const relative = bArg(a, 'relative', true);
  const id = sArg(a, 'id');
  const n = iArg(a, 'n') ?? -1;
  if (id && !relative) throw new ToolArgError('`id` provided while `relative=False`');
  const none = data({ msg: null });
  let idx: number;
  if (relative) {
    const anchor = id ?? ctx.current;
    const k = anchor ? d.indexOf(anchor) : -1;
    if (k < 0) return none;
    idx = k + n;
    if (idx < 0 || idx >= d.messages.length) return none;
  } else {
    if (n < -d.messages.length || n >= d.messages.length) return none;
    idx = n < 0 ? d.messages.length + n : n;
  }
  const m = d.messages[idx];
  return { ...data(msgDict(m, contentLines(m.content, a, false))), images: msgImages(m, true) };
}

function viewMsgTool(d: Dialog, a: Args): ToolOutcome {
  const m = resolveMsg(d, required(sArg(a, 'id'), 'id'));
  let res = contentLines(m.content, a, true);
  const out = bArg(a, 'incl_out') ? outputText(m) : '';
  if (out) res += `\n<out>\n${bArg(a, 'trunc_out', true) && cpLen(out) > 512 ? cpSlice(out, 511) + '…' : out}\n</out>`;
  return { text: res, value: res, ok: true, images: msgImages(m, bArg(a, 'incl_out')) };
}

// ---------------------------------------------------------------- the edit tools

/** The prompt being answered may be read, never changed: its reply is being written into it. */
function guard(ctx: ToolContext, m: Message): void {
  if (ctx.answering && m.id === ctx.answering) {
    throw new ToolArgError(`message ${m.id} is the prompt being answered: it cannot be changed or deleted while its reply is written`);
  }
}

/** The cell flags add_msg and update_msg take, as message fields and metadata (true sets, false removes). */
function flagChanges(a: Args, msgType: string): { fields: MessageFields; mergemeta: JsonObject; exported?: boolean } {
  const fields: MessageFields = {};
  const mergemeta: JsonObject = {};
  for (const k of ['skipped', 'pinned'] as const) if (a[k] != null) fields[k] = bArg(a, k) ? true : 0;
  const metaKey: Record<string, string> = { i_collapsed: 'hide_input', o_collapsed: 'collapsed', heading_collapsed: 'heading_collapsed' };
  for (const [k, key] of Object.entries(metaKey)) if (a[k] != null) mergemeta[key] = bArg(a, k) ? true : null;
  const tr = sArg(a, 'time_run');
  if (tr !== undefined) mergemeta.time_run = tr || null;
  const out = sArg(a, 'output');
  if (out !== undefined) fields.output = outputArg(out, msgType);
  return { fields, mergemeta, exported: a.exported == null ? undefined : bArg(a, 'exported') };
}

function outputArg(out: string, msgType: string): MessageFields['output'] {
  if (msgType !== 'code') return out;
  if (!out.trim()) return [];
  let v: Json;
  try {
    v = parseJson(out).value;
  } catch {
    throw new ToolArgError('a code message\'s output must be an .ipynb JSON array of outputs');
  }
  if (!Array.isArray(v) || !v.every(isJsonObject)) throw new ToolArgError('a code message\'s output must be an .ipynb JSON array of outputs');
  return v as JsonObject[];
}

function addMsgTool(d: Dialog, a: Args, ctx: ToolContext): ToolOutcome {
  const content = required(sArg(a, 'content'), 'content');
  const msgType = msgTypeArg(a, 'note')!;
  const placement = sArg(a, 'placement') || 'add_after';
  const id = sArg(a, 'id') || null;
  let where: { before?: string; after?: string } = {};
  if (placement === 'add_after' || placement === 'add_before') {
    const anchor = id ?? ctx.current;
    if (anchor) where = placement === 'add_after' ? { after: resolveMsg(d, anchor).id } : { before: resolveMsg(d, anchor).id };
  } else if (placement === 'at_start') {
    if (d.messages.length) where = { before: d.messages[0].id };
  } else if (placement !== 'at_end') throw new ToolArgError(`placement must be 'add_after', 'add_before', 'at_start' or 'at_end', not '${placement}'`);
  const { fields, mergemeta, exported: exp } = flagChanges(a, msgType);
  const plan = planAddMsg(d, content, { msgType, ...where, export: !!exp, meta: mergemeta });
  const m = plan.result;
  // Falsy flags are left out (the file keeps only true ones).
  for (const [k, v] of Object.entries(m.meta)) if (v === null) delete m.meta[k];
  if (fields.skipped) m.skipped = true;
  if (fields.pinned) m.pinned = true;
  if (fields.output !== undefined) m.output = fields.output as Message['output'];
  return { text: m.id, value: m.id, ok: true, edit: plan, current: m.id };
}

function updateMsgTool(d: Dialog, a: Args, ctx: ToolContext): ToolOutcome {
  const m = resolveMsg(d, required(sArg(a, 'id'), 'id'));
  guard(ctx, m);
  const msgType = msgTypeArg(a);
  const { fields, mergemeta, exported: exp } = flagChanges(a, msgType ?? m.msgType);
  if (msgType !== undefined) fields.msgType = msgType;
  const content = sArg(a, 'content');
  if (content !== undefined) fields.content = content;
  const meta = oArg(a, 'meta');
  if (meta !== undefined) fields.meta = meta;
  // Output last: a type change resets it.
  if (fields.output !== undefined) {
    const out = fields.output;
    delete fields.output;
    fields.output = out;
  }
  const merge = oArg(a, 'mergemeta');
  const opts: UpdateOptions = {};
  if (merge || Object.keys(mergemeta).length) opts.mergemeta = { ...mergemeta, ...(merge ?? {}) };
  if (exp !== undefined) opts.export = exp;
  const plan = planUpdateMsg(d, m, fields, opts);
  return { text: m.id, value: m.id, ok: true, edit: plan.edits.length ? plan : undefined, current: m.id };
}

/** The messages del_msgs removes: each one, a collapsed heading with its section. */
function deletedBy(d: Dialog, ids: string[]): Message[] {
  const out: Message[] = [];
  const seen = new Set<Message>();
  for (const ref of ids) {
    const m = resolveMsg(d, ref);
    const group = truthy(m.meta.heading_collapsed) && headerLevel(m) ? sectionMsgs(d.messages, m) : [m];
    for (const x of group) {
      if (seen.has(x)) continue;
      seen.add(x);
      out.push(x);
    }
  }
  return out.sort((x, y) => indexIn(d, x) - indexIn(d, y));
}

function delMsgsTool(d: Dialog, a: Args, ctx: ToolContext): ToolOutcome {
  const raw = a.ids;
  const ids = typeof raw === 'string' ? splitIds(raw) : Array.isArray(raw) && raw.every(isStr) ? (raw as string[]) : undefined;
  if (!ids?.length) throw new ToolArgError('ids must name the messages to delete (comma-separated ids)');
  const msgs = deletedBy(d, ids);
  for (const m of msgs) guard(ctx, m);
  const plan = planDelMsgs(d, msgs);
  return { ...data(msgs.map((m) => m.id)), edit: plan, deletes: msgs };
}

function replaceOpts(a: Args): StrReplaceOptions {
  return {
    startLine: iArg(a, 'start_line') ?? null,
    endLine: iArg(a, 'end_line') ?? null,
    nMatches: iArg(a, 'n_matches') ?? null,
    reFilter: sArg(a, 're_filter') ?? null,
    invertFilter: bArg(a, 'invert_filter'),
    useRegex: bArg(a, 'use_regex'),
  };
}

/** The operation of a text-edit tool, its arguments checked. */
function textOp(name: string, a: Args): TextOp {
  switch (name) {
    case 'msg_str_replace': {
      const old = required(sArg(a, 'old_str'), 'old_str');
      const neu = required(sArg(a, 'new_str'), 'new_str');
      return (t) => strReplace(t, old, neu, replaceOpts(a));
    }
    case 'msg_strs_replace':
      return (t) => strsReplace(t, a.old_strs, a.new_strs, replaceOpts(a));
    case 'msg_insert_line': {
      const n = required(iArg(a, 'insert_line'), 'insert_line');
      const s = required(sArg(a, 'new_str'), 'new_str');
      return (t) => insertLine(t, n, s);
    }
    case 'msg_replace_lines': {
      const s = iArg(a, 'start_line') ?? null;
      const e = iArg(a, 'end_line') ?? null;
      const c = sArg(a, 'new_content') ?? '';
      return (t) => replaceLines(t, s, e, c);
    }
    default: {
      const s = iArg(a, 'start_line');
      const e = iArg(a, 'end_line');
      const f = { reFilter: sArg(a, 're_filter') ?? null, invertFilter: bArg(a, 'invert_filter') };
      return (t) => delLines(t, s, e, f);
    }
  }
}

function textEditTool(d: Dialog, name: string, a: Args, ctx: ToolContext): ToolOutcome {
  const raw = a.id;
  const op = textOp(name, a);
  const out = bArg(a, 'out');
  if (typeof raw === 'string' && raw !== 'all') {
    const m = resolveMsg(d, raw);
    guard(ctx, m);
    const plan = planTextEdit(d, m, op, { out });
    const text = plan.result as string;
    return { text, ok: !text.startsWith('error:'), edit: plan.edits.length ? plan : undefined, current: plan.edits.length ? m.id : undefined };
  }
  if (raw !== 'all' && !(Array.isArray(raw) && raw.length && raw.every(isStr))) throw new ToolArgError("id must be a message id, a list of ids, or 'all'");
  // Every message but the prompt being answered, for 'all'; a list is checked whole before anything changes.
  const msgs = raw === 'all' ? d.messages.filter((m) => m.id !== ctx.answering) : (raw as string[]).map((r) => resolveMsg(d, r));
  msgs.forEach((m) => guard(ctx, m));
  const plan = planTextEdit(d, msgs, op, { out });
  const pairs = plan.result as [string, string][];
  return { text: pyRepr(pairs.map((p) => new PyTuple(p))), ok: true, edit: plan.edits.length ? plan : undefined };
}

// ---------------------------------------------------------------- the entry point

/** Whether the call needs the dialog file's git HEAD version in its context (`head`): find_msgs with only_chg. */
export function needsHead(name: string, args: Args): boolean {
  return name === 'find_msgs' && !!args.only_chg;
}

/**
 * Plans one call of a dialog tool against `d` (not changed). Unknown tools, bad arguments and
 * failing edits give `ok: false` with a message the model can act on, and no edit.
 */
export function planDialogTool(d: Dialog, name: string, args: Args, ctx: ToolContext): ToolOutcome {
  const def = dialogTool(name);
  if (!def) return fail(`no dialog tool named ${name}`);
  if (name === 'python') return fail('python runs in the kernel, not on the dialog');
  if (WORKSPACE_TOOLS.includes(name)) return fail(`${name} searches the workspace: the host runs it`);
  try {
    switch (name) {
      case 'curr_dialog':
        return currDialog(ctx);
      case 'view_dlg':
        return viewDlgTool(d, args);
      case 'find_msgs':
        return findMsgsTool(d, args, ctx);
      case 'read_msg':
        return readMsgTool(d, args, ctx);
      case 'view_msg':
        return viewMsgTool(d, args);
      case 'add_msg':
        return addMsgTool(d, args, ctx);
      case 'update_msg':
        return updateMsgTool(d, args, ctx);
      case 'del_msgs':
        return delMsgsTool(d, args, ctx);
      default:
        return textEditTool(d, name, args, ctx);
    }
  } catch (e) {
    if (e instanceof ToolArgError || e instanceof DialogError) return fail(e.message);
    throw e;
  }
}
