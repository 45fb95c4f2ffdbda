// Number-preserving JSON reader and Solveit-canonical writer.
//
// Python tells `1.0` from `1` and keeps integers of any size; JavaScript numbers do neither. Numbers that a
// JS number would misrepresent are kept as a tagged object `{ "$dlg:num": lexeme }` (plain JSON, so it
// survives structured cloning into VS Code metadata); every other number is a plain JS number.
// So that no user object can pass for a tag, every key read that starts with `$dlg:` is held with one
// more `$dlg:` in front (`escapeKey`), and every writer takes it off again (`unescapeKey`).

import { cpCompare } from '../python/text';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** Key of the tagged form of an integral-valued float, a big integer, NaN or ±Infinity. */
export const NUM_TAG = '$dlg:num';

/** Prefix of internal keys; a user key with it is escaped by doubling it. */
const KEY_PREFIX = '$dlg:';

/** A key as read from user JSON, held so that it cannot collide with an internal one. */
export function escapeKey(k: string): string {
  return k.charCodeAt(0) === 36 && k.startsWith(KEY_PREFIX) ? KEY_PREFIX + k : k;
}

/** A held key as it is written. */
export function unescapeKey(k: string): string {
  return k.charCodeAt(0) === 36 && k.startsWith(KEY_PREFIX) ? k.slice(KEY_PREFIX.length) : k;
}

/** A JSON object: not an array and not a tagged number (which stands for a number). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && taggedNumber(v) === undefined;
}

/** The lexeme of a tagged number, or undefined for anything else. */
export function taggedNumber(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const lex = (v as JsonObject)[NUM_TAG];
  if (typeof lex !== 'string' || Array.isArray(v)) return undefined;
  for (const k in v) if (k !== NUM_TAG) return undefined;
  return lex;
}

/** Deepest nesting of arrays and objects read (Python's own json module gives up near 1000 levels). */
export const MAX_JSON_DEPTH = 1000;

