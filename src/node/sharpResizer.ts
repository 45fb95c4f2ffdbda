// The Node implementation of core's ImageResizer, on `sharp`. Loaded lazily and guarded: where sharp's
// native binary is missing (another platform, a stripped install) callers get null and images pass
// through unchanged (DECISIONS "images sent to the model").

import type { ImageResizer } from '../core/hist';

type SharpFn = (input: Uint8Array) => {
  metadata(): Promise<{ width?: number; height?: number; pages?: number }>;
  resize(w: number, h: number, o: { kernel: string; fit: string }): SharpChain;
};
interface SharpChain {
  jpeg(): SharpChain;
  png(): SharpChain;
  webp(): SharpChain;
  toBuffer(): Promise<Uint8Array>;
}

let loaded: SharpFn | null | undefined;

function loadSharp(): SharpFn | null {
  if (loaded === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require('sharp');
      loaded = (mod.default ?? mod) as SharpFn;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/**
 * A resizer scaling both sides by √(maxPixels / (w·h)), rounded down, with Lanczos, re-encoded in the
 * same format (the reference's `prep_img`); null when sharp cannot be loaded.
 */
export function sharpResizer(): ImageResizer | null {
  const sharp = loadSharp();
  if (!sharp) return null;
  return {
    async resize(bytes, mime, maxPixels) {
      const { width: w, height: h } = await sharp(bytes).metadata();
      if (!w || !h) throw new Error(`not a decodable ${mime} image`);
      if (w * h <= maxPixels) return bytes;
      const s = Math.sqrt(maxPixels / (w * h));
      const chain = sharp(bytes).resize(Math.max(1, Math.floor(w * s)), Math.max(1, Math.floor(h * s)), { kernel: 'lanczos3', fit: 'fill' });
      const fmt = mime === 'image/jpeg' ? chain.jpeg() : mime === 'image/webp' ? chain.webp() : chain.png();
      return new Uint8Array(await fmt.toBuffer());
    },
  };
}
