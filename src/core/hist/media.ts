// Media in the model's context (ai-projections §7): a `<media>` tag followed by the bytes (or a URL
// reference), or one `<media-unavailable>` tag. Nothing here throws for bad media: a user who pasted a
// broken image gets a model that says it cannot see it, not a crashed request.

import mime from 'mime';
import { Json, isJsonObject } from '../base/json';
import { Attachment, Message } from '../model/dialog';
import { base32, md5 } from '../base/hashes';
import { Base64Error, b64decode } from '../base/base64';
import { escXml, xmlAttrs } from './xmlAttrs';
import { bytesAt as at } from '../base/imageSize';

/** Model capabilities (the reference's `aim_info`). */
export interface AimInfo {
  supports_vision?: boolean;
  supports_video_input?: boolean;
  supports_audio_input?: boolean;
  supports_pdf_input?: boolean;
}

/** A media reference the model fetches itself (an `http(s)` `#ai` ref). */
export interface MediaUrl {
  url: string;
  mime?: string;
}

/** One element of a history turn: text, media bytes, or a media URL. */
export type HistPart = string | Uint8Array | MediaUrl;

export type MediaType = 'content' | 'output' | 'variable';

export function isMediaUrl(x: unknown): x is MediaUrl {
  return typeof x === 'object' && x !== null && !(x instanceof Uint8Array) && typeof (x as MediaUrl).url === 'string';
}

/** A recoverable load failure (bad base64, unreadable file): its message becomes the unavailable reason. */
export class MediaLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaLoadError';
  }
}

export const UNAVAILABLE_TEXT = 'The user included this media, but it was not available to the AI. Tell the user that you cannot see it.';
export const DEFAULT_UNSUPPORTED =
  'An unsupported media type was included in the context: {mime}. Please instruct the user to switch to a model that supports this media type.';

const imgIds = new WeakMap<Uint8Array, string>();

/** `_img_id`: the MD5 of the bytes, base32, first 8 characters (stable across sessions); once per byte array. */
export function imgId(bytes: Uint8Array): string {
  let id = imgIds.get(bytes);
  if (id === undefined) imgIds.set(bytes, (id = base32(md5(bytes)).slice(0, 8)));
  return id;
}

