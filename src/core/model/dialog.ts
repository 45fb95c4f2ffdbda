// The centre: Message, Dialog and Attachment. Every other module is a projection of these.
// Behaviour beyond state (sections, outputs, directives, previews …) lives in functions in sibling
// modules, so this file stays the small shared contract.

import { Json, JsonObject, jsonClone, parseJson, taggedNumber } from '../base/json';
import { pyStrRepr } from '../python/values';

export type MsgType = 'code' | 'note' | 'prompt' | 'raw';
export const MSG_TYPES: readonly MsgType[] = ['code', 'note', 'prompt', 'raw'];

/** Whether `t` is one of the message types. */
export function isMsgType(t: unknown): t is MsgType {
  return (MSG_TYPES as readonly unknown[]).includes(t);
}

/** An nbformat output dict, kept with joined strings (ipynb-storage §2). */
export type Output = JsonObject;

/** Metadata keys promoted to message attributes (ipynb-storage §4). */
export const META_ATTRS = ['skipped', 'pinned'] as const;
export type MetaAttr = (typeof META_ATTRS)[number];

/**
 * What the storage projection remembers about the cell a message was read from, so that an unedited
 * cell is written back byte for byte. Opaque to everything but `ipynb.ts`; dropped on copies.
 */
export interface CellOrigin {
  /** The exact text of the cell object in the file. */
  text: string;
  /** The message state at read time (`cellState` in ipynbCell.ts), for the edit check. */
  state?: JsonObject;
  [hint: string]: Json | undefined;
}

function randomHex(bytes: number): string {
  let s = '';
  for (let k = 0; k < bytes; k++) s += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return s;
}

/** A fresh message id: 8 lowercase hex characters. */
export function newId(): string {
  return randomHex(4);
}

/** A fresh message id that `taken` does not claim. */
export function freshId(taken: (id: string) => boolean): string {
  let id = newId();
  while (taken(id)) id = newId();
  return id;
}

