// The retry loop around one provider attempt. The SDKs' own retries are off (`maxRetries: 0`) so that each
// wait is an event the cell can show; the schedule and the classification are the core's.

import { RATE_LIMIT_RETRIES, classifyError, retryDelayMs } from '../../../core/answer';
import { AnswerError, AnswerEvent } from './provider';

/** Resolves after `ms`, or at once when `signal` fires. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/**
 * Runs `attempt` until it completes, retrying rate limits and overload that came before any content
 * (a retry after content would repeat it). An abort, while streaming or waiting, ends with `aborted`.
 * `who` names the service in messages ("Anthropic"); `secrets` are redacted from them.
 */
export async function* withRetries(who: string, attempt: () => AsyncIterable<AnswerEvent>, signal: AbortSignal, secrets: readonly string[]): AsyncIterable<AnswerEvent> {
  for (let retry = 1; ; retry++) {
    let content = false;
    try {
      for await (const e of attempt()) {
        if (e.type === 'text' || e.type === 'thinking' || e.type === 'tool_use') content = true;
        yield e;
      }
      return;
    } catch (err) {
      if (signal.aborted) {
        yield { type: 'end', reason: 'aborted' };
        return;
      }
      const info = classifyError(err, secrets);
      if (info.kind === 'aborted') throw new AnswerError('other', info.message);
      if (info.kind === 'auth') throw new AnswerError('auth', `${who} rejected the API key${info.status ? ` (${info.status})` : ''}: ${info.message}`, info.status);
      if (info.kind !== 'rate-limit' || content || retry > RATE_LIMIT_RETRIES) {
        const gaveUp = info.kind === 'rate-limit' && !content ? ` (gave up after ${RATE_LIMIT_RETRIES} retries)` : '';
        throw new AnswerError(info.kind, `${info.message}${gaveUp}`, info.status);
      }
      const delayMs = retryDelayMs(retry, info.retryAfterMs);
      yield { type: 'retry', retry, of: RATE_LIMIT_RETRIES, delayMs, message: info.message };
      await sleep(delayMs, signal);
      if (signal.aborted) {
        yield { type: 'end', reason: 'aborted' };
        return;
      }
    }
  }
}
