// Base64, once for all of core: Python's lenient decoder (its error texts become media-unavailable
// reasons) and the fast canonical path storage uses for attachments (Node's Buffer when present).

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;

export function b64encode(b: Uint8Array): string {
  let s = '';
  const CH = 0x8000;
  for (let i = 0; i < b.length; i += CH) s += String.fromCharCode(...b.subarray(i, i + CH));
  return btoa(s);
}

/** A base64 decoding failure, with Python's `binascii.Error` text (it becomes a media-unavailable reason). */
export class Base64Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Base64Error';
  }
}

/**
 * Python `base64.b64decode` (non-strict): characters outside the alphabet are skipped, a complete
 * padding ends the data, and a dangling group raises with the same message as `binascii`.
 */
export function b64decode(s: string): Uint8Array {
  const out = new Uint8Array(Math.floor((s.length * 3) / 4) + 3);
  let n = 0;
  let quad = 0;
  let left = 0;
  let pads = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 61) {
      // '=': a complete pad ends the data; the bytes of the partial group are already out.
      if (quad >= 2 && quad + ++pads >= 4) return out.slice(0, n);
      continue;
    }
    const v = c < 128 ? B64_INDEX[c] : -1;
    if (v < 0) continue;
    pads = 0;
    if (quad === 0) left = v;
    else if (quad === 1) {
      out[n++] = ((left << 2) | (v >> 4)) & 255;
      left = v & 0x0f;
    } else if (quad === 2) {
      out[n++] = ((left << 4) | (v >> 2)) & 255;
      left = v & 0x03;
    } else out[n++] = ((left << 6) | v) & 255;
    quad = (quad + 1) & 3;
  }
  if (quad === 1) {
    throw new Base64Error(
      `Invalid base64-encoded string: number of data characters (${Math.floor(n / 3) * 4 + 1}) cannot be 1 more than a multiple of 4`,
    );
  }
  if (quad !== 0) throw new Base64Error('Incorrect padding');
  return out.slice(0, n);
}

const NON_B64 = /[^A-Za-z0-9+/=]/;

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
