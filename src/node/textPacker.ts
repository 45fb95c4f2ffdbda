// The search index's text packed with node:zlib (raw deflate) in the desktop's search worker: stored as
// it is, the text of every part was three quarters of the index file, and deflate keeps about 0.4 of it.
// Only long texts are packed: each call leaves the worker's heap a compressor object to collect, and at
// 2,000 dialogs packing every text of 512 characters or more grew the process by 100 MB more than none.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { TextPacker } from '../core';

/** Texts shorter than this many characters are kept as they are: 96% of the parts, 42% of the text. */
const PACK_FROM = 4096;

export const zlibTextPacker: TextPacker = {
  pack: (text) => {
    if (text.length < PACK_FROM) return undefined;
    // Level 3: at level 6 the text is 2% smaller and packing a third slower.
    const packed = deflateRawSync(text, { level: 3 });
    return packed.length < text.length * 0.9 ? packed : undefined;
  },
  unpack: (packed) => inflateRawSync(packed).toString('utf8'),
};
