// What the model reads of an output (ai-projections §1–5): one plain-text rendering per output, streams
// as a terminal would have shown them, images left to the media path.

import { Json, isJsonObject } from '../base/json';
import { Message, Output } from '../model/dialog';
import { cleanCliOutput, stripAnsi } from '../base/ansi';
import { pyRepr, pyStr, tryParsePyLiteral } from '../python';
import { pyStrip } from '../python/text';
import { TOOL_INFO, USAGE_INFO, removeBlocks } from '../reply/blocks';
import { convTools } from '../reply/legacyDetails';

/** A per-mime renderer; it receives the raw data value (a string or a list of lines), unjoined. */
export type Renderer = (data: Json) => string;
export type Renderers = Record<string, Renderer>;

/**
 * `verbatim` (default, DECISIONS "LaTeX outputs"): latex goes to the model as stored. `delimit` is the
 * reference's re-delimiting to `\(…\)` / `\[…\]`; `dollars` re-delimits with `$` / `$$`.
 */
export type LatexMode = 'verbatim' | 'delimit' | 'dollars';

export interface RenderOptions {
  renderers?: Renderers;
  latex?: LatexMode;
}

export const INTERRUPTED = '*[Response interrupted]*';
export const PENDING = '<output result="pending" reason="incomplete"/>';

/** Mimes eligible as text, in preference order; images, SVG and JSON never are (they are media or noise). */
const MIME_ORDER = ['text/markdown', 'text/html', 'application/javascript', 'text/latex', 'text/plain'];

function join(d: Json): string {
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map((x) => (typeof x === 'string' ? x : String(x))).join('');
  return d == null ? '' : String(d);
}

function truthyData(d: Json | undefined): boolean {
  if (d == null || d === false || d === 0 || d === '') return false;
  if (Array.isArray(d)) return d.length > 0;
  if (isJsonObject(d)) return Object.keys(d).length > 0;
  return true;
}

function defaultRenderers(latex: LatexMode): Renderers {
  return {
    'text/plain': (d) => stripAnsi(join(d)),
    'text/html': join,
    'text/markdown': join,
    'text/latex': latex === 'verbatim' ? join : (d) => normalizeTextLatex(join(d), latex === 'dollars'),
    'application/javascript': (d) => `<script>${join(d)}</script>`,
  };
}

const RENDERERS: Record<LatexMode, Renderers> = {
  verbatim: defaultRenderers('verbatim'),
  delimit: defaultRenderers('delimit'),
  dollars: defaultRenderers('dollars'),
};

/** The (mime, data) the model sees for one output (§1 step 1). */
export function preferredOut(out: Output): [string, Json] {
  const t = out.output_type;
  if (t === 'stream') return ['text/plain', join(out.text ?? '')];
  if (t === 'error') {
    const tb = out.traceback;
    return ['text/plain', Array.isArray(tb) ? tb.map((x) => join(x)).join('\n') : join(tb ?? '')];
  }
  if (t === 'execute_result' || t === 'display_data') {
    const data = isJsonObject(out.data) ? out.data : {};
    for (const mime of MIME_ORDER) if (truthyData(data[mime])) return [mime, data[mime]];
    return ['text/plain', ''];
  }
  return ['text/plain', 'Error: Failed to parse unknown output - ' + pyRepr(out)];
}

/** One output as text (§1). `renderers` overrides or extends the default per-mime table. */
export function renderOutputAi(out: Output, renderers?: Renderers | null, opts: { latex?: LatexMode } = {}): string {
  const [mime, data] = preferredOut(out);
  const r = renderers?.[mime] ?? RENDERERS[opts.latex ?? 'verbatim'][mime];
  return r ? r(data) : '';
}

/** Pools streams (stdout then stderr, terminal-cleaned) after displays and before results/errors (§2). */
export function concatStreams(outs: Output[]): Output[] {
  const other: Output[] = [];
  const last: Output[] = [];
  const streams: Record<string, string[]> = { stdout: [], stderr: [] };
  for (const o of outs) {
    const t = o.output_type;
    if (t === 'stream') {
      const name = o.name as string;
      if (name === 'stdout' || name === 'stderr') streams[name].push(join(o.text ?? ''));
    } else if (t === 'error' || t === 'execute_result') last.push(o);
    else other.push(o);
  }
  for (const name of ['stdout', 'stderr']) {
    if (streams[name].length) other.push({ output_type: 'stream', name, text: cleanCliOutput(streams[name].join('')) });
  }
  return other.concat(last);
}

