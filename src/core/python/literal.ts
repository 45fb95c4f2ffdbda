// A Python literal parser (`ast.literal_eval` rules, ai-projections §5) and literal calls
// `name(k=<literal>, …)` (reply-format §12).

import { Json, JsonObject, escapeKey, setKey } from '../base/json';
import { floatValue, intValue, numInfo, PyBytes, PyComplex, PyDict, pyRepr, PySet, PyTuple, PyValue } from './values';

export class PySyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = 'PySyntaxError';
  }
}


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

const D = '[0-9](?:_?[0-9])*';
/** A number token (sticky): hex, octal, binary, float or int, with an optional imaginary `j`. */
const NUMBER = new RegExp(
  `0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:${D}\\.(?:${D})?|\\.${D})(?:[eE][+-]?${D})?[jJ]?|${D}(?:[eE][+-]?${D})?[jJ]?`,
  'y',
);

const SIMPLE_ESCAPES: Record<string, string> = { '\n': '', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

const MAX_NESTING = 200;

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
    // Python's tokenizer refuses a 201st open bracket; this parser would overflow the stack instead.
    if (this.depth >= MAX_NESTING && (c === '(' || c === '[' || c === '{')) this.fail('too many nested parentheses');
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
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(s);
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
      if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) p.fail(`truncated \\${e} escape`);
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
      const key = escapeKey(k as string);
      delete o[key];
      setKey(o, key, v as Json);
    }
    return o;
  }
  // A later equal key replaces the value in the first one's place (a map, not a scan per key).
  const out: [PyValue, PyValue][] = [];
  const at = new Map<string, number>();
  for (const [k, v] of entries) {
    const r = pyRepr(k);
    const j = at.get(r);
    if (j !== undefined) out[j][1] = v;
    else {
      at.set(r, out.length);
      out.push([k, v]);
    }
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
