// A local stand-in for Anthropic's streaming Messages API (`POST /v1/messages`, SSE): the real event
// sequence (message_start, content_block_start/delta/stop, ping, message_delta with usage, message_stop),
// the real error bodies, scripted per request.

import { ServerResponse } from 'node:http';
import { MockServer, RecordedRequest, SseWriter, sendJson, startMock } from './mockHttp';

export interface AnthropicStream {
  /** Text deltas, in order (one text block; none when empty and a tool call follows). */
  text: string[];
  /** Text deltas made from the request instead (a reply that names what it answers, for load tests). */
  textOf?: (body: any) => string[];
  /** Thinking deltas, streamed in a thinking block before the text. */
  thinking?: string[];
  /** A tool call after the text, its input streamed as two JSON fragments. */
  toolUse?: { id: string; name: string; input: Record<string, unknown> };
  /** Several tool calls after the text (after `toolUse`, when both are given), in order. */
  toolUses?: { id: string; name: string; input: Record<string, unknown> }[];
  /**
   * A server-side web search before the text, as the API streams it: a `server_tool_use` block, its
   * `web_search_tool_result`, then the text block citing `cite` (a `citations_delta` before the text).
   * The usage's `server_tool_use.web_search_requests` counts it.
   */
  webSearch?: { query: string; results: { url: string; title: string }[]; cite: { url: string; title: string; text: string } };
  /** Pause before each delta, ms. */
  delayMs?: number;
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  stopReason?: string;
  /** An `error` event after the deltas instead of the message's end (mid-stream overload). */
  streamError?: { type: string; message: string };
  /** Leave the response open after the deltas until the client goes (a stop test). */
  holdOpen?: boolean;
  /** Faults a real server or network shows, after this many text deltas (0: before the first). */
  fault?: { after: number; kind: AnthropicFault };
}

/**
 * `reset`: the connection is destroyed (ECONNRESET at the client); `junk`: a `data:` line that is not JSON,
 * then the stream goes on; `stall`: nothing more is sent, the response stays open until the client goes.
 */
export type AnthropicFault = 'reset' | 'junk' | 'stall';

export interface AnthropicError {
  status: number;
  /** Anthropic's error type; by default the one the status has. */
  type?: string;
  message?: string;
  headers?: Record<string, string>;
}

export type AnthropicScript = AnthropicStream | AnthropicError;

const ERRORS: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'messages: at least one message is required'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit. Please try again later.'],
  500: ['api_error', 'Internal server error'],
  529: ['overloaded_error', 'Overloaded'],
};

function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message }, request_id: 'req_mock' };
}

function sendError(res: ServerResponse, e: AnthropicError): void {
  const [type, message] = ERRORS[e.status] ?? ['api_error', 'Error'];
  const headers: Record<string, string> = { 'request-id': 'req_mock', ...(e.status === 429 ? { 'retry-after': '1' } : {}), ...e.headers };
  sendJson(res, e.status, errorBody(e.type ?? type, e.message ?? message), headers);
}

