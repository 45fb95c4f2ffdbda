// The building blocks of reply markdown (reply-format §2–§4): fences, the fenced tool / usage / think
// blocks, pending rows, truncation, and Python's json.dumps layouts the blocks are written in.

import { Json, isJsonObject, pyFloatRepr, taggedNumber, unescapeKey } from '../base/json';
import { MediaPart, Part } from '../hist/parts';
import { isIntLexeme, pyRepr, pyStr } from '../python';
import { cpLen, cpSlice, pyRstrip, pySplitlines, pyStrip } from '../python/text';

export const TOOL_INFO = 'json {.tool}';
export const USAGE_INFO = 'json {.usage}';
export const THINK_START = '<!--think_start-->';
export const THINK_END = '<!--think_end-->';
/** "Already truncated" marker: a string wrapped in it is passed through by truncStr. */
export const TRUNC_MARK = '\u{1D341}';

// ---------------------------------------------------------------- JSON as Python's json.dumps writes it

export interface DumpsOptions {
  /** Spaces per level; undefined for the one-line form with `", "` / `": "` separators. */
  indent?: number;
}

function numberText(v: number | string): string {
  if (typeof v === 'string') {
    if (isIntLexeme(v)) return v === '-0' ? '0' : v;
    if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return v;
    return pyFloatRepr(Number(v));
  }
  if (Number.isInteger(v) && Math.abs(v) < 2 ** 53 && !Object.is(v, -0)) return String(v);
  return pyFloatRepr(v);
}

/** JSON string literals are the same in both languages (ensure_ascii=False), escapes included. */
const stringText = (s: string) => JSON.stringify(s);

/** `json.dumps(v, indent=?, ensure_ascii=False)` with insertion-ordered keys and json.ts number tags. */
export function pyJsonDumps(v: unknown, opts: DumpsOptions = {}, depth = 0): string {
  if (v === null || v === undefined) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'string') return stringText(v);
  const lex = taggedNumber(v);
  if (lex !== undefined) return numberText(lex);
  const ind = opts.indent;
  const open = (items: string[], l: string, r: string): string => {
    if (!items.length) return l + r;
    if (ind === undefined) return l + items.join(', ') + r;
    const pad = '\n' + ' '.repeat(ind * (depth + 1));
    return l + pad + items.join(',' + pad) + '\n' + ' '.repeat(ind * depth) + r;
  };
  if (Array.isArray(v)) return open(v.map((x) => pyJsonDumps(x, opts, depth + 1)), '[', ']');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return open(Object.keys(o).map((k) => stringText(unescapeKey(k)) + ': ' + pyJsonDumps(o[k], opts, depth + 1)), '{', '}');
  }
  return stringText(String(v));
}

// ---------------------------------------------------------------- fences

/** The longest run of `ch` in `text` (0 when none). */
export function longestRun(text: string, ch: string): number {
  let best = 0;
  for (const m of text.matchAll(new RegExp(`\\${ch}+`, 'g'))) best = Math.max(best, m[0].length);
  return best;
}

/** `fenced(text, info)`: a backtick fence longer than any run inside, trailing newlines dropped. */
export function fenced(text: string, info: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}${info}\n${dropTrailingNewlines(text)}\n${fence}`;
}

/** `s.replace(/\n+$/, '')` without the regex, which is quadratic over inner newline runs. */
export function dropTrailingNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--;
  return s.slice(0, end);
}

export interface FencedBlock {
  info: string;
  body: string;
  /** Offset of the opening line. */
  start: number;
  /** Just past the closing line (and its line break). */
  end: number;
}

/** Top-level backtick-fenced blocks, closed ones only (§2). */
export function fencedBlocks(text: string): FencedBlock[] {
  const out: FencedBlock[] = [];
  let pos = 0;
  let fence = 0;
  let cur: FencedBlock | undefined;
  for (const raw of pySplitlines(text, true)) {
    const line = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
    const ticks = /^`*/.exec(line)![0].length;
    if (!cur) {
      if (ticks >= 3) {
        fence = ticks;
        cur = { info: pyStrip(line.slice(ticks)), body: '', start: pos, end: pos };
      }
    } else if (ticks >= fence && pyStrip(line.slice(ticks)) === '') {
      cur.end = pos + raw.length;
      out.push(cur);
      cur = undefined;
    } else cur.body += raw;
    pos += raw.length;
  }
  return out;
}

/** Removes every fenced block with one of these exact info strings, cutting its bytes out. */
export function removeBlocks(text: string, ...infos: string[]): string {
  let out = '';
  let at = 0;
  for (const b of fencedBlocks(text)) {
    if (!infos.includes(b.info)) continue;
    out += text.slice(at, b.start);
    at = b.end;
  }
  return out + text.slice(at);
}

/** Removes from each think start to the next think end, plus one following newline. */
export function removeThink(text: string): string {
  // indexOf, not a lazy regex: that rescans to the end for every unclosed start.
  let out = '';
  let at = 0;
  for (;;) {
    const k = text.indexOf(THINK_START, at);
    if (k < 0) break;
    const e = text.indexOf(THINK_END, k + THINK_START.length);
    if (e < 0) break;
    out += text.slice(at, k);
    at = e + THINK_END.length + (text.charCodeAt(e + THINK_END.length) === 10 ? 1 : 0);
  }
  return at ? out + text.slice(at) : text;
}

const THINK_BODY = /^\n?::: details\n\n## Thinking\n\n([\s\S]*?)\n\n:::\n?$/;

