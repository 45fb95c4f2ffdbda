// One cell ↔ one message (ipynb-storage §1, §3–§6). Reading remembers, as plain-JSON hints in
// `Message.origin`, whatever the message model cannot hold (separator form, an absent or odd
// `solveit_ai` flag, unknown keys …) so that writing an edited cell loses nothing the file had.

import { Json, JsonObject, isJsonObject, jsonClone, jsonEqual, setKey } from '../base/json';
import { Attachment, CellOrigin, META_ATTRS, Message, newId, truthy } from '../model/dialog';
import { aiRes } from '../model/outputs';
import { joinSource, legacyOutputs, repairCell } from './repair';
import { attachmentProblem } from './schema';
import { joinLines, splitLines } from './text';
import { decodeBase64, encodeBase64 } from '../base/base64';
import { pyRepr, pyStr } from '../python';

/** The reply separator Solveit writes (ipynb-storage §3). */
export const REPLY_SEP = '\n\n##### \u{1F916}Reply\u{1F916}<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n';

/**
 * Every separator form in the wild (DECISIONS "separator forms"): the line `##### 🤖Reply🤖` or
 * `##### Reply`, then the marker with or without `_<hex>`, on a line of its own, taking up to two
 * newlines on each side as the standard form does.
 */
const SEP_LINE = /\n{0,2}(?<=^|\n)##### (?:\u{1F916}Reply\u{1F916}|Reply)<!-- SOLVEIT_SEPARATOR(?:_[0-9a-f]+)? -->(?:\n{1,2}|$)/u;

/**
 * `text` without any reply separator: its lines, and the marker wherever else it stands (quoted in a tool
 * result, say). What a reader of a shared page must never see.
 */
export function withoutSeparators(text: string): string {
  if (!text.includes('SOLVEIT_SEPARATOR')) return text;
  return text.replace(new RegExp(SEP_LINE.source, 'gu'), '\n\n').replace(/<!-- SOLVEIT_SEPARATOR(?:_[0-9a-f]+)? -->/g, '');
}

export interface SplitReply {
  content: string;
  reply: string;
  /** The separator as it stood in the source (absent when there was none). */
  sep?: string;
  /** A second separator and everything after it: the reference drops it (V008), we keep it. */
  tail?: string;
}

/** Splits a prompt cell's source at its first separator; the reply ends at a second one. */
export function splitReply(source: string): SplitReply {
  let k = source.indexOf(REPLY_SEP);
  let sep = REPLY_SEP;
  if (k < 0) {
    const m = source.includes('SOLVEIT_SEPARATOR') ? SEP_LINE.exec(source) : null;
    if (!m) return { content: source, reply: '' };
    k = m.index;
    sep = m[0];
  }
  const content = source.slice(0, k);
  const rest = source.slice(k + sep.length);
  const k2 = rest.indexOf(sep);
  return k2 < 0 ? { content, reply: rest, sep } : { content, reply: rest.slice(0, k2), sep, tail: rest.slice(k2) };
}

/**
 * Storage hints kept in `Message.origin` besides `text` / `state` (all optional, all plain JSON):
 * `file`, `index` – which read and position the cell came from; `genId` – the in-memory id of a cell that
 * had none (an unedited write keeps it id-less); `sep` – a non-standard separator; `emptySep` – the
 * separator was there with an empty reply; `tail` – text from a second separator on; `flag` – a
 * `solveit_ai` value other than `true`; `flagAbsent` – a prompt recognised by its separator alone;
 * `cellType` – an unknown or missing-type cell's `cell_type`; `extra` – cell keys nbformat storage
 * does not model; `badAttachments` – attachment entries that could not be read, written back as they were.
 */
export type CellHints = CellOrigin;

const KNOWN_KEYS = new Set(['cell_type', 'id', 'metadata', 'source', 'outputs', 'attachments', 'execution_count']);
const TEXT_MIME = /^text\/|^application\/javascript$|^image\/svg\+xml$/;
const JSON_MIME = /^application\/(?:.*\+)?json$/;

/** Joins list-of-lines values the way the reference keeps outputs in memory (§2), in place. */
function normaliseOutput(o: JsonObject): JsonObject {
  if (o.output_type === 'stream') o.text = joinLines(o.text);
  else if (isJsonObject(o.data)) {
    const data = o.data;
    for (const k in data) if (Array.isArray(data[k]) && !JSON_MIME.test(k)) data[k] = joinLines(data[k]);
  }
  return o;
}

