// Dialog ↔ .ipynb (ipynb-storage.md, DECISIONS "unmodified round trip").
//
// Lossless by construction: every message remembers the exact text of its cell (`origin.text`) and its
// state at read time (`origin.state`). When the message still has that state nobody edited it and its
// original text is written; otherwise its cell is rebuilt. When no message, no
// position and not the notebook metadata changed, the file's own text comes back (BOM, CRLF, indent,
// key order, missing newline and all). Otherwise the file is written in Solveit's canonical form, with
// unedited cells still in their original bytes. All bookkeeping is plain JSON, so it survives the
// structured cloning of VS Code notebook metadata.

import { Json, JsonDepthError, JsonObject, JsonSyntaxError, isJsonObject, jsonClone, jsonEqual, setKey, sortedKeys, stringifyCanonical, taggedNumber, unescapeKey } from '../base/json';
import { CellOrigin, Dialog, Message, newId } from '../model/dialog';
import { cellOfMessage, cellState, hasState, readCell } from './cell';
import { parseNotebook } from './parse';
import { pyStr } from '../python';

export { REPLY_SEP, splitReply, cellOfMessage, withoutSeparators } from './cell';
export type { SplitReply, CellHints } from './cell';

/** A file that cannot be read as a dialog at all (repairable problems are repaired instead). */
export class DialogReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DialogReadError';
  }
}

/** What `Dialog.origin` holds for a dialog read from a file (plain JSON). */
export interface DialogOrigin {
  /** The file started with a UTF-8 BOM: every write keeps it. */
  bom: boolean;
  /** A token of this read, matched against `Message.origin.file` to know a message came from it. */
  file: string;
  /** The file text around the cells: `gaps[0]` + cell 0 + `gaps[1]` + … + `gaps[n]` is the file. */
  gaps: string[];
  /** The notebook metadata as read, to tell whether it was edited. */
  meta: Json;
  /** Top-level keys other than the four nbformat ones, kept for the write. */
  extra: JsonObject;
  /**
   * The file's `nbformat_minor` (absent: null). A canonical write keeps it while some cell is still
   * written id-less in its original bytes: ids are only valid from 4.5 on.
   */
  minor: Json;
}

const TOP_KEYS = new Set(['cells', 'metadata', 'nbformat', 'nbformat_minor']);