async function stream(script: AnthropicStream, req: RecordedRequest, res: ServerResponse): Promise<void> {
  const s = script.textOf ? { ...script, text: script.textOf(req.body) } : script;
  const w = new SseWriter(res);
  const u = s.usage ?? {};
  const usage = { input_tokens: u.input ?? 10, cache_creation_input_tokens: u.cacheWrite ?? 0, cache_read_input_tokens: u.cacheRead ?? 0, output_tokens: 1 };
  const message = { id: 'msg_mock', type: 'message', role: 'assistant', model: req.body?.model ?? 'claude-mock', content: [], stop_reason: null, stop_sequence: null, usage };
  w.send({ type: 'message_start', message }, 'message_start');
  let index = 0;
  const block = async (start: { type: string; [k: string]: unknown }, deltas: object[]): Promise<boolean> => {
    w.send({ type: 'content_block_start', index, content_block: start }, 'content_block_start');
    if (index === 0) w.send({ type: 'ping' }, 'ping');
    for (const [k, delta] of deltas.entries()) {
      if (s.fault && start.type === 'text' && k === s.fault.after && (await fault(s.fault.kind, w, res))) return false;
      await w.pause(s.delayMs ?? 0);
      w.send({ type: 'content_block_delta', index, delta }, 'content_block_delta');
    }
    if (s.fault && start.type === 'text' && deltas.length <= s.fault.after && (await fault(s.fault.kind, w, res))) return false;
    w.send({ type: 'content_block_stop', index }, 'content_block_stop');
    index++;
    return true;
  };
  if (s.thinking) await block({ type: 'thinking', thinking: '', signature: '' }, [...s.thinking.map((thinking) => ({ type: 'thinking_delta', thinking })), { type: 'signature_delta', signature: 'sig' }]);
  if (s.webSearch) {
    const ws = s.webSearch;
    const id = 'srvtoolu_mock';
    await block({ type: 'server_tool_use', id, name: 'web_search', input: {} }, [{ type: 'input_json_delta', partial_json: JSON.stringify({ query: ws.query }) }]);
    const content = ws.results.map((r) => ({ type: 'web_search_result', url: r.url, title: r.title, encrypted_content: 'enc', page_age: null }));
    await block({ type: 'web_search_tool_result', tool_use_id: id, content }, []);
    const citation = { type: 'web_search_result_location', url: ws.cite.url, title: ws.cite.title, cited_text: ws.cite.text, encrypted_index: 'idx' };
    await block({ type: 'text', text: '', citations: [] }, [{ type: 'citations_delta', citation }, { type: 'text_delta', text: ws.cite.text }]);
  }
  // A reply that is only a tool call has no text block, as the API sends it.
  const calls = [...(s.toolUse ? [s.toolUse] : []), ...(s.toolUses ?? [])];
  if ((s.text.length || !calls.length) && !(await block({ type: 'text', text: '', citations: null }, s.text.map((text) => ({ type: 'text_delta', text }))))) return;
  for (const call of calls) {
    const json = JSON.stringify(call.input);
    const half = Math.floor(json.length / 2);
    await block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, [json.slice(0, half), json.slice(half)].map((partial_json) => ({ type: 'input_json_delta', partial_json })));
  }
  if (s.streamError) {
    w.send(errorBody(s.streamError.type, s.streamError.message), 'error');
    return w.end();
  }
  if (s.holdOpen) return w.end(true);
  const stop_reason = s.stopReason ?? (calls.length ? 'tool_use' : 'end_turn');
  const server = s.webSearch ? { server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } } : {};
  w.send({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: u.output ?? s.text.length, ...server } }, 'message_delta');
  w.send({ type: 'message_stop' }, 'message_stop');
  return w.end();
}

/** Performs `kind` on the response; true when the stream is over (reset, stalled until the client went). */
async function fault(kind: AnthropicFault, w: SseWriter, res: ServerResponse): Promise<boolean> {
  if (kind === 'junk') {
    w.send('this is not JSON {', 'content_block_delta');
    return false;
  }
  if (kind === 'reset') {
    res.socket?.resetAndDestroy();
    return true;
  }
  await w.end(true);
  return true;
}

/** What the API says of a request's extended thinking it refuses: the budget's minimum, and room for it in `max_tokens`. */
function thinkingProblem(req: RecordedRequest): string | undefined {
  const t = req.body?.thinking;
  if (!t || t.type !== 'enabled') return undefined;
  if (!(t.budget_tokens >= 1024)) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if (!(req.body.max_tokens > t.budget_tokens)) return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  return undefined;
}

/** The key a request carries (`x-api-key`, or the bearer token newer SDKs send). */
function requestKey(req: RecordedRequest): string | undefined {
  const x = req.headers['x-api-key'];
  if (typeof x === 'string') return x;
  return /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
}

/**
 * Starts the mock; with `apiKey`, requests carrying another key get Anthropic's 401. With `cors` it answers
 * browsers as Anthropic does: only requests that send `anthropic-dangerous-direct-browser-access: true`.
 */
export function start(opts: { apiKey?: string; cors?: boolean } = {}): Promise<MockServer<AnthropicScript>> {
  return startMock<AnthropicScript>(
    async (script, req, res) => {
      if (req.method !== 'POST' || !req.path.startsWith('/v1/messages')) return sendError(res, { status: 404, type: 'not_found_error', message: `Not found: ${req.path}` });
      if (!script) return sendError(res, { status: 500, message: 'mock: no scripted response left' });
      if ('status' in script) return sendError(res, script);
      const refused = thinkingProblem(req);
      if (refused) return sendError(res, { status: 400, message: refused });
      return stream(script, req, res);
    },
    (req, res) => {
      if (opts.cors && req.headers.origin && req.headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
        sendError(res, { status: 401, message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header" });
        return true;
      }
      if (opts.apiKey === undefined || requestKey(req) === opts.apiKey) return false;
      sendError(res, { status: 401 });
      return true;
    },
    { cors: opts.cors },
  );
}