/** The mime of media bytes by signature (§7 table; WebP deliberately undetected, as in the reference). */
export function detectMime(b: Uint8Array): string | null {
  if (at(b, 0, '%PDF')) return 'application/pdf';
  if (at(b, 0, 'RIFF')) return at(b, 8, 'WAVE') ? 'audio/wav' : at(b, 8, 'AVI ') ? 'video/avi' : null;
  if (at(b, 0, 'ID3') || at(b, 0, '\xff\xfb') || at(b, 0, '\xff\xf3')) return 'audio/mp3';
  if (at(b, 0, 'FORM')) return at(b, 8, 'AIFF') ? 'audio/aiff' : null;
  if (at(b, 0, 'OggS')) return 'audio/ogg';
  if (at(b, 0, 'fLaC')) return 'audio/flac';
  if (at(b, 4, 'ftyp')) return at(b, 8, '3gp') ? 'video/3gpp' : 'video/mp4';
  if (at(b, 0, '\x1a\x45\xdf')) return 'video/webm';
  if (at(b, 0, 'FLV')) return 'video/x-flv';
  if (at(b, 0, '\x30\x26\xb2\x75')) return 'video/wmv';
  if (at(b, 0, '\x00\x00\x01\xb3')) return 'video/mpeg';
  if (at(b, 6, 'JFIF') || at(b, 6, 'Exif') || (at(b, 0, '\xff\xd8\xff') && b.length > 3 && [0xdb, 0xe2, 0xe1, 0xfe].includes(b[3]))) {
    return 'image/jpeg';
  }
  if (at(b, 0, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (at(b, 0, 'GIF87a') || at(b, 0, 'GIF89a')) return 'image/gif';
  if (at(b, 0, 'MM') || at(b, 0, 'II')) return 'image/tiff';
  if (at(b, 0, 'BM')) return 'image/bmp';
  if (at(b, 0, '\x01\xda')) return 'image/x-rgb';
  if (b.length >= 3 && b[0] === 0x50 && /[ \t\n\r\v\f]/.test(String.fromCharCode(b[2]))) {
    const kind = { '1': 'bitmap', '4': 'bitmap', '2': 'graymap', '5': 'graymap', '3': 'pixmap', '6': 'pixmap' }[String.fromCharCode(b[1])];
    if (kind) return `image/x-portable-${kind}`;
  }
  if (at(b, 0, '#define ')) return 'image/x-xbitmap';
  return null;
}

const URL_EXTS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg', 'pdf', 'mp3', 'wav', 'ogg', 'flac', 'm4a', 'mp4', 'mov', 'webm']);

/** The mime of a URL by its extension (the §7 list), YouTube as video. */
export function urlMime(url: string): string | null {
  if (/^https?:\/\/(www\.|m\.)?(youtube\.com|youtu\.be)\//i.test(url)) return 'video/mp4';
  const path = url.split(/[?#]/)[0];
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1].toLowerCase();
  return ext && URL_EXTS.has(ext) ? mime.getType(ext) : null;
}

/** Whether the model can take this mime. */
export function supportsMime(m: string, aim: AimInfo): boolean {
  if (m.startsWith('image/')) return !!aim.supports_vision;
  if (m.startsWith('video/')) return !!aim.supports_video_input;
  if (m.startsWith('audio/')) return !!aim.supports_audio_input;
  if (m === 'application/pdf') return !!aim.supports_pdf_input;
  return false;
}

export function mediaTag(type: string, id: string, mimeType?: string | null): string {
  return `<media${xmlAttrs([['id', id], ['type', type], ['mime', mimeType]])}></media>`;
}

const TAG_MIME = /^<media [^>]*\bmime="([^"]+)"/;

/** The mime a `mediaTag` declares (a history part before the bytes it tags); undefined for anything else. */
export function mediaTagMime(part: unknown): string | undefined {
  return typeof part === 'string' ? TAG_MIME.exec(part)?.[1] : undefined;
}

export function unavailableTag(type: string, id: string, reason: string, mimeType?: string | null): string {
  const attrs = xmlAttrs([['id', id], ['type', type], ['reason', reason], ['mime', mimeType]]);
  return `<media-unavailable${attrs}>${escXml(UNAVAILABLE_TEXT)}</media-unavailable>`;
}

/** Image preparation before the bytes enter the context (resizing); may throw MediaLoadError. */
export type MediaPrep = (bytes: Uint8Array, mime: string) => Uint8Array;

export interface MediaItemOptions {
  mime?: string | null;
  prep?: MediaPrep;
  /** The unsupported-capability reason; `{mime}` is replaced. */
  unavailMsg?: string;
}

/** Python's type name of a JSON-like value, for error and variable texts. */
export function pyTypeName(v: unknown): string {
  if (typeof v === 'string') return 'str';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  return v === undefined || v === null ? 'NoneType' : 'dict';
}

/**
 * `media_item`: loads, checks and packages one media item as `[tag, data]`, or `[unavailable tag]`.
 * `id` may be a function of the bytes (output images), applied only once the bytes are usable, so an
 * undecodable or unsupported output image is reported with the function's name, as the reference does.
 */
export function mediaItem(
  type: MediaType,
  id: string | ((b: Uint8Array) => string),
  data: unknown,
  aim: AimInfo,
  opts: MediaItemOptions = {},
): HistPart[] {
  const idText = typeof id === 'string' ? id : id === imgId ? '_img_id' : id.name;
  let d: unknown = data;
  try {
    if (typeof d === 'function') d = (d as () => unknown)();
  } catch (e) {
    if (e instanceof MediaLoadError || e instanceof Base64Error) return [unavailableTag(type, idText, e.message, opts.mime)];
    throw e;
  }
  if (d === null || d === undefined) return [unavailableTag(type, idText, 'media data unavailable', opts.mime)];
  const isBytes = d instanceof Uint8Array;
  if (!isBytes && !isMediaUrl(d)) return [unavailableTag(type, idText, `expected bytes or MediaUrl, got ${pyTypeName(d)}`, opts.mime)];
  const m = opts.mime || (isBytes ? detectMime(d as Uint8Array) : (d as MediaUrl).mime || urlMime((d as MediaUrl).url));
  if (!m) return [unavailableTag(type, idText, 'unsupported or unknown media type')];
  if (!supportsMime(m, aim)) return [unavailableTag(type, idText, (opts.unavailMsg ?? DEFAULT_UNSUPPORTED).replace('{mime}', m), m)];
  if (!isBytes) return [mediaTag(type, idText, m), { ...(d as MediaUrl), mime: m }];
  const bytes = d as Uint8Array;
  const finalId = typeof id === 'string' ? id : id(bytes);
  let out = bytes;
  if (opts.prep) {
    try {
      out = opts.prep(bytes, m);
    } catch (e) {
      if (e instanceof MediaLoadError) return [unavailableTag(type, finalId, e.message, m)];
      throw e;
    }
  }
  return [mediaTag(type, finalId, m), out];
}

// ------------------------------------------------------------------ sources of a message's media

/**
 * `#ai` file refs as the host read them before the projection (src/node/fileRefReader.ts): the bytes,
 * or why the file is unavailable. Reading is the host's: it is asynchronous and guarded there.
 */
export type FileRefs = ReadonlyMap<string, Uint8Array | string>;

/** Host hooks and settings for collecting a message's media. */
export interface MediaOptions {
  /** The dialog's `#ai` file refs, read by the host (`fileRefs` lists which); a ref not in it is unavailable. */
  files?: FileRefs;
  /** Resized images from `prepareMedia`; images not in it pass through unchanged. */
  images?: PreparedImages;
  unavailMsg?: string;
}

/**
 * The references a global scan of `!\[[^\]]*\]REST|ALT2` finds (REST, ALT2 sticky, group 1 the value),
 * in order. As a regex this rescans to the next `]` from every `![`: quadratic over a run of unclosed
 * `![`. Here the next `]` is found once per stretch, so the scan is linear and finds the same matches.
 */
function imageRefs(text: string, rest: RegExp, alt2?: RegExp): string[] {
  const out: string[] = [];
  const cand = alt2 ? /!\[|<!-- /g : /!\[/g;
  let close = -1; // the first `]` at or after the current alt start, or Infinity when none is left
  let p = 0;
  for (;;) {
    cand.lastIndex = p;
    const c = cand.exec(text);
    if (!c) break;
    p = c.index;
    let re: RegExp | undefined;
    if (text.charCodeAt(p) === 33) {
      if (close < p + 2) {
        const j = text.indexOf(']', p + 2);
        close = j < 0 ? Infinity : j;
      }
      if (close !== Infinity) (re = rest).lastIndex = close + 1;
    } else (re = alt2!).lastIndex = p;
    const m = re?.exec(text);
    if (m) {
      out.push(m[1]);
      p = re!.lastIndex;
    } else p++;
  }
  return out;
}

/** A base64 data URL: group 1 the mime, group 2 the base64 text. */
export const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

const ATT_REST = /\(attachment:([0-9a-f-]{36})\)/y;
const LAST_OUTPUT = /<!-- last_output:([0-9a-f-]{36}) -->/y;
const AI_REST = /\(([^)#]+)#ai\)/y;
const RASTER = new Set(['image/jpeg', 'image/png', 'image/webp']);

function attachmentBytes(a: Attachment): () => Uint8Array {
  return () => {
    if (a.invalidBase64 !== undefined) b64decode(a.invalidBase64); // throws the decoder's own reason
    return a.data;
  };
}

/**
 * WebP, which `detectMime` leaves undetected as the reference does, for an attachment stored as WebP
 * whose bytes are WebP (a pasted or dropped one): without it a WebP the user attached is never sent.
 */
function attachedWebp(a: Attachment): string | undefined {
  return a.contentType === 'image/webp' && at(a.data, 0, 'RIFF') && at(a.data, 8, 'WEBP') ? 'image/webp' : undefined;
}

/** Attachments referenced by UUID in the content, in attachment order, mime sniffed from the bytes. */
export function attachmentMedia(m: Message, aim: AimInfo, opts: MediaOptions = {}): HistPart[] {
  if (!m.attachments.length) return [];
  const ids = new Set(imageRefs(m.content, ATT_REST, LAST_OUTPUT));
  const res: HistPart[] = [];
  for (const a of m.attachments) {
    if (ids.has(a.id)) res.push(...mediaItem('content', a.id, attachmentBytes(a), aim, { mime: attachedWebp(a), prep: prepFor(opts), unavailMsg: opts.unavailMsg }));
  }
  return res;
}

/** Decoded file texts by the bytes the host read, so repeated history builds (the panel's) decode once. */
const texts = new WeakMap<Uint8Array, string | null>();

/**
 * The text of file bytes that are text: valid UTF-8 (a leading BOM dropped) without NUL bytes, else
 * undefined. Every binary media format fails this test (NULs or non-UTF-8 bytes in its header) except
 * formats that are text themselves (SVG, plain PNM, XBM, an all-ASCII PDF).
 */
export function utf8Text(b: Uint8Array): string | undefined {
  let t = texts.get(b);
  if (t === undefined) {
    try {
      t = b.includes(0) ? null : new TextDecoder('utf-8', { fatal: true }).decode(b);
    } catch {
      t = null;
    }
    texts.set(b, t);
  }
  return t ?? undefined;
}

/** A `#ai` text file as sent: `<file path="REF">TEXT</file>`, in the item grammar (§6: content never escaped, as code cells). */
export function fileText(path: string, text: string): string {
  return `<file${xmlAttrs([['path', path]])}>${text}</file>`;
}

const FILE_TAG = /^<file path=(?:"([^"]*)"|'([^']*)')>([\s\S]*)<\/file>$/;

/** The path and text of a `fileText` part; undefined for anything else. */
export function fileTag(part: unknown): { path: string; text: string } | undefined {
  const m = typeof part === 'string' && part.startsWith('<file ') ? FILE_TAG.exec(part) : null;
  return m ? { path: m[1] ?? m[2], text: m[3] } : undefined;
}

/**
 * Markdown images marked for the model: `![alt](REF#ai)` as data URLs, web URLs or host files. A host
 * file whose bytes are text (`utf8Text`; a PDF stays a PDF) is sent as its text (`fileText`), in the
 * place its media would take.
 */
export function staticRefMedia(m: Message, aim: AimInfo, opts: MediaOptions = {}): HistPart[] {
  if (!m.content.includes('#ai)')) return [];
  const res: HistPart[] = [];
  for (const ref of imageRefs(m.content, AI_REST)) {
    const data = DATA_URL.exec(ref);
    if (data) {
      res.push(...mediaItem('content', data[2].slice(0, 10), () => b64decode(data[2]), aim, { mime: data[1], prep: prepFor(opts), unavailMsg: opts.unavailMsg }));
    } else if (/^https?:\/\//i.test(ref)) {
      res.push(...mediaItem('content', ref, { url: ref }, aim, { unavailMsg: opts.unavailMsg }));
    } else {
      const f = opts.files?.get(ref);
      const sniffed = f instanceof Uint8Array ? detectMime(f) : undefined;
      const text = f instanceof Uint8Array && sniffed !== 'application/pdf' ? utf8Text(f) : undefined;
      if (text !== undefined) res.push(fileText(ref, text));
      else if (sniffed === null) res.push(unavailableTag('content', ref, 'a binary file, neither UTF-8 text nor a known media type'));
      else {
        const load = () => {
          if (f === undefined) throw new MediaLoadError(`file references are not readable here: ${ref}`);
          if (typeof f === 'string') throw new MediaLoadError(f);
          return f;
        };
        res.push(...mediaItem('content', ref, load, aim, { prep: prepFor(opts), unavailMsg: opts.unavailMsg }));
      }
    }
  }
  return res;
}

/** The local file refs (`![](pic.png#ai)`, not data or web URLs) of the messages, once each, in order: what a host reads into `FileRefs`. */
export function fileRefs(messages: readonly Message[]): string[] {
  const refs = new Set<string>();
  for (const m of messages) {
    if (!m.content.includes('#ai)')) continue;
    for (const ref of imageRefs(m.content, AI_REST)) if (!DATA_URL.test(ref) && !/^https?:\/\//i.test(ref)) refs.add(ref);
  }
  return [...refs];
}

interface DecodedImage {
  b64: Json;
  bytes?: Uint8Array;
  error?: string;
}
/** Decoded output images by their `data` dict, so repeated history builds neither decode nor re-key bytes. */
const decoded = new WeakMap<object, DecodedImage>();

function decodeOutputImage(data: object, b64: Json): Uint8Array {
  const hit = decoded.get(data);
  if (hit && hit.b64 === b64) {
    if (hit.error !== undefined) throw new Base64Error(hit.error);
    return hit.bytes!;
  }
  const text = Array.isArray(b64) ? b64.join('') : typeof b64 === 'string' ? b64 : '';
  try {
    const bytes = b64decode(text);
    decoded.set(data, { b64, bytes });
    return bytes;
  } catch (e) {
    decoded.set(data, { b64, error: (e as Error).message });
    throw e;
  }
}

/** One image per code output (jpeg > png > webp), id = `_img_id(bytes)`; SVG is never media. */
export function outputImageMedia(m: Message, aim: AimInfo, opts: MediaOptions = {}): HistPart[] {
  if (m.msgType !== 'code') return [];
  const res: HistPart[] = [];
  for (const o of m.outputs) {
    const data = o.data;
    if (!isJsonObject(data)) continue;
    const key = ['image/jpeg', 'image/png', 'image/webp'].find((k) => k in data);
    if (!key) continue;
    res.push(...mediaItem('output', imgId, () => decodeOutputImage(data, data[key]), aim, { mime: key, prep: prepFor(opts), unavailMsg: opts.unavailMsg }));
  }
  return res;
}

/** `to_media`: attachments, then `#ai` refs, then output images. */
export function toMedia(m: Message, aim: AimInfo, opts: MediaOptions = {}): HistPart[] {
  const a = attachmentMedia(m, aim, opts);
  const s = staticRefMedia(m, aim, opts);
  const o = outputImageMedia(m, aim, opts);
  return a.length || s.length ? a.concat(s, o) : o;
}

// ------------------------------------------------------------------ resizing (async pre-pass)

/** Resizes raster images; implemented outside core (src/node/sharpResizer.ts) since it needs a native library. */
export interface ImageResizer {
  /**
   * Returns the image scaled so that width × height ≤ maxPixels (same format), or the input itself when
   * it is small enough. Throws when the bytes are not a decodable image of that mime.
   */
  resize(bytes: Uint8Array, mime: string, maxPixels: number): Promise<Uint8Array>;
}

export const DEFAULT_MAX_PIXELS = 768 * 768;
/** The largest `#ai` file read for the history (`dialogNotebook.history.maxFileBytes`'s default). */
export const DEFAULT_MAX_FILE_BYTES = 20_000_000;

/** A cheap key of image bytes: their length and a hash of at most 256 sampled bytes (not a digest: entries are compared in full). */
function sampleKey(b: Uint8Array): string {
  let h = 0x811c9dc5;
  const step = Math.max(1, Math.floor(b.length / 256));
  for (let k = 0; k < b.length; k += step) h = Math.imul(h ^ b[k], 0x01000193);
  return `${b.length}:${(h >>> 0).toString(36)}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  // Four bytes at a time where both views are aligned (decoded images are).
  const n = a.length >> 2;
  if (n && a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const x = new Uint32Array(a.buffer, a.byteOffset, n);
    const y = new Uint32Array(b.buffer, b.byteOffset, n);
    for (let k = 0; k < n; k++) if (x[k] !== y[k]) return false;
    for (let k = n << 2; k < a.length; k++) if (a[k] !== b[k]) return false;
    return true;
  }
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * Results of `prepareMedia`, keyed by the identity of the original bytes (attachment data, decoded
 * output images): `dlg2hist` stays synchronous and just looks them up. Hosts that rebuild byte arrays
 * (a cell converted again after it changed, an `#ai` file read again) keep one instance per dialog
 * with `byContent`: bytes not seen before are found by length and a sampled hash, confirmed by
 * comparing them in full, and then known by identity, so no lookup hashes a whole image.
 */
export class PreparedImages {
  private byIdentity = new WeakMap<Uint8Array, Uint8Array | string>();
  private byContent?: Map<string, { orig: Uint8Array; v: Uint8Array | string }[]>;
  /** Bumped by every `set`, so a host can tell whether a pre-pass found anything new. */
  version = 0;

  constructor(opts: { byContent?: boolean } = {}) {
    if (opts.byContent) this.byContent = new Map();
  }

  set(orig: Uint8Array, v: Uint8Array | string): void {
    this.byIdentity.set(orig, v);
    if (this.byContent) {
      const key = sampleKey(orig);
      const same = (this.byContent.get(key) ?? []).filter((e) => !sameBytes(e.orig, orig));
      this.byContent.set(key, [...same, { orig, v }]);
    }
    this.version++;
  }

  private find(orig: Uint8Array): Uint8Array | string | undefined {
    const hit = this.byIdentity.get(orig);
    if (hit !== undefined || !this.byContent) return hit;
    const e = this.byContent.get(sampleKey(orig))?.find((x) => sameBytes(x.orig, orig));
    if (e) this.byIdentity.set(orig, e.v);
    return e?.v;
  }
  has(orig: Uint8Array): boolean {
    return this.find(orig) !== undefined;
  }
  /** The resized bytes; throws MediaLoadError for an image the resizer could not decode. */
  get(orig: Uint8Array): Uint8Array {
    const v = this.find(orig);
    if (typeof v === 'string') throw new MediaLoadError(v);
    return v ?? orig;
  }
}

function prepFor(opts: MediaOptions): MediaPrep | undefined {
  const images = opts.images;
  return images ? (b, m) => (RASTER.has(m) ? images.get(b) : b) : undefined;
}

/**
 * The async pre-pass for resizing: finds every raster image the history would send (all capabilities
 * on), resizes those not yet prepared, and records the results in `into` (reusable across calls, so
 * an unchanged dialog is resized once). An undecodable image becomes `<media-unavailable>` later.
 */
export async function prepareMedia(
  messages: readonly Message[],
  resizer: ImageResizer,
  opts: { maxPixels?: number; into?: PreparedImages; files?: FileRefs } = {},
): Promise<PreparedImages> {
  const into = opts.into ?? new PreparedImages();
  const max = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  const all: AimInfo = { supports_vision: true, supports_audio_input: true, supports_video_input: true, supports_pdf_input: true };
  const jobs: Promise<void>[] = [];
  for (const m of messages) {
    const parts = toMedia(m, all, { files: opts.files });
    for (let k = 1; k < parts.length; k++) {
      const b = parts[k];
      const mm = mediaTagMime(parts[k - 1]);
      if (!(b instanceof Uint8Array) || !mm || !RASTER.has(mm) || into.has(b)) continue;
      into.set(b, b); // claimed, so a duplicate reference is resized once
      jobs.push(
        resizer.resize(b, mm, max).then(
          (r) => into.set(b, r),
          (e) => into.set(b, `image could not be decoded: ${e instanceof Error ? e.message : String(e)}`),
        ),
      );
    }
  }
  await Promise.all(jobs);
  return into;
}
