// The pixel size of an image from its header (PNG, GIF, JPEG, WebP), so the history preview can show
// what an image costs after scaling without decoding it. Null for anything else or a truncated header.

export interface ImageSize {
  width: number;
  height: number;
}

/** Whether the bytes at `off` are the code units of `sig` (a file-signature check). */
export function bytesAt(b: Uint8Array, off: number, sig: string): boolean {
  if (b.length < off + sig.length) return false;
  for (let k = 0; k < sig.length; k++) if (b[off + k] !== sig.charCodeAt(k)) return false;
  return true;
}

const be16 = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const le16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const le24 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16);
const be32 = (b: Uint8Array, o: number) => ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);

function jpegSize(b: Uint8Array): ImageSize | null {
  let o = 2;
  while (o + 9 < b.length) {
    if (b[o] !== 0xff) return null;
    const marker = b[o + 1];
    if (marker === 0xff) {
      o++; // fill byte
      continue;
    }
    // SOFn frames (not DHT c4, JPG c8, DAC cc) hold the size
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: be16(b, o + 5), width: be16(b, o + 7) };
    }
    o += 2 + be16(b, o + 2);
  }
  return null;
}

export function imageSize(b: Uint8Array): ImageSize | null {
  if (bytesAt(b, 0, '\x89PNG\r\n\x1a\n') && bytesAt(b, 12, 'IHDR') && b.length >= 24) return { width: be32(b, 16), height: be32(b, 20) };
  if ((bytesAt(b, 0, 'GIF87a') || bytesAt(b, 0, 'GIF89a')) && b.length >= 10) return { width: le16(b, 6), height: le16(b, 8) };
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  if (bytesAt(b, 0, 'RIFF') && bytesAt(b, 8, 'WEBP') && b.length >= 30) {
    if (bytesAt(b, 12, 'VP8X')) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
    if (bytesAt(b, 12, 'VP8 ')) return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
    if (bytesAt(b, 12, 'VP8L')) {
      const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
  }
  return null;
}