/** The texts of a reply's think blocks, in order (a block not in `thinkBlock`'s shape: its text as written, trimmed). */
export function thinkTexts(text: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf(THINK_START); at >= 0; at = text.indexOf(THINK_START, at)) {
    const e = text.indexOf(THINK_END, at + THINK_START.length);
    if (e < 0) break;
    const body = text.slice(at + THINK_START.length, e);
    const t = pyStrip(THINK_BODY.exec(body)?.[1] ?? body);
    if (t) out.push(t);
    at = e + THINK_END.length;
  }
  return out;
}

export function thinkBlock(text: string): string {
  return `${THINK_START}\n::: details\n\n## Thinking\n\n${pyStrip(text)}\n\n:::\n${THINK_END}`;
}

// ---------------------------------------------------------------- truncation and tool text

/** `trunc_str` (§3): right-trims, honours the 𝍁 marker, keeps [skip, mx−skip) of longer strings. */
export function truncStr(s: unknown, mx: number | null = 2000, skip = 10, replace = 'TRUNCATED'): unknown {
  if (mx === null) return s;
  let t = pyRstrip(pyStr(s));
  const n = cpLen(t);
  if (n > 2 && t.startsWith(TRUNC_MARK) && t.endsWith(TRUNC_MARK)) {
    t = t.slice(TRUNC_MARK.length, -TRUNC_MARK.length);
    if (replace) return t;
  }
  if (cpLen(t) <= mx) return t;
  const cps = Array.from(t).slice(skip, Math.max(skip, mx - skip));
  const pieces = cps.join('').split(' ');
  const last = pieces[pieces.length - 1];
  if (cpLen(last) > 150) pieces[pieces.length - 1] = cpSlice(last, 5);
  let r = (skip > 0 ? '…' : '') + pieces.join(' ') + '…';
  if (replace) r = `<${replace}>${r}</${replace}>`;
  return r;
}

function partText(p: Part | Record<string, unknown>): string {
  const type = (p as { type?: string }).type;
  if (type === 'text') return String((p as { text: unknown }).text ?? '');
  if (type === 'thinking') return '🧠';
  if (typeof type === 'string' && type.startsWith('input_')) {
    const mime = (p as MediaPart).mime;
    return mime ? `<media ${type} ${mime}>` : `<media ${type}>`;
  }
  return pyJsonDumps(p);
}

function isPartList(v: unknown): v is Part[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => isJsonObject(x as Json) && typeof (x as { type?: unknown }).type === 'string');
}

/** `tool_text` (§3): a result value as the text a tool turn carries. */
export function toolText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isPartList(v)) return v.map(partText).join('\n');
  if ((Array.isArray(v) || isJsonObject(v as Json)) && taggedNumber(v) === undefined) return pyJsonDumps(v);
  return pyStr(v);
}

// ---------------------------------------------------------------- the fenced tool block and pending rows

export interface ToolCallData {
  id: string | null;
  name: string;
  arguments: Record<string, unknown>;
  /** The result text. */
  text: string;
  server?: boolean;
}

/** Truncated copies of the string arguments (mx*5), as both envelope writers do. */
export function truncArgs(args: Record<string, unknown>, mx: number | null): Record<string, unknown> {
  if (mx === null) return args;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(args)) out[k] = typeof args[k] === 'string' ? truncStr(args[k], mx * 5) : args[k];
  return out;
}

/** `mk_tr_details` (§3): the fenced tool block with its surrounding blank lines. */
export function mkToolBlock(r: ToolCallData, mx: number | null = 2000): string {
  const payload: Record<string, unknown> = { id: r.id, name: r.name, args: truncArgs(r.arguments ?? {}, mx), result: truncStr(toolText(r.text), mx) };
  if (r.server) payload.server = true;
  return '\n\n' + fenced(pyJsonDumps(payload, { indent: 2 }), TOOL_INFO) + '\n\n';
}

/** `Pi` of a pending row or a legacy summary: the JSON literal of the first 40 code points of str(v). */
export function previewArg(v: unknown): string {
  const s = pyRstrip(pyStr(v).replace(/`/g, '\\`'));
  return JSON.stringify(cpLen(s) > 40 ? cpSlice(s, 40) + '…' : s);
}

/** A code span that survives backticks inside `t`. */
export function codeSpan(t: string): string {
  const ticks = '`'.repeat(longestRun(t, '`') + 1);
  return t.includes('`') ? `${ticks} ${t} ${ticks}` : `${ticks}${t}${ticks}`;
}

/** `NAME(k1=P1, k2=P2)` with previewed argument values. */
export function callPreview(name: string, args: Record<string, unknown>): string {
  return `${name}(${Object.keys(args).map((k) => `${k}=${previewArg(args[k])}`).join(', ')})`;
}

const cut40 = (s: string) => (cpLen(s) > 40 ? cpSlice(s, 40) + '…' : s);

/**
 * The one-line form a call is shown in (the reply renderer's fold): `add(a=1, b=2)→3`, each argument as
 * the Python literal it is (`1`, `'x'`, `True`, `None`) and the result as written, each cut at 40 code
 * points. Not the file's legacy summary (`callPreview`), which keeps fastllm's bytes.
 */
export function callSummary(name: string, args: Record<string, unknown>, result: string): string {
  const call = `${name}(${Object.keys(args).map((k) => `${k}=${cut40(pyRepr(args[k]))}`).join(', ')})`;
  const shown = pyRstrip(result).replace(/\r?\n/g, ' ');
  return shown ? `${call}→${cut40(shown)}` : call;
}

/** The document form of a call with no result: `- ⏳ `CALL` ⏳`. */
export function pendingRow(name: string, args: Record<string, unknown>): string {
  return `- ⏳ ${codeSpan(callPreview(name, args))} ⏳`;
}
