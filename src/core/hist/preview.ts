// What the model would receive for one prompt, for display: `dlg2hist` (or `dlg2chat`) up to the
// prompt, as turns of typed parts with token estimates. Skipped messages never reach the model; they
// are listed (as `skipped` parts) in the user turn they would have joined, so the view can strike them.

import { Dialog, Message, truthy } from '../model/dialog';
import { HistPart, MediaOptions, detectMime, fileTag, isMediaUrl, mediaTagMime } from './media';
import { imageSize } from '../base/imageSize';
import { b64decode } from '../base/base64';
import { humanize } from '../model/preview';
import { HistTurn, dlg2hist } from './hist';
import { Msg } from './parts';
import { dlg2chat } from './chat';
import { tokenEstimate } from './render';
import { firstLine } from '../outline/tree';

export type PreviewMode = 'hist' | 'chat';
/**
 * `file`: a `#ai` text file, sent as its text, shown by its path and size; `skipped`: a message hidden
 * from the model; `cut`: notes that the next part was cut to fit (see core/answer); `craft`: labels the
 * turns of a CRAFT file (craft.ts), or says it could not be read.
 */
export type PreviewPartKind = 'text' | 'media' | 'file' | 'thinking' | 'tool_use' | 'tool_result' | 'skipped' | 'cut' | 'craft';

export interface PreviewPart {
  kind: PreviewPartKind;
  text: string;
  /** A media or file part's own estimate (images by their pixels, files by the text sent), else counted from `text`. */
  tokens?: number;
}

export interface PreviewTurn {
  role: 'user' | 'assistant' | 'tool';
  parts: PreviewPart[];
  tokens: number;
}

export interface HistPreview {
  promptId: string;
  mode: PreviewMode;
  turns: PreviewTurn[];
  total: number;
}

/** A flat guess for media whose size is unknown (a URL, audio, a PDF): about a 768² px image. */
export const MEDIA_TOKENS = 800;
/** Pixels per token of an image, the published rule of thumb of the major providers (w·h / 750). */
const PIXELS_PER_TOKEN = 750;

function partTokens(p: PreviewPart): number {
  if (p.kind === 'skipped' || p.kind === 'cut' || p.kind === 'craft') return 0;
  return p.tokens ?? (p.kind === 'media' ? MEDIA_TOKENS : tokenEstimate(p.text));
}

/** Tokens of media bytes as sent: an image by its pixels, anything else the flat guess. */
export function mediaTokens(bytes: Uint8Array): number {
  const size = imageSize(bytes);
  return size ? Math.ceil((size.width * size.height) / PIXELS_PER_TOKEN) : MEDIA_TOKENS;
}

/** A media part for bytes as sent: described by `mediaText`, counted by its pixels when it is an image. */
function mediaPart(mime: string | null | undefined, bytes: Uint8Array): PreviewPart {
  return { kind: 'media', text: mediaText(mime, bytes), tokens: mediaTokens(bytes) };
}

function turn(role: PreviewTurn['role'], parts: PreviewPart[]): PreviewTurn {
  return { role, parts, tokens: parts.reduce((n, p) => n + partTokens(p), 0) };
}

/** What a media part shows: its mime, pixel size (images) and byte size, as sent after scaling. */
export function mediaText(mime: string | null | undefined, bytes: Uint8Array): string {
  const size = imageSize(bytes);
  return [mime || detectMime(bytes) || 'media', size && `${size.width}×${size.height} px`, `${humanize(bytes.length)}B`].filter(Boolean).join(' · ');
}

/** A text part as shown: a `#ai` text file by its path, size and tokens, other text as it is. */
function textPart(text: string): PreviewPart {
  const f = fileTag(text);
  if (!f) return { kind: 'text', text };
  const tokens = tokenEstimate(text);
  return { kind: 'file', text: `${f.path} · text · ${humanize(new TextEncoder().encode(f.text).length)}B · ~${humanize(tokens)} tok`, tokens };
}

function urlText(mime: string | null | undefined, url: string): string {
  return `${mime || 'media'} · ${url}`;
}

/** A `dlg2hist` user turn as parts; bytes take their mime from the `<media>` tag before them. */
function histParts(parts: readonly HistPart[]): PreviewPart[] {
  return parts.map((p, k) => {
    if (typeof p === 'string') return textPart(p);
    if (p instanceof Uint8Array) return mediaPart(mediaTagMime(parts[k - 1]), p);
    return { kind: 'media', text: isMediaUrl(p) ? urlText(p.mime, p.url) : String(p) };
  });
}

