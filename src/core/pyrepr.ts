// Python `repr` of JSON-like values and a Python literal parser (reply-format §9, §12; ai-projections §5).
//
// Values follow json.ts: a plain JS number is an int when integral, else a float; a tagged number
// `{ "$dlg:num": lexeme }` is an int when the lexeme is all digits, else a float (so `1.0` stays a float).
// Python-only literals get small classes, so that repr and JSON serialisation can tell them apart.

import { Json, JsonObject, NUM_TAG, pyFloatRepr, setKey, taggedNumber } from './json';

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

export class PySyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = 'PySyntaxError';
  }
}

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
function isIntLexeme(lex: string): boolean {
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
    return '{' + Object.keys(o).map((k) => `${pyStrRepr(k)}: ${pyRepr(o[k])}`).join(', ') + '}';
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

function intValue(n: bigint): Json {
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
function numInfo(v: PyValue): { kind: 'int' | 'float' | 'complex'; re: number; im: number; big?: bigint } | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0) ? { kind: 'int', re: v, im: 0, big: BigInt(v) } : { kind: 'float', re: v, im: 0 };
  if (v instanceof PyComplex) return { kind: 'complex', re: v.real, im: v.imag };
  const lex = taggedNumber(v);
  if (lex === undefined) return undefined;
  return isIntLexeme(lex) ? { kind: 'int', re: Number(lex), im: 0, big: BigInt(lex) } : { kind: 'float', re: Number(lex), im: 0 };
}

// ---------------------------------------------------------------- literal parser

const ID_START = /[\p{XID_Start}_]/u;
const ID_CONTINUE = /[\p{XID_Continue}]/u;
const IDENT = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

/** Python keywords: valid identifiers by shape, but never a name in parsed source. */
const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** Whether `s` is a Python identifier by shape (keywords included, as `str.isidentifier`). */
export function isIdentifier(s: string): boolean {
  return IDENT.test(s);
}