/** A whole output list as text (§2); anything that is not a list of objects renders as `""`. */
export function renderOutputsAi(outs: unknown, renderers?: Renderers | null, opts: { latex?: LatexMode } = {}): string {
  if (!Array.isArray(outs) || !outs.length || !isJsonObject(outs[0])) return '';
  return concatStreams(outs as Output[]).map((o) => renderOutputAi(o, renderers, opts)).join('\n');
}

const LATEX_FORMS: [RegExp, boolean][] = [
  [/^\\\[([\s\S]*)\\\]$/, true],
  [/^\\\(([\s\S]*)\\\)$/, false],
  [/^\$\$([\s\S]*)\$\$$/, true],
  [/^\$([\s\S]*)\$$/, false],
];

/** Re-delimits TeX as `\(…\)` / `\[…\]` (or `$…$` / `$$…$$`) whatever delimiters it came with (§4). */
export function normalizeTextLatex(s: string, dollars = false): string {
  if (!s) return s;
  const t = pyStrip(s);
  let tex = t;
  let display: boolean | null = null;
  for (const [re, disp] of LATEX_FORMS) {
    const m = re.exec(t);
    if (m) {
      tex = m[1];
      display = disp;
      break;
    }
  }
  if (display === null) display = /^\\begin\{(align|equation|gather|multline|eqnarray)/.test(t);
  if (dollars) return display ? `$$${tex}$$` : `$${tex}$`;
  return display ? `\\[${tex}\\]` : `\\(${tex}\\)`;
}

/**
 * Removes every top-level ```` ```json {.tool} ```` and ```` ```json {.usage} ```` fenced block, from
 * the start of its opening line to just past its closing line, keeping the text around it. Legacy
 * `<details>` envelopes are converted first (reply-format §10 port decision), so both forms go.
 */
export function stripToolBlocks(text: string): string {
  const t = convTools(text);
  return t.includes(TOOL_INFO) || t.includes(USAGE_INFO) ? removeBlocks(t, TOOL_INFO, USAGE_INFO) : t;
}

/**
 * A reply as it enters the history (§5): optionally without tool/usage blocks, trimmed, one trailing
 * interrupted marker removed, and never blank (the pending placeholder instead).
 */
export function aiFmt(text: string, stripTools = false): string {
  let s = pyStrip(stripTools ? stripToolBlocks(text) : text);
  const tail = '\n' + INTERRUPTED;
  if (s.endsWith(tail)) s = pyStrip(s.slice(0, -tail.length));
  return s || PENDING;
}

/**
 * Python `str(literal_eval(text))`, or the text unchanged when it is not exactly one literal: code
 * results reach the model as values, so `'hello'` is `hello` and `1e3` is `1000.0` (§5, deliberate).
 */
export function reEvalLiteral(text: string): string {
  const v = tryParsePyLiteral(text);
  return v === undefined ? text : pyStr(v);
}

interface AiCache {
  version: number;
  key: unknown;
  latex: LatexMode;
  value: string;
}
const aiCache = new WeakMap<Message, AiCache>();

/** Host renderers for a message (`Message.ai_renderers` of the reference), kept in `extra`. */
function msgRenderers(m: Message): Renderers | undefined {
  const r = m.extra.aiRenderers;
  return r && typeof r === 'object' ? (r as Renderers) : undefined;
}

/** The model-facing text of a message's output (§5), cached per output version and options. */
export function aiOutput(m: Message, opts: RenderOptions = {}): string {
  const latex = opts.latex ?? 'verbatim';
  const renderers = opts.renderers ?? msgRenderers(m);
  const hit = aiCache.get(m);
  if (hit && hit.version === m.version && hit.key === renderers && hit.latex === latex) return hit.value;
  let value = '';
  if (m.msgType === 'prompt') value = aiFmt(renderOutputsAi(m.output, renderers, { latex }));
  else if (m.msgType === 'code') value = reEvalLiteral(renderOutputsAi(m.output, renderers, { latex }));
  aiCache.set(m, { version: m.version, key: renderers, latex, value });
  return value;
}

/** A rough token count for budgeting UIs: ~4 UTF-16 units per token, the usual English-text heuristic. */
export function tokenEstimate(text: string): number {
  return Math.ceil(text.length / 4);
}