/** The JS number a JSON number value stands for (tagged or plain); undefined if `v` is not a number. */
export function numberValue(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  const lex = taggedNumber(v);
  return lex === undefined ? undefined : Number(lex);
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line} column ${column}`);
    this.name = 'JsonSyntaxError';
  }
}

/** JSON nested deeper than MAX_JSON_DEPTH: refused rather than recursed into. */
export class JsonDepthError extends JsonSyntaxError {}

export interface ParseResult {
  value: Json;
  /** [start, end) offsets in the text of objects and arrays nested at most `spanDepth` deep. */
  spans: WeakMap<object, [number, number]>;
}

/** A JSON number lexeme (sticky: set `lastIndex`); groups 1 and 2 are the fraction and the exponent. */
export const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/** Whether a number lexeme needs the tagged form: a plain JS number would misrepresent it. */
export function needsTag(lex: string, frac: string | undefined, exp: string | undefined): boolean {
  const v = Number(lex);
  if (frac === undefined && exp === undefined) return !Number.isSafeInteger(v) || (v === 0 && lex[0] === '-');
  return Number.isInteger(v) || !Number.isFinite(v);
}

/** Parses JSON text (plus Python's NaN / Infinity), keeping number lexemes Python would keep. */
export function parseJson(text: string, spanDepth = -1): ParseResult {
  const spans = new WeakMap<object, [number, number]>();
  let i = 0;
  const n = text.length;

  const fail = (reason: string, at = i, Err = JsonSyntaxError): never => {
    let line = 1;
    let col = 1;
    for (let k = 0; k < at && k < n; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        col = 1;
      } else col++;
    }
    throw new Err(reason, at, line, col);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const describe = (at: number) => (at >= n ? 'end of input' : JSON.stringify(text[at]));

  const str = (): string => {
    const start = i + 1;
    let j = start;
    for (;;) {
      const q = text.indexOf('"', j);
      if (q < 0) fail('Unterminated string', i);
      // Count the backslashes right before the quote: an odd count escapes it.
      let b = q - 1;
      while (b >= start && text.charCodeAt(b) === 92) b--;
      if ((q - 1 - b) % 2 === 0) {
        const raw = text.slice(start, q);
        i = q + 1;
        if (raw.indexOf('\\') < 0) {
          for (let k = 0; k < raw.length; k++) if (raw.charCodeAt(k) < 32) fail('Control character in string', start + k);
          return raw;
        }
        try {
          return JSON.parse(text.slice(start - 1, q + 1)) as string;
        } catch {
          return fail('Invalid string escape', start - 1);
        }
      }
      j = q + 1;
    }
  };

  const num = (): Json => {
    NUMBER_RE.lastIndex = i;
    const m = NUMBER_RE.exec(text);
    if (!m) return fail(`Unexpected ${describe(i)}`);
    const lex = m[0];
    i += lex.length;
    return needsTag(lex, m[1], m[2]) ? { [NUM_TAG]: lex } : Number(lex);
  };

  const word = (w: string, v: Json): Json => {
    if (text.startsWith(w, i)) {
      i += w.length;
      return v;
    }
    return fail(`Unexpected ${describe(i)}`);
  };

  const value = (depth: number): Json => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 123) return obj(depth);
    if (c === 91) return arr(depth);
    if (c === 34) return str();
    if (c === 116) return word('true', true);
    if (c === 102) return word('false', false);
    if (c === 110) return word('null', null);
    if (c === 78) return word('NaN', { [NUM_TAG]: 'NaN' });
    if (c === 73) return word('Infinity', { [NUM_TAG]: 'Infinity' });
    if (c === 45 && text.startsWith('-Infinity', i)) return word('-Infinity', { [NUM_TAG]: '-Infinity' });
    return num();
  };

  const tooDeep = () => fail(`nested deeper than ${MAX_JSON_DEPTH} levels`, i, JsonDepthError);

  const obj = (depth: number): JsonObject => {
    if (depth >= MAX_JSON_DEPTH) tooDeep();
    const start = i++;
    const o: JsonObject = {};
    ws();
    if (text.charCodeAt(i) === 125) i++;
    else {
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 34) fail(`Expected a string key but found ${describe(i)}`);
        const k = str();
        ws();
        if (text.charCodeAt(i) !== 58) fail(`Expected ':' but found ${describe(i)}`);
        i++;
        const v = value(depth + 1);
        setKey(o, escapeKey(k), v);
        ws();
        const c = text.charCodeAt(i);
        if (c === 44) i++;
        else if (c === 125) {
          i++;
          break;
        } else fail(`Expected ',' or '}' but found ${describe(i)}`);
      }
    }
    if (depth <= spanDepth) spans.set(o, [start, i]);
    return o;
  };

  const arr = (depth: number): Json[] => {
    if (depth >= MAX_JSON_DEPTH) tooDeep();
    const start = i++;
    const a: Json[] = [];
    ws();
    if (text.charCodeAt(i) === 93) i++;
    else {
      for (;;) {
        a.push(value(depth + 1));
        ws();
        const c = text.charCodeAt(i);
        if (c === 44) i++;
        else if (c === 93) {
          i++;
          break;
        } else fail(`Expected ',' or ']' but found ${describe(i)}`);
      }
    }
    if (depth <= spanDepth) spans.set(a, [start, i]);
    return a;
  };

  if (n === 0) fail('Empty input');
  const v = value(0);
  ws();
  if (i < n) fail(`Unexpected ${describe(i)} after the JSON value`);
  return { value: v, spans };
}

/** Python's `repr(float)`: shortest round-trip digits, plain for exponents -4..15, else `d.ddde±XX`. */
export function pyFloatRepr(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const [mant, expStr] = v.toExponential().split('e');
  const exp = Number(expStr);
  const neg = mant[0] === '-';
  const digits = mant.replace('-', '').replace('.', '');
  let out: string;
  if (exp >= -4 && exp < 16) {
    if (exp < 0) out = '0.' + '0'.repeat(-exp - 1) + digits;
    else if (digits.length > exp + 1) out = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
    else out = digits + '0'.repeat(exp + 1 - digits.length) + '.0';
  } else {
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const e = Math.abs(exp);
    out = `${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  return neg ? '-' + out : out;
}

