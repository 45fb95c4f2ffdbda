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
  /** What the parts were made from: the message's fields, each by identity. */
  id: string;
  content: string;
  msgType: string;
  version: number;
  meta: unknown;
  nbdev: unknown;
  timeRun: unknown;
  zone: unknown;
  attachments: unknown;
  /** Each attachment, its data, type and base64 check, in order (empty without attachments). */
  attached: unknown[];
  /** The aim and options they were made with (optionsToken). */
  token: object;
  /** The images' version when the parts hold media (scaled images may have been added since). */
  imagesVersion: number | undefined;
  parts: readonly HistPart[];
}

const cache = new WeakMap<Message, Entry>();

/** The aim and options of the last lookup, and the token that stands for them while their values stay. */
let lastOptions: unknown[] = [];
let lastToken: object = {};

/** A token for the values of `aim` and `opts` that `toParts` reads: the same object while they are the same. */
function optionsToken(aim: AimInfo, opts: PartsOptions): object {
  let k = 0;
  let same = lastOptions.length === AIM_KEYS.length + OPTION_KEYS.length;
  for (const key of AIM_KEYS) same &&= lastOptions[k++] === aim[key];
  for (const key of OPTION_KEYS) same &&= lastOptions[k++] === opts[key];
  if (!same) {
    lastOptions = [...AIM_KEYS.map((key) => aim[key]), ...OPTION_KEYS.map((key) => opts[key])];
    lastToken = {};
  }
  return lastToken;
}

const zoneOf = (m: Message) => (m.dlg as unknown as { timezone?: unknown } | null)?.timezone;

function attachedOf(m: Message): unknown[] {
  const out: unknown[] = [];
  for (const a of m.attachments) out.push(a, a.data, a.contentType, a.invalidBase64);
  return out;
}

/** Whether `e` was made from `m` as it is now, with the options of `token`. Compared in place: nothing is made for a hit. */
function unchanged(e: Entry, m: Message, token: object): boolean {
  if (e.token !== token || e.id !== m.id || e.content !== m.content || e.msgType !== m.msgType || e.version !== m.version || e.meta !== m.meta) return false;
  if (e.nbdev !== m.meta.nbdev || e.timeRun !== m.extra.time_run || e.zone !== zoneOf(m) || e.attachments !== m.attachments) return false;
  if (e.attached.length !== m.attachments.length * 4) return false;
  let k = 0;
  for (const a of m.attachments) {
    if (e.attached[k++] !== a || e.attached[k++] !== a.data || e.attached[k++] !== a.contentType || e.attached[k++] !== a.invalidBase64) return false;
  }
  return true;
}

/** `toParts(m, aim, opts)`, reused while nothing it reads changed. Read-only: callers copy what they change. */
export function messageParts(m: Message, aim: AimInfo, opts: PartsOptions = {}): readonly HistPart[] {
  if (opts.last || (opts.files && m.content.includes('#ai)'))) return toParts(m, aim, opts);
  const token = optionsToken(aim, opts);
  const hit = cache.get(m);
  if (hit && unchanged(hit, m, token) && hit.imagesVersion === (hit.imagesVersion === undefined ? undefined : opts.images?.version)) {
    return hit.parts;
  }
  const parts = toParts(m, aim, opts);
  cache.set(m, {
    id: m.id,
    content: m.content,
    msgType: m.msgType,
    version: m.version,
    meta: m.meta,
    nbdev: m.meta.nbdev,
    timeRun: m.extra.time_run,
    zone: zoneOf(m),
    attachments: m.attachments,
    attached: attachedOf(m),
    token,
    // Only a message with media (more parts than its text) looks images up.
    imagesVersion: parts.length > 1 ? opts.images?.version : undefined,
    parts,
  });
  return parts;
}
