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

const CANONICAL_B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The base64 text each decoded buffer came from, when it was canonical: writing reuses it, not re-encoding MBs. */
const encodedOf = new WeakMap<Uint8Array, string>();

/** Whether `s` is exactly what standard base64 (padded, no line breaks) would write for its bytes. */
function isCanonicalB64(s: string): boolean {
  if (s.length % 4 !== 0 || !CANONICAL_B64.test(s)) return false;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  if (pad === 0) return true;
  // The bits after the last byte must be zero, or the same bytes would be written differently.
  const last = B64.indexOf(s[s.length - pad - 1]);
  return (last & (pad === 2 ? 0x0f : 0x03)) === 0;
}

/** Decodes attachment base64 with Python's leniency; undefined when Python would fail too. */
export function decodeBase64(s: string): Uint8Array | undefined {
  if (isCanonicalB64(s)) {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let k = 0; k < bin.length; k++) out[k] = bin.charCodeAt(k);
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
    s = b64encode(data);
    encodedOf.set(data, s);
  }
  return s;
}