/** How Python's json module writes a number lexeme read from a file. */
function canonicalNumber(lex: string): string {
  if (lex === 'NaN' || lex === 'Infinity' || lex === '-Infinity') return lex;
  if (/^-?[0-9]+$/.test(lex)) return lex === '-0' ? '0' : lex;
  return pyFloatRepr(Number(lex));
}

function numberText(v: number): string {
  return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : pyFloatRepr(v);
}

/** Sorts keys by Unicode code point (JS sorts by UTF-16 unit, which differs only around surrogates). */
export function sortedKeys(o: JsonObject): string[] {
  const keys = Object.keys(o);
  if (keys.length < 2) return keys;
  keys.sort();
  if (keys.some((k) => /[\ud800-\udfff]/.test(k))) {
    keys.sort(cpCompare);
  }
  return keys;
}

const INDENTS: string[] = [];
function indent(depth: number): string {
  return (INDENTS[depth] ??= '\n' + ' '.repeat(depth));
}

/**
 * Solveit's canonical text of a value: Python's `json.dumps(v, indent=1, sort_keys=True,
 * ensure_ascii=False)`. `depth` is the nesting level the value sits at, for embedding.
 */
export function stringifyCanonical(v: Json | undefined, depth = 0): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return numberText(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const inner = indent(depth + 1);
    let s = '[';
    for (let k = 0; k < v.length; k++) s += (k ? ',' : '') + inner + stringifyCanonical(v[k], depth + 1);
    return s + indent(depth) + ']';
  }
  const lex = taggedNumber(v);
  if (lex !== undefined) return canonicalNumber(lex);
  const keys = sortedKeys(v);
  if (keys.length === 0) return '{}';
  const inner = indent(depth + 1);
  let s = '{';
  for (let k = 0; k < keys.length; k++) {
    s += (k ? ',' : '') + inner + JSON.stringify(unescapeKey(keys[k])) + ': ' + stringifyCanonical(v[keys[k]], depth + 1);
  }
  return s + indent(depth) + '}';
}

/** Structural equality of two JSON values; key order does not matter, number tags do. */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let k = 0; k < a.length; k++) if (!jsonEqual(a[k], b[k])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let count = 0;
  for (const k in a) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !jsonEqual(a[k], b[k])) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/** A deep copy that shares strings (they are immutable) and copies every container. */
export function jsonClone<T extends Json | undefined>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => jsonClone(x)) as T;
  const o: JsonObject = {};
  for (const k in v) setKey(o, k, jsonClone((v as JsonObject)[k]));
  return o as T;
}

/** Plain JSON as written: tagged numbers as JS numbers, keys unescaped (display, comparisons). */
export function untagNumbers(v: Json): Json {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(untagNumbers);
  const lex = taggedNumber(v);
  if (lex !== undefined) return Number(lex);
  const o: JsonObject = {};
  for (const k in v) setKey(o, unescapeKey(k), untagNumbers(v[k]));
  return o;
}

/** Sets an own data property, even for the key "__proto__" (which `o[k] = v` would not). */
export function setKey(o: JsonObject, k: string, v: Json): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** `text` parsed when it is a JSON object; undefined when it is not JSON, or JSON of another kind. */
export function parseJsonObject(text: string): JsonObject | undefined {
  let v: Json;
  try {
    v = parseJson(text).value;
  } catch {
    return undefined;
  }
  return isJsonObject(v) ? v : undefined;
}