function readAttachments(v: Json | undefined, where: string, h: CellHints, extra: JsonObject, repairs: string[] | null): Attachment[] {
  if (v === undefined) return [];
  if (!isJsonObject(v)) {
    repairs?.push(`${where}: kept non-dict attachments as they are`);
    extra.attachments = v;
    return [];
  }
  const out: Attachment[] = [];
  let bad: JsonObject | undefined;
  for (const id in v) {
    const bundle = v[id];
    const problem = attachmentProblem(bundle);
    if (problem !== null) {
      // Not readable as an attachment, but the user's: it is written back as it was.
      repairs?.push(`${where}: attachment ${pyRepr(id)} kept as it is (${problem})`);
      setKey((bad ??= {}), id, bundle);
      continue;
    }
    const mime = Object.keys(bundle as JsonObject)[0];
    const b64 = joinLines((bundle as JsonObject)[mime]) as string;
    const data = decodeBase64(b64);
    if (data) out.push(new Attachment(data, mime, id));
    else {
      // Invalid base64 is kept verbatim as unreadable media (§10 port decision), not a failed read.
      repairs?.push(`${where}: attachment ${pyRepr(id)} has invalid base64, kept as unreadable media`);
      out.push(new Attachment(new Uint8Array(0), mime, id, b64));
    }
  }
  if (bad) h.badAttachments = bad;
  return out;
}

/**
 * Reads one parsed cell (repairing it in place) into a message whose `origin` holds the hints; the caller
 * sets `origin.text`. `genId` fixes the id given to an id-less cell (for re-reading an origin).
 */
export function readCell(c: JsonObject, index: number, repairs: string[] | null, genId?: string): Message {
  const hasId = Object.prototype.hasOwnProperty.call(c, 'id');
  const where = hasId ? `cell ${pyStr(c.id)}` : `cell ${index}`;
  const h: CellHints = { text: '' };
  const ct = c.cell_type;
  let kind: string;
  if (ct === 'markdown' || ct === 'code' || ct === 'raw') kind = ct;
  else {
    kind = 'raw';
    if (ct === undefined) repairs?.push(`${where}: missing cell_type, read as raw`);
    else {
      repairs?.push(`${where}: unknown cell_type ${pyRepr(ct)}, read as raw`);
      h.cellType = ct;
    }
  }
  repairCell(c, where, kind === 'code', repairs);

  const meta = isJsonObject(c.metadata) ? c.metadata : {};
  const flag = meta.solveit_ai;
  if (flag !== undefined) {
    delete meta.solveit_ai;
    if (flag !== true) h.flag = flag;
  }
  const source = joinSource(c.source);
  let split: SplitReply | undefined;
  let msgType: string;
  if (truthy(flag)) msgType = 'prompt';
  else if (flag === undefined && kind === 'markdown' && (split = splitReply(source)).sep !== undefined) {
    // DECISIONS "a markdown cell with the reply separator but no solveit_ai": a prompt, flag kept absent.
    msgType = 'prompt';
    h.flagAbsent = true;
  } else msgType = kind === 'markdown' ? 'note' : kind;

  let content = source;
  let output: Json[] | string = '';
  if (msgType === 'prompt') {
    split ??= splitReply(source);
    content = split.content;
    output = split.reply;
    if (split.sep !== undefined && split.sep !== REPLY_SEP) h.sep = split.sep;
    if (split.sep !== undefined && split.reply === '') h.emptySep = true;
    if (split.tail !== undefined) h.tail = split.tail;
  } else if (msgType === 'code') {
    output = (c.outputs as Json[]).map((o) => normaliseOutput(o as JsonObject));
  }

  const extra: JsonObject = {};
  const attachments = readAttachments(c.attachments, where, h, extra, repairs);
  for (const k in c) if (!KNOWN_KEYS.has(k)) setKey(extra, k, c[k]);
  for (const _ in extra) {
    h.extra = extra;
    break;
  }
  let id: string;
  if (truthy(c.id)) id = pyStr(c.id);
  else h.genId = id = genId ?? newId();

  const m = new Message({ id, content, msgType, meta, output: output as Message['output'], attachments });
  m.origin = h;
  return m;
}

// ---------------------------------------------------------------- writing

function writeOutput(o: Json): Json {
  if (!isJsonObject(o)) return jsonClone(o);
  const out: JsonObject = {};
  const bundle = o.output_type === 'display_data' || o.output_type === 'execute_result';
  for (const k in o) {
    const v = o[k];
    if (k === 'metadata' && isJsonObject(v) && Object.prototype.hasOwnProperty.call(v, '__type')) {
      // `__type` is a transient host key (§6); nothing else is stripped.
      const md = jsonClone(v);
      delete md.__type;
      out.metadata = md;
    } else if (k === 'data' && bundle && isJsonObject(v)) {
      const data: JsonObject = {};
      for (const mime in v) {
        const x = v[mime];
        setKey(data, mime, typeof x === 'string' && TEXT_MIME.test(mime) ? splitLines(x) : jsonClone(x));
      }
      out.data = data;
    } else if (k === 'text' && o.output_type === 'stream' && typeof v === 'string') out.text = splitLines(v);
    else setKey(out, k, jsonClone(v));
  }
  return out;
}