const SIMPLE_ESCAPES: Record<string, string> = { '\n': '', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

class Parser {
  i = 0;
  depth = 0;
  constructor(readonly src: string) {}

  fail(msg: string, at = this.i): never {
    throw new PySyntaxError(msg, at);
  }

  /** Skips blanks and comments; newlines only inside brackets (or when `newlines`). */
  ws(newlines = this.depth > 0): void {
    const s = this.src;
    for (;;) {
      const c = s[this.i];
      if (c === ' ' || c === '\t' || c === '\f') this.i++;
      else if (c === '\\' && (s[this.i + 1] === '\n' || s.startsWith('\r\n', this.i + 1))) this.i += s[this.i + 1] === '\n' ? 2 : 3;
      else if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n' && s[this.i] !== '\r') this.i++;
      } else if (newlines && (c === '\n' || c === '\r')) this.i++;
      else return;
    }
  }

  peek(): string {
    return this.src[this.i] ?? '';
  }

  eat(ch: string): boolean {
    this.ws();
    if (this.src.startsWith(ch, this.i)) {
      this.i += ch.length;
      return true;
    }
    return false;
  }

  expect(ch: string): void {
    if (!this.eat(ch)) this.fail(`expected '${ch}'`);
  }

  ident(): string | undefined {
    this.ws();
    const s = this.src;
    const start = this.i;
    const first = s.codePointAt(this.i);
    if (first === undefined || !ID_START.test(String.fromCodePoint(first))) return undefined;
    this.i += first > 0xffff ? 2 : 1;
    for (;;) {
      const cp = s.codePointAt(this.i);
      if (cp === undefined || !ID_CONTINUE.test(String.fromCodePoint(cp))) break;
      this.i += cp > 0xffff ? 2 : 1;
    }
    return s.slice(start, this.i);
  }

  /** value := signed (('+'|'-') imaginary)?  — the shapes `ast.literal_eval` accepts. */
  value(): PyValue {
    const left = this.signed();
    this.ws();
    const op = this.peek();
    if ((op === '+' || op === '-') && numInfo(left) && numInfo(left)!.kind !== 'complex') {
      const at = this.i;
      this.i++;
      this.ws();
      const right = this.atom();
      const ri = numInfo(right);
      if (!ri || ri.kind !== 'complex' || ri.re !== 0) this.fail('malformed node or string', at);
      const li = numInfo(left)!;
      return new PyComplex(li.re, op === '+' ? ri.im : -ri.im);
    }
    return left;
  }

  signed(): PyValue {
    this.ws();
    const c = this.peek();
    if (c === '+' || c === '-') {
      const at = this.i;
      this.i++;
      this.ws();
      const v = this.atom();
      const info = numInfo(v);
      if (!info) this.fail('malformed node or string', at);
      if (c === '+') return v;
      if (info.kind === 'int') return intValue(-info.big!);
      if (info.kind === 'float') return floatValue(-info.re);
      return new PyComplex(-info.re, -info.im);
    }
    return this.atom();
  }

  atom(): PyValue {
    this.ws();
    const s = this.src;
    const c = this.peek();
    if (c === '(') return this.group();
    if (c === '[') {
      this.i++;
      return this.items(']');
    }
    if (c === '{') return this.braces();
    if (/[0-9.]/.test(c) && /[0-9]/.test(c === '.' ? s[this.i + 1] ?? '' : c)) return this.number();
    const str = this.strings();
    if (str !== undefined) return str;
    const at = this.i;
    const name = this.ident();
    if (name === 'True') return true;
    if (name === 'False') return false;
    if (name === 'None') return null;
    if (name === 'set' && this.eat('(')) {
      this.depth++;
      this.expect(')');
      this.depth--;
      return new PySet([]);
    }
    return this.fail('malformed node or string', at);
  }

  group(): PyValue {
    this.i++;
    this.depth++;
    if (this.eat(')')) {
      this.depth--;
      return new PyTuple([]);
    }
    const first = this.value();
    if (this.eat(')')) {
      this.depth--;
      return first;
    }
    this.expect(',');
    const rest = this.items(')');
    this.depth--;
    return new PyTuple([first, ...(rest as PyValue[])]);
  }

  /** Comma-separated values up to `close` (already inside the opening bracket). */
  items(close: string): PyValue[] {
    if (close === ']') this.depth++;
    const out: PyValue[] = [];
    while (!this.eat(close)) {
      out.push(this.value());
      if (!this.eat(',')) {
        this.expect(close);
        break;
      }
    }
    if (close === ']') this.depth--;
    return out;
  }

  braces(): PyValue {
    this.i++;
    this.depth++;
    if (this.eat('}')) {
      this.depth--;
      return {};
    }
    const first = this.value();
    if (this.eat(':')) {
      const entries: [PyValue, PyValue][] = [[first, this.value()]];
      while (this.eat(',')) {
        if (this.eat('}')) {
          this.depth--;
          return makeDict(entries);
        }
        const k = this.value();
        this.expect(':');
        entries.push([k, this.value()]);
      }
      this.expect('}');
      this.depth--;
      return makeDict(entries);
    }
    const items = [first];
    let closed = false;
    while (!closed && this.eat(',')) {
      closed = this.eat('}');
      if (!closed) items.push(this.value());
    }
    if (!closed) this.expect('}');
    this.depth--;
    const seen = new Set<string>();
    return new PySet(items.filter((x) => !seen.has(pyRepr(x)) && !!seen.add(pyRepr(x))));
  }

  number(): PyValue {
    const s = this.src;
    const at = this.i;
    const D = '[0-9](?:_?[0-9])*';
    const re = new RegExp(
      `0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:${D}\\.(?:${D})?|\\.${D})(?:[eE][+-]?${D})?[jJ]?|${D}(?:[eE][+-]?${D})?[jJ]?`,
      'y',
    );
    re.lastIndex = at;
    const m = re.exec(s);
    if (!m) return this.fail('invalid number', at);
    const lex = m[0];
    this.i += lex.length;
    if (ID_CONTINUE.test(s[this.i] ?? ' ')) this.fail('invalid number', at);
    const clean = lex.replace(/_/g, '');
    if (/^0[xXoObB]/.test(clean)) return intValue(BigInt(clean.toLowerCase()));
    if (/[jJ]$/.test(clean)) return new PyComplex(0, Number(clean.slice(0, -1)));
    if (/[.eE]/.test(clean)) return floatValue(Number(clean));
    if (/^0+[1-9]/.test(clean)) this.fail('leading zeros in decimal integer literals are not permitted', at);
    return intValue(BigInt(clean));
  }

  /** One or more adjacent string literals (implicit concatenation), or undefined if none starts here. */
  strings(): string | PyBytes | undefined {
    let text: string | undefined;
    let bytes: number[] | undefined;
    for (;;) {
      const save = this.i;
      if (text !== undefined || bytes !== undefined) this.ws();
      const lit = this.stringLiteral();
      if (lit === undefined) {
        this.i = save;
        break;
      }
      if (lit.bytes) {
        if (text !== undefined) this.fail('cannot mix bytes and nonbytes literals');
        bytes = (bytes ?? []).concat(lit.bytes);
      } else {
        if (bytes !== undefined) this.fail('cannot mix bytes and nonbytes literals');
        text = (text ?? '') + lit.text;
      }
    }
    if (bytes !== undefined) return new PyBytes(Uint8Array.from(bytes));
    return text;
  }

  stringLiteral(): { text: string; bytes?: number[] } | undefined {
    const s = this.src;
    const m = /([rRuUbBfF]{0,2})('''|"""|'|")/y;
    m.lastIndex = this.i;
    const hit = m.exec(s);
    if (!hit) return undefined;
    const prefix = hit[1].toLowerCase();
    if (prefix && !['r', 'u', 'b', 'br', 'rb'].includes(prefix)) {
      if (prefix.includes('f')) this.fail('f-strings are not literals');
      return undefined;
    }
    const raw = prefix.includes('r');
    const isBytes = prefix.includes('b');
    const q = hit[2];
    const start = this.i + hit[0].length;
    let j = start;
    let body = '';
    for (;;) {
      if (j >= s.length) this.fail('unterminated string literal', this.i);
      const c = s[j];
      if (s.startsWith(q, j)) break;
      if (q.length === 1 && (c === '\n' || c === '\r')) this.fail('unterminated string literal', this.i);
      if (c === '\\') {
        body += s.slice(j, j + 2);
        j += 2;
        continue;
      }
      body += c;
      j++;
    }
    this.i = j + q.length;
    const text = raw ? body : unescape(body, isBytes, this);
    if (isBytes) {
      if (/[^\x00-\x7f]/.test(body)) this.fail('bytes can only contain ASCII literal characters');
      return { text: '', bytes: Array.from(text, (ch) => ch.codePointAt(0)! & 0xff) };
    }
    return { text };
  }
}

function unescape(body: string, isBytes: boolean, p: Parser): string {
  let out = '';
  for (let k = 0; k < body.length; k++) {
    const c = body[k];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[k + 1];
    if (e === '\r' && body[k + 2] === '\n') {
      k += 2;
      continue;
    }
    if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e];
      k++;
      continue;
    }
    if (/[0-7]/.test(e)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(k + 1))![0];
      out += String.fromCodePoint(parseInt(oct, 8) & (isBytes ? 0xff : 0x1ff));
      k += oct.length;
      continue;
    }
    const width = e === 'x' ? 2 : !isBytes && e === 'u' ? 4 : !isBytes && e === 'U' ? 8 : 0;
    if (width) {
      const hex = body.slice(k + 2, k + 2 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) p.fail(`truncated \\${e} escape`);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) p.fail('illegal Unicode character');
      out += String.fromCodePoint(cp);
      k += 1 + width;
      continue;
    }
    if (!isBytes && e === 'N') p.fail('\\N{...} escapes are not supported');
    // An unknown escape keeps its backslash.
    out += c;
  }
  return out;
}

function makeDict(entries: [PyValue, PyValue][]): PyValue {
  if (entries.every(([k]) => typeof k === 'string')) {
    const o: JsonObject = {};
    for (const [k, v] of entries) {
      delete o[k as string];
      setKey(o, k as string, v as Json);
    }
    return o;
  }
  const out: [PyValue, PyValue][] = [];
  for (const [k, v] of entries) {
    const at = out.findIndex(([x]) => pyRepr(x) === pyRepr(k));
    if (at >= 0) out[at][1] = v;
    else out.push([k, v]);
  }
  return new PyDict(out);
}

/** Skips what may follow an expression at the top level: blanks, comments and newlines. */
function atEnd(p: Parser): boolean {
  p.ws(true);
  return p.i >= p.src.length;
}

/**
 * Parses one Python literal expression (`ast.literal_eval` rules: leading spaces/tabs and trailing
 * blank lines or comments are allowed). Throws PySyntaxError on anything else.
 */
export function parsePyLiteral(src: string): PyValue {
  const p = new Parser(src);
  p.ws(true);
  const v = p.value();
  if (!atEnd(p)) p.fail('invalid syntax');
  return v;
}

/** Like parsePyLiteral, but undefined instead of an error. */
export function tryParsePyLiteral(src: string): PyValue | undefined {
  try {
    return parsePyLiteral(src);
  } catch (e) {
    if (e instanceof PySyntaxError) return undefined;
    throw e;
  }
}

export interface LiteralCall {
  name: string;
  arguments: { [k: string]: PyValue };
}

/**
 * `name(k=<literal>, …)` → {name, arguments}, or null when the source is not exactly one call of a
 * dotted name with keyword-only literal arguments (reply-format §12). A repeated keyword keeps the last value.
 */
export function parseLiteralCall(src: string): LiteralCall | null {
  const p = new Parser(src.trim());
  try {
    p.ws(true);
    const parts: string[] = [];
    for (;;) {
      const id = p.ident();
      if (id === undefined || KEYWORDS.has(id)) return null;
      parts.push(id);
      if (!p.eat('.')) break;
    }
    if (!p.eat('(')) return null;
    p.depth++;
    const args: { [k: string]: PyValue } = {};
    while (!p.eat(')')) {
      const key = p.ident();
      if (key === undefined || KEYWORDS.has(key) || !p.eat('=') || p.peek() === '=') return null;
      const v = p.value();
      delete args[key];
      setKey(args as JsonObject, key, v as Json);
      if (!p.eat(',')) {
        if (!p.eat(')')) return null;
        break;
      }
    }
    p.depth--;
    if (!atEnd(p)) return null;
    return { name: parts.join('.'), arguments: args };
  } catch (e) {
    if (e instanceof PySyntaxError) return null;
    throw e;
  }
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
    if (typeof k === 'string') key = k;
    else if (k === null) key = 'null';
    else if (typeof k === 'boolean') key = k ? 'true' : 'false';
    else if (numInfo(k) && numInfo(k)!.kind !== 'complex') key = isPyInt(k) ? pyRepr(k) : pyFloat(numInfo(k)!.re).replace(/^nan$/, 'NaN').replace(/inf/, 'Infinity');
    else throw new TypeError(`keys must be str, int, float, bool or None, not ${k instanceof PyTuple ? 'tuple' : 'object'}`);
    setKey(o, key, pyToJson(v));
  }
  return o;
}

