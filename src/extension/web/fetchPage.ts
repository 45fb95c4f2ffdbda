// One web request for read_url, on either extension host's `fetch`: no cookies or credentials, a time
// limit, and the body read only up to the size limit (a longer page is read up to it, not refused).
// gzip and brotli are the fetch's own.

import { PrivateAddressError, type WebResponse } from '../../core/tools';

export interface FetchPageOptions {
  signal?: AbortSignal;
  /** `dialogNotebook.web.timeout`, in ms. */
  timeoutMs: number;
  /** `dialogNotebook.web.maxPageBytes`. */
  maxBytes: number;
  /** `manual`: a redirect is returned (Node); `follow`: the browser follows it, and reports where it ended. */
  redirect: 'manual' | 'follow';
  /** Request headers (the User-Agent, where the host may set it). */
  headers: Record<string, string>;
  /** `dialogNotebook.web.allowPrivateAddresses`: the desktop refuses a private address again as it connects. */
  allowPrivate: boolean;
  /** The fetch to use (the desktop's, whose connections use the address it checked); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** The refusal of a private address somewhere in a fetch error's causes (the fetch wraps it in a TypeError). */
function privateCause(e: unknown): PrivateAddressError | undefined {
  for (let c = e, depth = 0; c instanceof Error && depth < 5; c = c.cause, depth++) if (c instanceof PrivateAddressError) return c;
  return undefined;
}

/** The body up to `max` bytes; `truncated` when there was more. */
async function readCapped(res: Response, max: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(await res.arrayBuffer()), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= max) {
      truncated = size > max;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
    if (at >= bytes.length) break;
  }
  return { bytes, truncated };
}

/** Fetches `url` once (see FetchPageOptions); throws on a network failure or the time limit. */
export async function fetchPage(url: string, opts: FetchPageOptions): Promise<WebResponse> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    const res = await (opts.fetch ?? fetch)(url, { redirect: opts.redirect, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', headers: opts.headers, signal });
    const location = res.status >= 300 && res.status < 400 ? (res.headers.get('location') ?? undefined) : undefined;
    const body = location !== undefined ? { bytes: new Uint8Array(), truncated: false } : await readCapped(res, opts.maxBytes);
    return { url: res.url || url, status: res.status, statusText: res.statusText, location, contentType: res.headers.get('content-type') ?? '', ...body };
  } catch (e) {
    const refused = privateCause(e);
    if (refused) throw refused;
    if (timeout.aborted && !opts.signal?.aborted) throw new Error(`no answer within the time limit of ${opts.timeoutMs / 1000} s (setting dialogNotebook.web.timeout)`, { cause: e });
    throw e;
  }
}