function codeOutputs(m: Message): Json[] {
  const o = m.output;
  // A legacy string output (§6) is JSON text of the list.
  return (typeof o === 'string' ? (legacyOutputs(o) ?? []) : o).map(writeOutput);
}

/**
 * The nbformat cell a message writes (ipynb-storage §1, §8), using the hints in `m.origin` so an edited
 * cell keeps what the file had. Shares no containers with the message: writing never aliases live state.
 */
export function cellOfMessage(m: Message): JsonObject {
  const h = m.origin;
  const t = m.msgType;
  const cellType: Json =
    t === 'code' ? 'code' : t === 'note' || t === 'prompt' ? 'markdown' : h?.cellType !== undefined ? h.cellType : 'raw';

  let source = m.content;
  let sepWritten = false;
  if (t === 'prompt') {
    const reply = aiRes(m);
    const tail = typeof h?.tail === 'string' ? h.tail : '';
    if (reply !== '' || tail !== '' || h?.emptySep === true) {
      source += (typeof h?.sep === 'string' ? h.sep : REPLY_SEP) + reply + tail;
      sepWritten = true;
    }
  }

  const metadata = jsonClone(m.meta);
  for (const k of META_ATTRS) if (truthy(m[k])) metadata[k] = jsonClone(m[k]);
  const flag = h?.flag;
  if (t === 'prompt') {
    // Without a separator the flag is what makes it a prompt, so it is written even if it was absent.
    if (!(h?.flagAbsent === true && sepWritten)) metadata.solveit_ai = truthy(flag) ? jsonClone(flag!) : true;
  } else if (flag !== undefined && !truthy(flag)) metadata.solveit_ai = jsonClone(flag);

  const cell: JsonObject = { cell_type: cellType, id: m.id, metadata, source: splitLines(source) };
  if (t === 'code') {
    cell.execution_count = null;
    cell.outputs = codeOutputs(m);
  }
  const bad = isJsonObject(h?.badAttachments) ? h.badAttachments : undefined;
  if (m.attachments.length || bad) {
    const atts: JsonObject = {};
    for (const a of m.attachments) {
      const b64 = a.invalidBase64 ?? encodeBase64(a.data);
      setKey(atts, a.id, { [a.contentType]: TEXT_MIME.test(a.contentType) ? splitLines(b64) : b64 });
    }
    if (bad) for (const id in bad) if (!Object.prototype.hasOwnProperty.call(atts, id)) setKey(atts, id, jsonClone(bad[id]));
    cell.attachments = atts;
  }
  const extra = h?.extra;
  if (isJsonObject(extra)) for (const k in extra) if (!Object.prototype.hasOwnProperty.call(cell, k)) setKey(cell, k, jsonClone(extra[k]));
  return cell;
}

// ---------------------------------------------------------------- edit check

/**
 * What a message's cell is written from, kept at read time (deep-copied, so later in-place edits of the
 * message show) to tell an edited message from an unedited one without rebuilding its cell: the same
 * state writes the same cell.
 */
export function cellState(m: Message): JsonObject {
  const t = m.msgType;
  const o = m.output;
  return {
    id: m.id,
    type: t,
    content: m.content,
    output: t === 'code' ? (typeof o === 'string' ? o : jsonClone(o)) : t === 'prompt' ? aiRes(m) : null,
    meta: jsonClone(m.meta),
    attrs: META_ATTRS.map((k) => jsonClone(m[k])),
    attachments: m.attachments.map((a) => [a.id, a.contentType, a.invalidBase64 ?? encodeBase64(a.data)]),
  };
}

/** Whether `m` still has the state `s` (see cellState), compared without copying. */
export function hasState(m: Message, s: JsonObject): boolean {
  const t = m.msgType;
  if (m.id !== s.id || t !== s.type || m.content !== s.content) return false;
  if (t === 'code' ? !jsonEqual(m.output as Json, s.output) : t === 'prompt' ? aiRes(m) !== s.output : false) return false;
  if (!jsonEqual(m.meta, s.meta)) return false;
  const attrs = s.attrs as Json[];
  for (let k = 0; k < META_ATTRS.length; k++) if (!jsonEqual(m[META_ATTRS[k]], attrs[k])) return false;
  const atts = s.attachments as string[][];
  if (m.attachments.length !== atts.length) return false;
  return m.attachments.every((a, k) => {
    const [id, type, b64] = atts[k];
    return a.id === id && a.contentType === type && (a.invalidBase64 ?? encodeBase64(a.data)) === b64;
  });
}
