// The item XML grammar (ai-projections §6): `<TAG ATTRS>CONTENT<out>OUT</out></TAG>`, no whitespace,
// content never escaped. One grammar, three uses: the concise view (`toXml`), history (`histXml`),
// and the prompt text of a history turn (`promptTxt`).

import { JsonObject, isJsonObject } from '../base/json';
import { Message } from '../model/dialog';
import { metaDirectives } from '../model/directives';
import { aiRes } from '../model/outputs';
import { RenderOptions, aiOutput, renderOutputsAi } from './render';
import { AimInfo, HistPart, MediaOptions, toMedia } from './media';
import { XmlAttr, xmlAttrs } from './xmlAttrs';
import { cpLen, truncstr } from '../python/text';

export const INSTRUCTIONS = '<instructions>Respond to the request in the `prompt` below.</instructions>';

/** `<tag attrs>content</tag>`, with `<out>…</out>` before the close when `out` is non-empty. */
export function itemXml(tag: string, attrs: readonly XmlAttr[], content: string, out = ''): string {
  return `<${tag}${xmlAttrs(attrs)}>${content}${out ? `<out>${out}</out>` : ''}</${tag}>`;
}

/** `meta.nbdev` as attributes: `"true"` bare, other values as given (a non-string value is an error). */
export function nbdevAttrs(meta: JsonObject): XmlAttr[] {
  const nb = meta.nbdev;
  if (nb === undefined || nb === null) return [];
  metaDirectives(meta); // validates, with the model's error text
  return isJsonObject(nb) ? Object.keys(nb).map((k): XmlAttr => [k.toLowerCase(), nb[k] === 'true' ? true : (nb[k] as string)]) : [];
}

function tagOf(m: Message): string {
  return m.msgType === 'note' ? 'markdown' : m.msgType.toLowerCase();
}

export interface ToXmlOptions extends Pick<RenderOptions, 'latex'> {
  /** Include code outputs (`render_outputs_ai`); prompts always include their reply. */
  inclOut?: boolean;
  /** Cut code outputs to 512 code points (511 + `…`). */
  truncOut?: boolean;
  ids?: boolean;
}

/** `msg2xml` / `Message.to_xml`: the concise view of one message (attribute `kind` = `meta.rec_kind`). */
export function toXml(m: Message, opts: ToXmlOptions = {}): string {
  const { inclOut = false, truncOut = true, ids = true, latex } = opts;
  const kind = m.meta.rec_kind;
  const attrs: XmlAttr[] = [['id', ids ? m.id : null], ...nbdevAttrs(m.meta), ['kind', typeof kind === 'string' ? kind : kind == null ? null : String(kind)]];
  let out = '';
  if (m.msgType === 'prompt') out = aiRes(m);
  else if (m.msgType === 'code' && inclOut) {
    out = renderOutputsAi(m.output, null, { latex });
    if (truncOut && out.length > 512 && cpLen(out) > 512) out = truncstr(out, 512);
  }
  return itemXml(tagOf(m), attrs, m.content, out);
}

/** Options of the history projection. */
export interface HistXmlOptions extends RenderOptions {
  /** IANA zone for `time` attributes; default: the dialog's `timezone` attribute, else UTC. */
  timezone?: string;
}

function timezoneOf(m: Message, opts: HistXmlOptions): string {
  const dz = (m.dlg as unknown as { timezone?: unknown } | null)?.timezone;
  return opts.timezone ?? (typeof dz === 'string' && dz ? dz : 'UTC');
}

function timeRun(m: Message): string | null {
  const t = m.extra.time_run;
  return typeof t === 'string' && t ? t : null;
}

/** `hist_xml` of a note, code or raw message: the item with its `ai_output` and `time`. */
export function histXml(m: Message, opts: HistXmlOptions = {}): string {
  const tr = timeRun(m);
  const attrs: XmlAttr[] = [['id', m.id], ...nbdevAttrs(m.meta), ['time', tr ? toLocalTime(tr, timezoneOf(m, opts)) : null]];
  return itemXml(tagOf(m), attrs, m.content, aiOutput(m, opts));
}

