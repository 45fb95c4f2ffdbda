// The browser's implementation of core's ImageResizer: createImageBitmap decodes, an OffscreenCanvas
// scales (both sides by √(maxPixels / (w·h)), rounded down, as src/node/sharpResizer.ts does) and
// re-encodes in the same format. Null where the worker has no OffscreenCanvas: images pass unchanged.

import type { ImageResizer } from '../core/hist';

export function canvasResizer(): ImageResizer | null {
  if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') return null;
  return {
    async resize(bytes, mime, maxPixels) {
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(new Blob([bytes as BlobPart], { type: mime }));
      } catch {
        throw new Error(`not a decodable ${mime} image`);
      }
      try {
        const { width: w, height: h } = bitmap;
        if (!w || !h) throw new Error(`not a decodable ${mime} image`);
        if (w * h <= maxPixels) return bytes;
        const s = Math.sqrt(maxPixels / (w * h));
        const canvas = new OffscreenCanvas(Math.max(1, Math.floor(w * s)), Math.max(1, Math.floor(h * s)));
        const g = canvas.getContext('2d');
        if (!g) throw new Error('no 2d context in this browser');
        g.imageSmoothingQuality = 'high';
        g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        const type = mime === 'image/jpeg' || mime === 'image/webp' ? mime : 'image/png';
        return new Uint8Array(await (await canvas.convertToBlob({ type })).arrayBuffer());
      } finally {
        bitmap.close();
      }
    },
  };
}
