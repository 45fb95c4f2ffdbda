// Python values beyond JSON and their `repr` (reply-format §9).
//
// Values follow json.ts: a plain JS number is an int when integral, else a float; a tagged number
// `{ "$dlg:num": lexeme }` is an int when the lexeme is all digits, else a float (so `1.0` stays a float).
// Python-only literals get small classes, so that repr and JSON serialisation can tell them apart.

import { Json, JsonObject, NUM_TAG, escapeKey, pyFloatRepr, setKey, taggedNumber, unescapeKey } from '../base/json';

export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}
export class PySet {
  constructor(readonly items: PyValue[]) {}
}
export class PyBytes {
  constructor(readonly bytes: Uint8Array) {}
}
export class PyComplex {
  constructor(
    readonly real: number,
    readonly imag: number,
  ) {}
}
/** A dict with a key that is not a string (JSON objects cover the all-string case). */
export class PyDict {
  constructor(readonly entries: [PyValue, PyValue][]) {}
}

export type PyValue = Json | PyTuple | PySet | PyBytes | PyComplex | PyDict | { [k: string]: PyValue } | PyValue[];


// ---------------------------------------------------------------- repr

/** Python's repr of a float: like pyFloatRepr, but `inf` / `nan` as Python prints them. */
export function pyFloat(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  return pyFloatRepr(v);
}

/** Python prints a complex part without the forced `.0`. */
function complexPart(v: number): string {
  const s = pyFloat(v);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

function escapeChar(ch: string, quote: string): string {
  switch (ch) {
    case '\\':
      return '\\\\';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
  }
  if (ch === quote) return '\\' + ch;
  if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x100) return '\\x' + cp.toString(16).padStart(2, '0');
    if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
    return '\\U' + cp.toString(16).padStart(8, '0');
  }
  return ch;
}

/** Python's repr of a str. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  // for…of walks code points; a lone surrogate comes out alone and is escaped as Cs.
  for (const ch of s) out += escapeChar(ch, quote);
  return out + quote;
}

function bytesRepr(b: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const c of b) {
    if (c === 39) hasSingle = true;
    else if (c === 34) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = 'b' + quote;
  for (const c of b) {
    if (c === 92) out += '\\\\';
    else if (c === 9) out += '\\t';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (String.fromCharCode(c) === quote) out += '\\' + quote;
    else if (c < 32 || c >= 127) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += String.fromCharCode(c);
  }
  return out + quote;
}

/** Whether a tagged lexeme stands for a Python int. */
export function isIntLexeme(lex: string): boolean {
  return /^-?[0-9]+$/.test(lex);
}

/** Python's repr of a number given as a JS number or a tagged lexeme. */
function numberRepr(v: number | string): string {
  if (typeof v === 'string') {
    if (isIntLexeme(v)) return BigInt(v).toString();
    return pyFloat(Number(v));
  }
  if (Number.isInteger(v) && Math.abs(v) < 2 ** 53) return Object.is(v, -0) ? '-0.0' : String(v);
  return pyFloat(v);
}

/** A faithful Python repr of a JSON-like value (reply-format §9). */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return numberRepr(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return '[' + v.map(pyRepr).join(', ') + ']';
  if (v instanceof PyTuple) return v.items.length === 1 ? `(${pyRepr(v.items[0])},)` : '(' + v.items.map(pyRepr).join(', ') + ')';
  if (v instanceof PySet) return v.items.length ? '{' + v.items.map(pyRepr).join(', ') + '}' : 'set()';
  if (v instanceof PyBytes) return bytesRepr(v.bytes);
  if (v instanceof PyComplex) {
    if (v.real === 0 && !Object.is(v.real, -0)) return complexPart(v.imag) + 'j';
    const neg = v.imag < 0 || Object.is(v.imag, -0);
    return `(${complexPart(v.real)}${neg ? '-' : '+'}${complexPart(Math.abs(v.imag))}j)`;
  }
  if (v instanceof PyDict) return '{' + v.entries.map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ') + '}';
  if (v instanceof Uint8Array) return bytesRepr(v);
  if (typeof v === 'object') {
    const lex = taggedNumber(v);
    if (lex !== undefined) return numberRepr(lex);
    const o = v as Record<string, unknown>;
    return '{' + Object.keys(o).map((k) => `${pyStrRepr(unescapeKey(k))}: ${pyRepr(o[k])}`).join(', ') + '}';
  }
  return String(v);
}

