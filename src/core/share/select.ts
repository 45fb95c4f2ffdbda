// Which messages a shared dialog keeps, and the dialog a reader gets: Solveit's Publish leaves out pinned
// and skipped messages; the user may keep them, leave out any other message, or drop code outputs. Images
// over the size limit are left out of both the page and the .ipynb (and said so in the preview).

import { jsonClone, isJsonObject } from '../base/json';
import { Dialog, Message, Output, truthy } from '../model/dialog';
import { base64Length } from '../model/outputs';

export interface ShareOptions {
  /** Keep code outputs (default true). */
  keepOutputs?: boolean;
  /** Keep pinned messages (default false, as Solveit's Publish). */
  keepPinned?: boolean;
  /** Keep skipped (hidden from the AI) messages (default false). */
  keepSkipped?: boolean;
  /** Ids of messages the user chose to leave out. */
  leaveOut?: readonly string[];
  /** Images bigger than this many bytes are left out (default 1 MB). */
  maxImageBytes?: number;
}

export const SHARE_MAX_IMAGE_BYTES = 1024 * 1024;
/** The most a share publishes (page and dialog together): more is refused whole, before anything is sent. */
export const SHARE_MAX_BYTES = 10 * 1024 * 1024;

export type LeftOutWhy = 'pinned' | 'skipped' | 'chosen';

export interface LeftOut {
  id: string;
  /** The message's position in the dialog (0-based). */
  index: number;
  why: LeftOutWhy;
}

export interface ImageLeftOut {
  id: string;
  index: number;
  bytes: number;
}

export interface SharedDialog {
  /** What the shared .ipynb holds: the kept messages, copied, trimmed as chosen. */
  dialog: Dialog;
  /** Positions in the original dialog of `dialog.messages`, in order. */
  indexes: number[];
  left: LeftOut[];
  images: ImageLeftOut[];
  /** Code outputs dropped because the user chose not to keep them. */
  outputsDropped: number;
}

/** Why message `m` is left out, or null when it is kept. */
export function leftOutWhy(m: Message, opts: ShareOptions): LeftOutWhy | null {
  if (opts.leaveOut?.includes(m.id)) return 'chosen';
  if (truthy(m.pinned) && !opts.keepPinned) return 'pinned';
  if (truthy(m.skipped) && !opts.keepSkipped) return 'skipped';
  return null;
}

/** A readable size: `20.1 MB`, `830 KB`. */
export function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`;
}

/** The note that stands where an image was left out. */
export function imageLeftOutText(bytes: number): string {
  return `*(image left out: ${sizeText(bytes)})*`;
}

function trimOutputs(outs: Output[], max: number, onBig: (bytes: number) => void): Output[] {
  const kept: Output[] = [];
  for (const o of outs) {
    if (!isJsonObject(o.data)) {
      kept.push(o);
      continue;
    }
    const data = { ...o.data };
    let big = 0;
    for (const mime of Object.keys(data)) {
      if (!mime.startsWith('image/') || mime === 'image/svg+xml') continue;
      const n = base64Length(data[mime]);
      if (n > max) {
        big = Math.max(big, n);
        delete data[mime];
      }
    }
    if (!big) kept.push(o);
    else {
      onBig(big);
      if (!data['text/plain']) data['text/plain'] = imageLeftOutText(big);
      kept.push({ ...o, data });
    }
  }
  return kept;
}

/** The dialog a reader gets, and what was left out of it. */
export function shareDialog(d: Dialog, opts: ShareOptions = {}): SharedDialog {
  const max = opts.maxImageBytes ?? SHARE_MAX_IMAGE_BYTES;
  const keepOutputs = opts.keepOutputs ?? true;
  const left: LeftOut[] = [];
  const images: ImageLeftOut[] = [];
  const kept: Message[] = [];
  const indexes: number[] = [];
  let outputsDropped = 0;
  d.messages.forEach((m, index) => {
    const why = leftOutWhy(m, opts);
    if (why) {
      left.push({ id: m.id, index, why });
      return;
    }
    const c = m.clone();
    if (c.msgType === 'code' && c.outputs.length) {
      if (!keepOutputs) {
        outputsDropped++;
        c.output = [];
      } else c.output = trimOutputs(c.outputs, max, (bytes) => images.push({ id: m.id, index, bytes }));
    }
    for (const a of [...c.attachments]) {
      if (a.data.length <= max) continue;
      images.push({ id: m.id, index, bytes: a.data.length });
      c.attachments = c.attachments.filter((x) => x !== a);
      c.content = c.content.replace(new RegExp(`!\\[[^\\]]*\\]\\(attachment:${a.id}\\)`, 'g'), imageLeftOutText(a.data.length));
    }
    kept.push(c);
    indexes.push(index);
  });
  return { dialog: new Dialog(kept, d.name, jsonClone(d.meta)), indexes, left, images, outputsDropped };
}