/** A fresh attachment id in UUID-4 shape. */
export function newUuid(): string {
  const h = randomHex(16);
  const variant = '89ab'[Math.floor(Math.random() * 4)];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class Attachment {
  constructor(
    public data: Uint8Array,
    public contentType: string,
    public id: string = newUuid(),
    /** The stored base64 text when it could not be decoded: kept verbatim, the media is unavailable. */
    public invalidBase64?: string,
  ) {}

  clone(): Attachment {
    return new Attachment(this.data.slice(), this.contentType, this.id, this.invalidBase64);
  }
}

/** The reply wrapper a prompt's output holds (model §2). */
export function promptOutput(text: string): Output[] {
  return text ? [{ output_type: 'display_data', metadata: { is_ai_res: true }, data: { 'text/markdown': text } }] : [];
}

/** `code_output(text)` of the reference. */
export function codeOutput(text: string, subtype = 'plain', mimetype = 'text'): Output[] {
  return [{ output_type: 'execute_result', metadata: {}, data: { [`${mimetype}/${subtype}`]: text }, execution_count: 1 }];
}

export interface MessageInit {
  content?: string;
  msgType?: MsgType | string;
  output?: Output[] | string | null;
  id?: string | number;
  attachments?: Attachment[];
  meta?: JsonObject | null;
  skipped?: Json;
  pinned?: Json;
  extra?: Record<string, unknown>;
}

export class Message {
  id: string;
  content: string;
  attachments: Attachment[];
  meta: JsonObject;
  skipped: Json = 0;
  pinned: Json = 0;
  /** Owning dialog: a back-reference, never serialised or copied. */
  dlg: Dialog | null = null;
  /** Host attributes (e.g. `time_run`). */
  extra: Record<string, unknown>;
  /** Storage bookkeeping (see CellOrigin); undefined for messages not read from a file. */
  origin?: CellOrigin;
  private _msgType: string;
  private _output: Output[] | string = '';
  /** Bumped on every output or type change so projections can cache by it. */
  version = 0;

  constructor(init: MessageInit = {}) {
    this.id = init.id === undefined || init.id === '' ? newId() : String(init.id);
    this.content = init.content ?? '';
    this._msgType = init.msgType ?? 'code';
    this.attachments = init.attachments ?? [];
    this.extra = init.extra ?? {};
    this.meta = {};
    this.setMeta(init.meta ?? {});
    if (init.skipped !== undefined) this.skipped = init.skipped;
    if (init.pinned !== undefined) this.pinned = init.pinned;
    this.output = init.output ?? '';
  }

  get msgType(): string {
    return this._msgType;
  }
  /** Changing the type resets the output (model §2); assigning the same type does nothing. */
  set msgType(t: string) {
    if (t === this._msgType) return;
    this._msgType = t;
    this._output = t === 'code' || t === 'prompt' ? [] : '';
    this.version++;
  }

  get output(): Output[] | string {
    return this._output;
  }
  /** A string on a prompt is its reply; `''`/null on code or prompt is `[]`; note/raw keep `''`. */
  set output(v: Output[] | string | null) {
    const t = this._msgType;
    if (t === 'prompt' && typeof v === 'string') this._output = promptOutput(v);
    else if ((t === 'code' || t === 'prompt') && (v === null || v === '')) this._output = [];
    else this._output = v ?? '';
    this.version++;
  }

  /** The output as a list (`[]` for note/raw). */
  get outputs(): Output[] {
    return Array.isArray(this._output) ? this._output : [];
  }

  /** Replaces `meta`, promoting `skipped` / `pinned` out of it. */
  setMeta(meta: JsonObject): void {
    const m = { ...meta };
    for (const k of META_ATTRS) {
      if (Object.prototype.hasOwnProperty.call(m, k)) {
        this[k] = m[k];
        delete m[k];
      }
    }
    this.meta = m;
  }

  /** The cell metadata as written: meta plus each truthy promoted attribute. */
  storedMeta(): JsonObject {
    const m: JsonObject = { ...this.meta };
    for (const k of META_ATTRS) if (truthy(this[k])) m[k] = this[k];
    return m;
  }

  /** Messages compare by id, and equal a bare id string. */
  equals(other: Message | string): boolean {
    return typeof other === 'string' ? this.id === other : this.id === other.id;
  }

  /** Inserts `msgs` (themselves, not copies) right after this message in its dialog; returns them. */
  insertAfter(msgs: Message[]): Message[] {
    const d = this.dlg;
    if (!d) throw new DialogError(`${this.id}: insert_after needs a message that belongs to a dialog`);
    const at = d.indexOf(this);
    if (at < 0) throw new DialogError(`${this.id}: not in its dialog`);
    // Not splice(at + 1, 0, ...msgs): spreading a huge list overflows the argument limit.
    const tail = d.messages.splice(at + 1);
    for (const m of msgs) d.messages.push(m);
    for (const m of tail) d.messages.push(m);
    for (const m of msgs) m.dlg = d;
    return msgs;
  }

  /** A deep copy with the same id (`freshId` for a new one); no owner, no storage origin. */
  clone(freshId = false): Message {
    const m = new Message({
      id: freshId ? undefined : this.id,
      content: this.content,
      msgType: this._msgType,
      meta: jsonClone(this.meta),
      skipped: jsonClone(this.skipped),
      pinned: jsonClone(this.pinned),
      attachments: this.attachments.map((a) => a.clone()),
      extra: { ...this.extra },
    });
    m._output = typeof this._output === 'string' ? this._output : jsonClone(this._output);
    return m;
  }
}

/** Python truthiness of a JSON value. */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') {
    const lex = taggedNumber(v);
    if (lex !== undefined) return Number(lex) !== 0;
    return Object.keys(v).length > 0;
  }
  return true;
}

export class DialogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DialogError';
  }
}

export interface MkMessageOptions extends MessageInit {
  idx?: number;
  after?: string | Message | null;
  before?: string | Message | null;
  /** Mark as exported through `meta.nbdev.export = "true"`. */
  export?: boolean;
}