/** A chat media part: a data URL is described (mime, size), a web URL shown as the URL it is. */
function chatMediaPart(text: string, mime?: string): PreviewPart {
  const data = /^data:([^;,]*)(?:;[^,]*)?,(.*)$/s.exec(text);
  if (!data) return { kind: 'media', text: urlText(mime, text) };
  try {
    return mediaPart(mime || data[1], b64decode(data[2]));
  } catch {
    return { kind: 'media', text: mime || data[1] || 'media' };
  }
}

/** Messages left out of the history (skipped, or session-bookkeeping raws), grouped by the user turn they fall in. */
export function skippedGroups(msgs: readonly Message[]): Message[][] {
  const res: Message[][] = [[]];
  for (const m of msgs) {
    if (truthy(m.skipped) || (m.msgType === 'raw' && truthy(m.meta.rec_kind))) res[res.length - 1].push(m);
    else if (m.msgType === 'prompt') res.push([]);
  }
  return res;
}

function skippedParts(msgs: readonly Message[] | undefined): PreviewPart[] {
  return (msgs ?? []).map((m) => ({ kind: 'skipped', text: `${m.msgType}: ${firstLine(m.content) || '(empty)'}` }));
}

/** The prompt whose history is previewed for the message at `index`: that prompt, else the nearest one above, else the next; -1 when none. */
export function promptAt(d: Dialog, index: number): number {
  const msgs = d.messages;
  for (let k = Math.min(index, msgs.length - 1); k >= 0; k--) if (msgs[k].msgType === 'prompt') return k;
  for (let k = Math.max(0, index); k < msgs.length; k++) if (msgs[k].msgType === 'prompt') return k;
  return -1;
}

/**
 * The history the model gets when `promptId` is sent (throws DialogError when there is no prompt);
 * `media.images` holds images already scaled down by `prepareMedia`, `media.files` holds the `#ai` file refs the host read.
 */
export function histPreview(d: Dialog, promptId: string, mode: PreviewMode = 'hist', media: Pick<MediaOptions, 'images' | 'files'> = {}): HistPreview {
  const { images, files } = media;
  const upto = d.indexOf(promptId);
  const skipped = skippedGroups(d.messages.slice(0, upto + 1));
  const turns =
    mode === 'hist' ? histTurns(dlg2hist(d, { supports_vision: true }, { upto: promptId, images, files }), skipped) : chatTurns(dlg2chat(d, null, { upto: promptId, images, files }), skipped);
  return { promptId, mode, turns, total: turns.reduce((n, t) => n + t.tokens, 0) };
}

/** `dlg2hist` turns for display; `skipped` as `skippedGroups` gives them, one group per user turn. */
export function histTurns(hist: readonly HistTurn[], skipped: readonly Message[][] = []): PreviewTurn[] {
  return hist.map((h, k) => (k % 2 ? turn('assistant', [{ kind: 'text', text: h as string }]) : turn('user', [...histParts(h as HistPart[]), ...skippedParts(skipped[k / 2])])));
}

/** Canonical chat messages (`dlg2chat`, or a request's) for display; `skipped` as for `histTurns`. */
export function chatTurns(chat: readonly Msg[], skipped: readonly Message[][] = []): PreviewTurn[] {
  const turns: PreviewTurn[] = [];
  let user = 0;
  for (const m of chat) {
    const parts: PreviewPart[] = m.content.map((p) => {
      switch (p.type) {
        case 'text':
          return m.role === 'user' ? textPart(p.text) : { kind: 'text', text: p.text };
        case 'refusal':
        case 'server_tool_result':
          return { kind: 'text', text: p.text };
        case 'thinking':
          return { kind: 'thinking', text: p.text };
        case 'tool_use':
          return { kind: 'tool_use', text: `${p.name}(${JSON.stringify(p.arguments)})` };
        case 'tool_result':
          return { kind: 'tool_result', text: p.text };
        default:
          return chatMediaPart(p.text, p.mime);
      }
    });
    if (m.role === 'user') parts.push(...skippedParts(skipped[user++]));
    turns.push(turn(m.role, parts));
  }
  return turns;
}