/** Python's `str()`: a string is itself, everything else its repr. */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

/** Whether a value is a Python int (plain integral JS number or an all-digit tagged lexeme). */
export function isPyInt(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0);
  const lex = taggedNumber(v);
  return lex !== undefined && isIntLexeme(lex);
}

// ---------------------------------------------------------------- values the parser builds

export function intValue(n: bigint): Json {
  const x = Number(n);
  return Number.isSafeInteger(x) ? x : { [NUM_TAG]: n.toString() };
}

/** A Python float as a json.ts value: plain when JS keeps it a float, else tagged with its repr. */
export function floatValue(x: number): Json {
  if (Number.isFinite(x) && !Number.isInteger(x)) return x;
  if (Number.isNaN(x)) return { [NUM_TAG]: 'NaN' };
  if (!Number.isFinite(x)) return { [NUM_TAG]: x > 0 ? 'Infinity' : '-Infinity' };
  return { [NUM_TAG]: pyFloatRepr(x) };
}

/** The JS number of a parsed number value, with its kind. */
export function numInfo(v: PyValue): { kind: 'int' | 'float' | 'complex'; re: number; im: number; big?: bigint } | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0) ? { kind: 'int', re: v, im: 0, big: BigInt(v) } : { kind: 'float', re: v, im: 0 };
  if (v instanceof PyComplex) return { kind: 'complex', re: v.real, im: v.imag };
  const lex = taggedNumber(v);
  if (lex === undefined) return undefined;
  return isIntLexeme(lex) ? { kind: 'int', re: Number(lex), im: 0, big: BigInt(lex) } : { kind: 'float', re: Number(lex), im: 0 };
}

/** Python-literal values mapped to JSON (tuples become arrays); throws the json.dumps error for the rest. */
export function pyToJson(v: PyValue): Json {
  if (v === null || typeof v !== 'object') return v as Json;
  if (Array.isArray(v)) return v.map(pyToJson);
  if (v instanceof PyTuple) return v.items.map(pyToJson);
  const kind = v instanceof PySet ? 'set' : v instanceof PyBytes ? 'bytes' : v instanceof PyComplex ? 'complex' : v instanceof PyDict ? 'dict' : '';
  if (kind === 'dict') return pyDictToJson(v as PyDict);
  if (kind) throw new TypeError(`Object of type ${kind} is not JSON serializable`);
  if (taggedNumber(v) !== undefined) return v as Json;
  const o: JsonObject = {};
  for (const k of Object.keys(v)) setKey(o, k, pyToJson((v as { [k: string]: PyValue })[k]));
  return o;
}

/** json.dumps turns int/float/bool/None keys into strings and rejects the rest. */
function pyDictToJson(d: PyDict): JsonObject {
  const o: JsonObject = {};
  for (const [k, v] of d.entries) {
    let key: string;
    const num = numInfo(k);
    if (typeof k === 'string') key = escapeKey(k);
    else if (k === null) key = 'null';
    else if (typeof k === 'boolean') key = k ? 'true' : 'false';
    else if (num && num.kind !== 'complex') key = isPyInt(k) ? pyRepr(k) : pyFloat(num.re).replace(/^nan$/, 'NaN').replace(/inf/, 'Infinity');
    else throw new TypeError(`keys must be str, int, float, bool or None, not ${k instanceof PyTuple ? 'tuple' : 'object'}`);
    setKey(o, key, pyToJson(v));
  }
  return o;
}