export class Dialog {
  messages: Message[];
  name: string;
  meta: JsonObject;
  /** Storage bookkeeping of the file this dialog was read from (see ipynb.ts). */
  origin?: Record<string, unknown>;

  constructor(messages: Message[] = [], name = '', meta: JsonObject = {}) {
    if (typeof (messages as unknown) === 'string') {
      throw new DialogError("Dialog(messages, name): first arg is the messages - pass name='...' by keyword");
    }
    this.messages = messages;
    this.name = name;
    this.meta = meta;
    for (const m of messages) if (!m.dlg) m.dlg = this;
  }

  /** Exact id, else the unique message whose id starts with `k`; a number indexes by position. */
  msg(k: string | number): Message {
    if (typeof k === 'number') {
      const m = this.messages[k < 0 ? this.messages.length + k : k];
      if (!m) throw new DialogError(`message index out of range: ${k}`);
      return m;
    }
    const exact = this.messages.find((m) => m.id === k);
    if (exact) return exact;
    const hits = this.messages.filter((m) => m.id.startsWith(k));
    if (hits.length === 1) return hits[0];
    throw new DialogError(`${hits.length ? 'ambiguous' : 'no'} message id: ${pyStrRepr(k)}`);
  }

  indexOf(m: Message | string): number {
    const id = typeof m === 'string' ? m : m.id;
    return this.messages.findIndex((x) => x.id === id);
  }

  /** Creates a message and inserts it (model §3, including the unknown-`after` quirk). */
  mkMessage(opts: MkMessageOptions = {}): Message {
    const init: MessageInit = { ...opts };
    if (init.id === undefined) init.id = freshId((id) => this.indexOf(id) >= 0);
    const t = init.msgType ?? 'code';
    // parseJson, not JSON.parse: `1.0` stays a float and big integers stay exact (DECISIONS "numbers").
    if (t === 'code' && typeof init.output === 'string') init.output = init.output ? (parseJson(init.output).value as Output[]) : [];
    const m = new Message(init);
    if (opts.export) {
      const nbdev = (m.meta.nbdev ?? {}) as JsonObject;
      m.meta.nbdev = { ...nbdev, export: 'true' };
    }
    this.insert(m, opts);
    return m;
  }

  /** Inserts copies of `msgs` with fresh ids, one after another; returns the copies. */
  mkMessages(msgs: Message[], where: { after?: string | Message | null; before?: string | Message | null } = {}): Message[] {
    const out: Message[] = [];
    let after = where.after ?? null;
    for (const src of msgs) {
      const m = src.clone();
      m.id = freshId((id) => this.indexOf(id) >= 0);
      if (out.length) this.insert(m, { after: out[out.length - 1] });
      else this.insert(m, after !== null ? { after } : { before: where.before ?? null });
      out.push(m);
      after = m;
    }
    return out;
  }

  private insert(m: Message, where: { idx?: number; after?: string | Message | null; before?: string | Message | null }): void {
    const idOf = (x: string | Message) => (typeof x === 'string' ? x : x.id);
    let at: number;
    if (where.after != null) {
      const k = this.indexOf(idOf(where.after));
      at = k < 0 ? 0 : k + 1;
    } else if (where.before != null) {
      const k = this.indexOf(idOf(where.before));
      at = k < 0 ? this.messages.length : k;
    } else {
      const idx = where.idx ?? -1;
      at = idx < 0 ? this.messages.length + 1 + idx : Math.min(idx, this.messages.length);
    }
    this.messages.splice(at, 0, m);
    m.dlg = this;
  }

  /** Removes the given messages (by id) and returns them. */
  removeMsgs(msgs: (Message | string)[]): (Message | string)[] {
    const ids = new Set(msgs.map((m) => (typeof m === 'string' ? m : m.id)));
    this.messages = this.messages.filter((m) => !ids.has(m.id));
    return msgs;
  }

  next(m: Message): Message | undefined {
    const k = this.indexOf(m);
    return k < 0 ? undefined : this.messages[k + 1];
  }

  previous(m: Message): Message | undefined {
    const k = this.indexOf(m);
    return k <= 0 ? undefined : this.messages[k - 1];
  }
}
