// A local stand-in for an OpenAI-compatible streaming Chat Completions endpoint (`POST /chat/completions`,
// SSE of `chat.completion.chunk`s, a final usage chunk when `stream_options.include_usage` asks for it,
// then `data: [DONE]`), with OpenAI's real error bodies, scripted per request.

import { ServerResponse } from 'node:http';
import { MockServer, RecordedRequest, SseWriter, sendJson, startMock } from './mockHttp';

export interface OpenAIStream {
  /** Content deltas, in order. */
  text: string[];
  /** `reasoning_content` deltas before the content (DeepSeek, vLLM). */
  reasoning?: string[];
  /** Tool calls after the content, each's arguments streamed in two fragments. */
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  /** Pause before each delta, ms. */
  delayMs?: number;
  usage?: { prompt?: number; completion?: number; cached?: number; reasoning?: number; cost?: number };
  finishReason?: string;
  /** Leave the response open after the deltas until the client goes (a stop test). */
  holdOpen?: boolean;
}

export interface OpenAIError {
  status: number;
  message?: string;
  type?: string;
  code?: string | null;
  headers?: Record<string, string>;
}

export type OpenAIScript = OpenAIStream | OpenAIError;

const ERRORS: Record<number, [string, string, string | null]> = {
  400: ['invalid_request_error', "Invalid value for 'messages'.", null],
  401: ['invalid_request_error', 'Incorrect API key provided: sk-wron*******-key. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_api_key'],
  404: ['invalid_request_error', 'The model `gpt-mock` does not exist or you do not have access to it.', 'model_not_found'],
  429: ['requests', 'Rate limit reached for gpt-mock in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.', 'rate_limit_exceeded'],
  500: ['server_error', 'The server had an error while processing your request. Sorry about that!', null],
  503: ['server_error', 'The engine is currently overloaded, please try again later.', null],
};

function sendError(res: ServerResponse, e: OpenAIError): void {
  const [type, message, code] = ERRORS[e.status] ?? ['server_error', 'Error', null];
  const headers: Record<string, string> = { 'x-request-id': 'req_mock', ...(e.status === 429 ? { 'retry-after': '1' } : {}), ...e.headers };
  sendJson(res, e.status, { error: { message: e.message ?? message, type: e.type ?? type, param: null, code: e.code === undefined ? code : e.code } }, headers);
}

async function stream(s: OpenAIStream, req: RecordedRequest, res: ServerResponse): Promise<void> {
  const w = new SseWriter(res);
  const withUsage = req.body?.stream_options?.include_usage === true;
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1_700_000_000, model: req.body?.model ?? 'gpt-mock', system_fingerprint: 'fp_mock' };
  const chunk = (delta: object, finish_reason: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }], ...(withUsage ? { usage: null } : {}) });
  w.send(chunk({ role: 'assistant', content: '', refusal: null }));
  for (const r of s.reasoning ?? []) {
    await w.pause(s.delayMs ?? 0);
    w.send(chunk({ reasoning_content: r }));
  }
  for (const content of s.text) {
    await w.pause(s.delayMs ?? 0);
    w.send(chunk({ content }));
  }
  for (const [index, c] of (s.toolCalls ?? []).entries()) {
    const json = JSON.stringify(c.arguments);
    const half = Math.floor(json.length / 2);
    w.send(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: json.slice(0, half) } }] }));
    w.send(chunk({ tool_calls: [{ index, function: { arguments: json.slice(half) } }] }));
  }
  if (s.holdOpen) return w.end(true);
  w.send(chunk({}, s.finishReason ?? (s.toolCalls?.length ? 'tool_calls' : 'stop')));
  if (withUsage) {
    const u = s.usage ?? {};
    const prompt = u.prompt ?? 10;
    const completion = u.completion ?? s.text.length;
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: u.cached ?? 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      ...(u.cost !== undefined ? { cost: u.cost } : {}),
    };
    w.send({ ...base, choices: [], usage });
  }
  w.send('[DONE]');
  return w.end();
}

/** Starts the mock; with `apiKey`, requests carrying another bearer token get OpenAI's 401; `cors`: it answers browsers. */
export function start(opts: { apiKey?: string; cors?: boolean } = {}): Promise<MockServer<OpenAIScript>> {
  return startMock<OpenAIScript>(
    async (script, req, res) => {
      if (req.method !== 'POST' || !req.path.endsWith('/chat/completions')) return sendError(res, { status: 404, message: `Unknown request URL: POST ${req.path}.` });
      if (!script) return sendError(res, { status: 500, message: 'mock: no scripted response left' });
      if ('status' in script) return sendError(res, script);
      return stream(script, req, res);
    },
    (req, res) => {
      if (opts.apiKey === undefined || req.headers.authorization === `Bearer ${opts.apiKey}`) return false;
      sendError(res, { status: 401 });
      return true;
    },
    { cors: opts.cors },
  );
}
