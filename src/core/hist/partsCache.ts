// A message's history parts (`toParts`) stay the same from one answer to the next while the message and
// the options do, yet the context plan counts them and `dlg2chat` sends them for every message of the
// history, on every answer. They are kept per message object with what they were made from (compared
// by identity, which is cheap: a changed field is a new string, array or object, and a changed output
// bumps `version`), so an answer converts only the messages that changed. Not kept: the live prompt
// (`last`), and a message with `#ai` file refs, whose files the host reads afresh for each request.

import { Message } from '../model/dialog';
import { AimInfo, HistPart } from './media';
import { PartsOptions, toParts } from './xml';

/** The options `toParts` reads, compared by identity. */
const OPTION_KEYS = ['images', 'unavailMsg', 'renderers', 'latex', 'timezone', 'envelope', 'promptText'] as const;
const AIM_KEYS = ['supports_vision', 'supports_video_input', 'supports_audio_input', 'supports_pdf_input'] as const;

interface Entry {
  /** What the parts were made from, in `visit`'s order. */
  inputs: unknown[];
  /** The images' version when the parts hold media (scaled images may have been added since). */
  imagesVersion: number | undefined;
  parts: readonly HistPart[];
}

const cache = new WeakMap<Message, Entry>();

/** What `toParts(m, aim, opts)` depends on, each compared by identity: written on a miss, compared in place on a lookup. */
function visit(m: Message, aim: AimInfo, opts: PartsOptions, each: (v: unknown) => boolean): boolean {
  const zone = (m.dlg as unknown as { timezone?: unknown } | null)?.timezone;
  if (!(each(m.id) && each(m.content) && each(m.msgType) && each(m.version) && each(m.meta) && each(m.meta.nbdev) && each(m.extra.time_run) && each(zone) && each(m.attachments) && each(m.attachments.length))) return false;
  for (const a of m.attachments) if (!(each(a) && each(a.data) && each(a.contentType) && each(a.invalidBase64))) return false;
  for (const k of AIM_KEYS) if (!each(aim[k])) return false;
  for (const k of OPTION_KEYS) if (!each(opts[k])) return false;
  return true;
}

function unchanged(e: Entry, m: Message, aim: AimInfo, opts: PartsOptions): boolean {
  let k = 0;
  return visit(m, aim, opts, (v) => k < e.inputs.length && e.inputs[k++] === v) && k === e.inputs.length;
}

/** `toParts(m, aim, opts)`, reused while nothing it reads changed. Read-only: callers copy what they change. */
export function messageParts(m: Message, aim: AimInfo, opts: PartsOptions = {}): readonly HistPart[] {
  if (opts.last || (opts.files && m.content.includes('#ai)'))) return toParts(m, aim, opts);
  const hit = cache.get(m);
  if (hit && unchanged(hit, m, aim, opts) && hit.imagesVersion === (hit.imagesVersion === undefined ? undefined : opts.images?.version)) {
    return hit.parts;
  }
  const parts = toParts(m, aim, opts);
  const key: unknown[] = [];
  visit(m, aim, opts, (v) => key.push(v) > 0);
  // Only a message with media (more parts than its text) looks images up.
  cache.set(m, { inputs: key, imagesVersion: parts.length > 1 ? opts.images?.version : undefined, parts });
  return parts;
}
