// How shared/golden encodes what is not JSON: bytes as their hash and length, media URLs as
// `{media_url, mime}`, data-URL chat parts as hashes, and the dialog folder as `<DLG_DIR>`.
import { createHash } from 'node:crypto';
import { Json, JsonObject } from '../core/base';
import { HistTurn } from '../core/hist';
import { HistPart } from '../core/hist';
import { Msg } from '../core/hist';
import { b64decode } from '../core/base';

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export const bytesRecord = (b: Uint8Array): JsonObject => ({ bytes_sha256: sha256Hex(b), len: b.length });

const dlgDir = (s: string) => s.replace(/&lt;DLG_DIR&gt;/g, '<DLG_DIR>');

export function histRecord(h: HistTurn[]): Json {
  const part = (p: HistPart): Json =>
    p instanceof Uint8Array ? bytesRecord(p) : typeof p === 'string' ? dlgDir(p) : { media_url: p.url, mime: p.mime ?? null };
  return h.map((t) => (typeof t === 'string' ? t : t.map(part)));
}

export function chatRecord(c: Msg[]): Json {
  return c.map((m) => ({
    role: m.role,
    parts: m.content.map((p): Json => {
      if (p.type.startsWith('input_') && 'text' in p && p.text.startsWith('data:')) {
        const [head, b64] = p.text.split(',', 2);
        const r: JsonObject = { type: p.type, text_sha256: sha256Hex(p.text), text_len: p.text.length, data_url_header: head, data: bytesRecord(b64decode(b64)) };
        if ('mime' in p && p.mime !== undefined) r.mime = p.mime as string;
        return r;
      }
      if (p.type.startsWith('input_') && 'text' in p) {
        return { type: p.type, text_sha256: sha256Hex(p.text), text_len: p.text.length, text: p.text, mime: ((p as { mime?: string }).mime ?? null) as Json };
      }
      const r = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== null)) as JsonObject;
      if (typeof r.text === 'string') r.text = dlgDir(r.text);
      return r;
    }),
  }));
}
