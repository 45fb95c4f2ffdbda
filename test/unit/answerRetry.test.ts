// The retry schedule and the error classifier, on the SDKs' own error objects.
import { strict as assert } from 'node:assert';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { MAX_RETRY_DELAY_MS, RATE_LIMIT_RETRIES, classifyError, redactSecrets, retryDelayMs } from '../../src/core/answer';

const anthropicError = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
  Anthropic.APIError.generate(status, { type: 'error', error: { type, message } }, undefined, new Headers(headers));
const openaiError = (status: number, type: string, code: string | null, message: string, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error: { message, type, param: null, code } }, undefined, new Headers(headers));

describe('answer: retry schedule (seed 004)', () => {
  it('8 retries, doubling from 1 s, never more than 60 s apart', () => {
    assert.equal(RATE_LIMIT_RETRIES, 8);
    const waits = Array.from({ length: RATE_LIMIT_RETRIES }, (_, k) => retryDelayMs(k + 1));
    assert.deepEqual(waits, [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    assert.equal(retryDelayMs(50), MAX_RETRY_DELAY_MS);
  });
  it("a server's retry-after wins when it is within the cap", () => {
    assert.equal(retryDelayMs(1, 20_000), 20_000);
    assert.equal(retryDelayMs(3, 250), 250);
    assert.equal(retryDelayMs(2, 3_600_000), 2_000, 'an hour is ignored for the schedule');
    assert.equal(retryDelayMs(2, 0), 2_000);
  });
});

describe('answer: classifyError', () => {
  it('Anthropic 429 and 529, with retry-after', () => {
    const r = classifyError(anthropicError(429, 'rate_limit_error', 'slow down', { 'retry-after': '7' }));
    assert.deepEqual(r, { kind: 'rate-limit', status: 429, message: 'slow down', retryAfterMs: 7_000 });
    assert.equal(classifyError(anthropicError(529, 'overloaded_error', 'Overloaded')).kind, 'rate-limit');
  });
  it('an overload mid-stream (an SSE error event: no status) is retryable too', () => {
    const e = new Anthropic.APIError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, new Headers());
    assert.deepEqual(classifyError(e), { kind: 'rate-limit', message: 'Overloaded' });
  });
  it('OpenAI 429 (retry-after-ms), 503 overloaded; a quota 429 is not a window to wait for', () => {
    const r = classifyError(openaiError(429, 'requests', 'rate_limit_exceeded', 'Rate limit reached', { 'retry-after-ms': '1500' }));
    assert.deepEqual(r, { kind: 'rate-limit', status: 429, message: 'Rate limit reached', retryAfterMs: 1_500 });
    assert.equal(classifyError(openaiError(503, 'server_error', null, 'The engine is currently overloaded, please try again later.')).kind, 'rate-limit');
    assert.equal(classifyError(openaiError(429, 'insufficient_quota', 'insufficient_quota', 'You exceeded your current quota')).kind, 'other');
  });
  it('rejected keys are auth errors, with the key redacted', () => {
    const a = classifyError(anthropicError(401, 'authentication_error', 'invalid x-api-key'));
    assert.deepEqual(a, { kind: 'auth', status: 401, message: 'invalid x-api-key' });
    const o = classifyError(openaiError(401, 'invalid_request_error', 'invalid_api_key', 'Incorrect API key provided: sk-proj-abc***wxyz. You can find…'));
    assert.equal(o.kind, 'auth');
    assert.equal(o.message, 'Incorrect API key provided: [redacted]. You can find…');
    assert.equal(classifyError(anthropicError(403, 'permission_error', 'no permission')).kind, 'auth');
  });
  it('anything else is reported as is; aborts are aborts', () => {
    assert.deepEqual(classifyError(anthropicError(400, 'invalid_request_error', 'prompt is too long')), { kind: 'other', status: 400, message: 'prompt is too long' });
    assert.equal(classifyError(anthropicError(500, 'api_error', 'Internal server error')).kind, 'other');
    assert.equal(classifyError(new Anthropic.APIUserAbortError()).kind, 'aborted');
    assert.equal(classifyError(new OpenAI.APIUserAbortError()).kind, 'aborted');
    assert.deepEqual(classifyError(new Error('fetch failed')), { kind: 'other', message: 'fetch failed' });
    assert.deepEqual(classifyError('boom'), { kind: 'other', message: 'boom' });
  });
  it('a connection error says what failed underneath', () => {
    const e = new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }) });
    assert.deepEqual(classifyError(e), { kind: 'other', message: 'Connection error. (fetch failed: connect ECONNREFUSED 127.0.0.1:9)' });
  });
  it('secrets passed in never survive in a message', () => {
    assert.equal(redactSecrets('bad key my-secret-123 here', ['my-secret-123']), 'bad key [redacted] here');
    assert.equal(classifyError(new Error('echo my-secret-123'), ['my-secret-123']).message, 'echo [redacted]');
    assert.equal(redactSecrets('a key-value pair'), 'a key-value pair');
  });
});