export interface PromptTxtOptions extends HistXmlOptions {
  /** Wrap in the reference's `<instructions>` + `<prompt sid time>` envelope (DECISIONS: bare by default). */
  envelope?: boolean;
  /** This is the live request (the final prompt); the built-in forms render it like any other. */
  last?: boolean;
  /**
   * A host's own prompt text (the seeds' patchable `prompt_txt`), e.g. an envelope that marks the live
   * request; it wins over `envelope`.
   */
  promptText?: (m: Message, last: boolean) => string;
}

/** The history text of a prompt: its bare content, the reference's envelope, or the host's hook. */
export function promptTxt(m: Message, opts: PromptTxtOptions = {}): string {
  if (opts.promptText) return opts.promptText(m, !!opts.last);
  if (!opts.envelope) return m.content;
  const tr = timeRun(m);
  // Surprising but kept: an unparseable time gives `time=""` here, where other items omit it.
  let attrs = xmlAttrs([['sid', m.id]]);
  if (tr) attrs += ` time="${toLocalTime(tr, timezoneOf(m, opts))}"`;
  return `${INSTRUCTIONS}\n<prompt${attrs}>${m.content}</prompt>`;
}

export interface PartsOptions extends PromptTxtOptions, MediaOptions {}

/** `to_parts`: the message's media, then its history text. */
export function toParts(m: Message, aim: AimInfo, opts: PartsOptions = {}): HistPart[] {
  const parts = toMedia(m, aim, opts);
  parts.push(m.msgType === 'prompt' ? promptTxt(m, opts) : histXml(m, opts));
  return parts;
}

/** A reminder the host puts beside the live prompt; nothing for empty text. */
export function warningTag(text: string): string {
  return text ? `<system-reminder>**NB**: ${text}</system-reminder>` : '';
}

// ------------------------------------------------------------------ time

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?$/i;

function pad(n: number, w = 2): string {
  return String(Math.abs(n)).padStart(w, '0');
}

/** One formatter per zone: building one costs ~100 µs, a history can stamp thousands of messages. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** Offset in minutes of `zone` at the instant `ms` (Intl only: no tz database of our own). */
function zoneOffset(ms: number, zone: string): number {
  let f = zoneFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    zoneFormats.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const x of f.formatToParts(new Date(ms))) if (x.type !== 'literal') p[x.type] = Number(x.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60000);
}

/**
 * `to_local_time`: an ISO-8601 time in zone `tz`, rendered like Python's `isoformat()` with a numeric
 * offset (`2026-01-27T13:00:00+01:00`). A naive time is machine-local. Unparseable → `""`.
 */
export function toLocalTime(time: string | null | undefined, tz = 'UTC'): string {
  if (!time) return '';
  const m = ISO_RE.exec(time.trim());
  if (!m) return '';
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1, 7);
  const frac = m[7] ? (m[7] + '000000').slice(0, 6) : '';
  const micros = frac ? Number(frac) : 0;
  let ms: number;
  if (m[8]) {
    ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
    if (m[8].toUpperCase() !== 'Z') {
      const z = /^([+-])(\d{2}):?(\d{2})?/.exec(m[8])!;
      ms -= (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3] ?? 0)) * 60000;
    }
  } else ms = new Date(+y, +mo - 1, +d, +h, +mi, +s).getTime();
  if (Number.isNaN(ms)) return '';
  let off: number;
  try {
    off = zoneOffset(ms, tz);
  } catch {
    return '';
  }
  const w = new Date(ms + off * 60000);
  const date = `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}`;
  const clock = `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}:${pad(w.getUTCSeconds())}${micros ? '.' + pad(micros, 6) : ''}`;
  return `${date}T${clock}${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}