function kindOf(v: Json): string {
  if (v === null) return 'null';
  if (taggedNumber(v) !== undefined) return 'a number';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v === 'boolean' ? 'boolean' : typeof v}`;
}

/** Reads a dialog and the repairs made on the way (ipynb-storage §10 messages). */
export function readIpynbReport(text: string, name = 'dialog'): { dialog: Dialog; repairs: string[] } {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  let parsed: ReturnType<typeof parseNotebook>;
  try {
    parsed = parseNotebook(body);
  } catch (e) {
    if (e instanceof JsonDepthError) throw new DialogReadError(`too deep: ${e.message}`);
    if (e instanceof JsonSyntaxError) throw new DialogReadError(`not JSON: ${e.message}`);
    throw e;
  }
  const nb = parsed.value;
  if (!isJsonObject(nb)) throw new DialogReadError(`not a notebook: top level is ${kindOf(nb)}`);

  const repairs: string[] = [];
  const has = (k: string) => Object.prototype.hasOwnProperty.call(nb, k);
  let cells: Json[] = [];
  if (!has('cells')) repairs.push('added notebook cells');
  else if (!Array.isArray(nb.cells)) repairs.push('reset non-list notebook cells');
  else cells = nb.cells;
  let meta: JsonObject = {};
  if (!has('metadata')) repairs.push('added notebook metadata');
  else if (!isJsonObject(nb.metadata)) repairs.push('reset non-dict notebook metadata');
  else meta = nb.metadata;
  if (!has('nbformat')) repairs.push('added notebook nbformat');
  const extra: JsonObject = {};
  for (const k in nb) if (!TOP_KEYS.has(k)) setKey(extra, k, nb[k]);

  const file = newId() + newId();
  const messages: Message[] = [];
  const gaps: string[] = [];
  const seen = new Set<string>();
  const dups: string[] = [];
  const spans = parsed.spans;
  let pos = 0;
  cells.forEach((c, i) => {
    if (!isJsonObject(c)) {
      repairs.push(`cell ${i}: ${kindOf(c)} is not a cell, left out of the dialog (an edited save drops it)`);
      return;
    }
    const start = spans[messages.length * 2];
    const end = spans[messages.length * 2 + 1];
    const rawId = c.id;
    const m = readCell(c, i, repairs);
    const h = m.origin!;
    h.text = body.slice(start, end);
    h.file = file;
    h.index = messages.length;
    h.state = cellState(m);
    gaps.push(body.slice(pos, start));
    pos = end;
    // Duplicate ids are reported, not regenerated (DECISIONS "missing or duplicate cell ids").
    const key = rawId === undefined || rawId === null ? 'None' : typeof rawId === 'string' ? 's' + rawId : 'j' + JSON.stringify(rawId);
    if (seen.has(key)) dups.push(key === 'None' ? `cell None: duplicate id, regenerated as ${m.id}` : `cell ${pyStr(rawId!)}: duplicate id, kept`);
    seen.add(key);
    messages.push(m);
  });
  gaps.push(body.slice(pos));
  for (const r of dups) repairs.push(r); // not push(...dups): too many arguments for a huge dialog

  const dialog = new Dialog(messages, name, meta);
  const minor = has('nbformat_minor') ? jsonClone(nb.nbformat_minor) : null;
  const origin: DialogOrigin = { bom, file, gaps, meta: jsonClone(meta), extra, minor };
  dialog.origin = origin as unknown as Record<string, unknown>;
  return { dialog, repairs };
}

/** Reads `.ipynb` text into a dialog, repairing what it can; throws DialogReadError otherwise. */
export function readIpynb(text: string, name = 'dialog'): Dialog {
  return readIpynbReport(text, name).dialog;
}

/** The state read from the original text (when `origin.state` was dropped, e.g. to save memory). */
function originState(h: CellOrigin): JsonObject | undefined {
  try {
    const c = parseNotebook(h.text).value;
    if (!isJsonObject(c)) return undefined;
    const m = readCell(c, 0, null, typeof h.genId === 'string' ? h.genId : undefined);
    return cellState(m);
  } catch {
    return undefined;
  }
}

/** The text a message writes, and whether it is its unedited original. */
function cellText(m: Message): [string, boolean] {
  const h = m.origin;
  if (h && typeof h.text === 'string' && h.text !== '') {
    const before = isJsonObject(h.state) ? h.state : (h.state = originState(h));
    if (before && hasState(m, before)) return [h.text, true];
  }
  return [stringifyCanonical(cellOfMessage(m), 2), false];
}

function asOrigin(v: unknown): DialogOrigin | undefined {
  const o = v as DialogOrigin | undefined;
  return o && typeof o.file === 'string' && Array.isArray(o.gaps) ? o : undefined;
}

/** The minor version for a file that still holds id-less cells: the original one (a pre-4.5 default). */
function idlessMinor(o: DialogOrigin | undefined): string {
  const v = o?.minor;
  return v === undefined || v === null ? '4' : stringifyCanonical(v, 1);
}

/** Writes a dialog as `.ipynb` text: the original bytes where nothing changed, else canonical (§8). */
export function writeIpynb(d: Dialog): string {
  const o = asOrigin(d.origin);
  const n = d.messages.length;
  const texts: string[] = new Array(n);
  let same = !!o && o.gaps.length === n + 1;
  let idless = false;
  for (let i = 0; i < n; i++) {
    const m = d.messages[i];
    const [t, unedited] = cellText(m);
    texts[i] = t;
    if (unedited && typeof m.origin!.genId === 'string') idless = true;
    if (same && !(unedited && m.origin!.file === o!.file && m.origin!.index === i)) same = false;
  }
  const bom = o?.bom ? '\ufeff' : '';
  if (same && jsonEqual(d.meta, o!.meta)) {
    let s = bom + o!.gaps[0];
    for (let i = 0; i < n; i++) s += texts[i] + o!.gaps[i + 1];
    return s;
  }
  const members: JsonObject = {};
  const extra = o && isJsonObject(o.extra) ? o.extra : {};
  for (const k in extra) setKey(members, unescapeKey(k), stringifyCanonical(extra[k], 1));
  members.cells = n ? '[\n  ' + texts.join(',\n  ') + '\n ]' : '[]';
  members.metadata = stringifyCanonical(d.meta, 1);
  members.nbformat = '4';
  members.nbformat_minor = idless ? idlessMinor(o) : '5';
  let s = bom + '{';
  sortedKeys(members).forEach((k, i) => (s += (i ? ',\n ' : '\n ') + JSON.stringify(k) + ': ' + members[k]));
  return s + '\n}\n';
}
