// When to try an answer again (seed 004: `max_rate_limit_retries` 8, waiting exponentially longer, up to
// 60 s), and what a provider failure means for the user. Only rate limits and overload are retried:
// seed 004's `max_llm_recall` is 0, so any other failure is reported at once.

/** Retries after the first attempt (seed 004's `max_rate_limit_retries`). */
export const RATE_LIMIT_RETRIES = 8;
export const FIRST_RETRY_DELAY_MS = 1_000;
export const MAX_RETRY_DELAY_MS = 60_000;

/**
 * The wait before retry `retry` (1-based): 1 s, 2 s, 4 s … 60 s at most. A server's own `retry-after`
 * wins when it gives one within that cap: it knows when the window reopens.
 */
export function retryDelayMs(retry: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs > 0 && retryAfterMs <= MAX_RETRY_DELAY_MS) return retryAfterMs;
  return Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** (retry - 1));
}

/** `rate-limit` covers 429, 529 and overload; `auth` a rejected or unauthorised key. */
export type ErrorKind = 'rate-limit' | 'auth' | 'aborted' | 'other';

export interface ErrorInfo {
  kind: ErrorKind;
  /** HTTP status, when the failure was an HTTP response (mid-stream errors have none). */
  status?: number;
  /** The provider's own message, with anything key-like redacted. */
  message: string;
  /** The server's `retry-after-ms` / `retry-after` (seconds), when it sent one. */
  retryAfterMs?: number;
}

// Anthropic's error types, OpenAI's 429 codes/types; `insufficient_quota` (also a 429) is billing, not a window.
const RATE_TYPES = new Set(['rate_limit_error', 'overloaded_error', 'rate_limit_exceeded', 'requests', 'tokens']);

type Bag = Record<string, unknown>;
const bag = (v: unknown): Bag | undefined => (typeof v === 'object' && v !== null ? (v as Bag) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** A header of a fetch `Headers` (or a plain record), case-insensitively. */
function header(headers: unknown, name: string): string | undefined {
  const h = bag(headers);
  if (!h) return undefined;
  if (typeof h.get === 'function') return str((h.get as (k: string) => unknown).call(h, name));
  const k = Object.keys(h).find((x) => x.toLowerCase() === name);
  return k === undefined ? undefined : str(h[k]);
}

function retryAfter(headers: unknown): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const s = Number(header(headers, 'retry-after'));
  return Number.isFinite(s) && s > 0 ? s * 1000 : undefined;
}

/** Secrets in provider messages (OpenAI echoes a masked key on 401) and any key passed in, replaced. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let t = text;
  for (const s of secrets) if (s.length >= 4) t = t.split(s).join('[redacted]');
  return t.replace(/\bsk-[\w*.-]{4,}[\w*]/g, '[redacted]');
}

/** `Connection error.` says little: the causes behind it (`fetch failed`, `connect ECONNREFUSED …`) do. */
function withCauses(e: Error): string {
  const causes: string[] = [];
  for (let c = e.cause, k = 0; c instanceof Error && k < 3; c = c.cause, k++) if (c.message && !causes.includes(c.message)) causes.push(c.message);
  return causes.length ? `${e.message} (${causes.join(': ')})` : e.message;
}

/**
 * What a thrown provider error means. Duck-typed on the SDKs' `APIError` (`status`, `headers`, `error`
 * = the JSON body, whose `error.type` / `type` names overload mid-stream where there is no status) and
 * on `AbortError`s, so this stays free of SDK imports.
 */
export function classifyError(e: unknown, secrets: readonly string[] = []): ErrorInfo {
  const o = bag(e) ?? {};
  const body = bag(o.error);
  const inner = bag(body?.error) ?? body;
  const status = typeof o.status === 'number' ? o.status : undefined;
  const type = str(inner?.type) ?? str(inner?.code) ?? str(o.type);
  const raw = str(inner?.message) ?? str(body?.message) ?? (e instanceof Error ? withCauses(e) : String(e));
  const info = (kind: ErrorKind): ErrorInfo => {
    const res: ErrorInfo = { kind, message: redactSecrets(raw, secrets) };
    if (status !== undefined) res.status = status;
    const after = retryAfter(o.headers);
    if (after !== undefined) res.retryAfterMs = after;
    return res;
  };
  // OpenAI's APIUserAbortError is named 'Error': its class name and message tell.
  if (e instanceof Error && (/Abort/.test(`${e.name} ${e.constructor.name}`) || (status === undefined && /^Request was aborted/.test(e.message)))) {
    return info('aborted');
  }
  if (type === 'insufficient_quota') return info('other');
  const overloaded = (status === undefined || status >= 500) && /overloaded/i.test(raw); // OpenAI: 503 "engine … overloaded"
  if (status === 429 || status === 529 || (type !== undefined && RATE_TYPES.has(type)) || overloaded) {
    return info('rate-limit');
  }
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'invalid_api_key') return info('auth');
  return info('other');
}
