// Text helpers for storage: Solveit's lists of lines and attachment base64, both on the hot path.

import { b64decode, b64encode } from './hashes';
import { pySplitlines } from './pyText';

const RARE_BREAK = /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** Python `splitlines(keepends=True)`; `''` gives `[]` (how Solveit writes sources and text mimes). */
export function splitLines(s: string): string[] {
  if (s === '') return [];
  if (RARE_BREAK.test(s)) return pySplitlines(s, true);
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const k = s.indexOf('\n', start);
    if (k < 0) break;
    out.push(s.slice(start, k + 1));
    start = k + 1;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/** Joins a list of strings; anything else is returned unchanged. */
export function joinLines<T>(v: T): T | string {
  if (!Array.isArray(v)) return v;
  for (const x of v) if (typeof x !== 'string') return v;
  return v.join('');
}

const NON_B64 = /[^A-Za-z0-9+/=]/;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The base64 text each decoded buffer came from, when it was canonical: writing reuses it, not re-encoding MBs. */
const encodedOf = new WeakMap<Uint8Array, string>();

/** Node's Buffer when present: its base64 codec is several times faster than atob plus a copy loop. */
interface BufferLike {
  from(s: string, enc: 'base64'): Uint8Array;
  from(b: Uint8Array): { toString(enc: 'base64'): string };
}
const NodeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;

/** Whether `s` is exactly what standard base64 (padded, no line breaks) would write for its bytes. */
function isCanonicalB64(s: string): boolean {
  const n = s.length;
  if (n % 4 !== 0 || NON_B64.test(s)) return false;
  const eq = s.indexOf('=');
  if (eq < 0) return true;
  const pad = n - eq;
  if (pad > 2 || (pad === 2 && s[n - 1] !== '=')) return false;
  // The bits after the last byte must be zero, or the same bytes would be written differently.
  return (B64.indexOf(s[eq - 1]) & (pad === 2 ? 0x0f : 0x03)) === 0;
}

function decodeCanonical(s: string): Uint8Array {
  if (NodeBuffer) return new Uint8Array(NodeBuffer.from(s, 'base64'));
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let k = 0; k < bin.length; k++) out[k] = bin.charCodeAt(k);
  return out;
}

/** Decodes attachment base64 with Python's leniency; undefined when Python would fail too. */
export function decodeBase64(s: string): Uint8Array | undefined {
  if (isCanonicalB64(s)) {
    const out = decodeCanonical(s);
    encodedOf.set(out, s);
    return out;
  }
  try {
    return b64decode(s);
  } catch {
    return undefined;
  }
}

/** Standard base64 of `data`, reusing the text it was decoded from. */
export function encodeBase64(data: Uint8Array): string {
  let s = encodedOf.get(data);
  if (s === undefined || (s.length / 4) * 3 - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0) !== data.length) {
    s = NodeBuffer ? NodeBuffer.from(data).toString('base64') : b64encode(data);
    encodedOf.set(data, s);
  }
  return s;
}
