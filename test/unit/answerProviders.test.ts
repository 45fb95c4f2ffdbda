// The Anthropic and OpenAI providers through the real SDKs, against the local mock servers.
import { strict as assert } from 'node:assert';
import { INTERRUPTED, Msg, textPart } from '../../src/core';
import { ReplyBuilder, RATE_LIMIT_RETRIES, usageBlock } from '../../src/core/answer';
import { AnthropicProvider } from '../../src/extension/answer/providers/anthropic';
import { anthropicParams } from '../../src/extension/answer/providers/anthropicWire';
import { OpenAIProvider } from '../../src/extension/answer/providers/openai';
import { openaiParams } from '../../src/extension/answer/providers/openaiWire';
import { AnswerError, AnswerEvent, AnswerProvider, AnswerRequest } from '../../src/extension/answer/providers/provider';
import { LastBody } from '../../src/extension/answer/providers/wire';
import * as anthropicMock from '../mocks/anthropicServer';
import * as openaiMock from '../mocks/openaiServer';

const KEY = 'sk-test-key-0123456789';
const user = (text: string): Msg => ({ role: 'user', content: [textPart(text)] });
const request = (model: string): AnswerRequest => ({ model, system: 'Be brief.', messages: [user('Hi'), { role: 'assistant', content: [textPart('Hello!')] }, user('Count to 3')], maxTokens: 256 });

interface Run {
  events: AnswerEvent[];
  reply: ReplyBuilder;
  error?: AnswerError;
}

/** Runs an answer to the end, or aborts it once `abortAfter` text events have arrived. */
async function run(p: AnswerProvider, req: AnswerRequest, abortAfter?: number): Promise<Run> {
  const ac = new AbortController();
  const res: Run = { events: [], reply: new ReplyBuilder() };
  try {
    for await (const e of p.answer(req, ac.signal)) {
      res.events.push(e);
      res.reply.add(e);
      if (abortAfter !== undefined && res.events.filter((x) => x.type === 'text').length === abortAfter) ac.abort();
    }
  } catch (e) {
    if (!(e instanceof AnswerError)) throw e;
    res.error = e;
  }
  return res;
}

const texts = (r: Run) => r.events.filter((e): e is Extract<AnswerEvent, { type: 'text' }> => e.type === 'text').map((e) => e.text);
const types = (r: Run) => r.events.map((e) => e.type);

describe('answer: Anthropic provider (SDK against the mock)', function () {
  let server: Awaited<ReturnType<typeof anthropicMock.start>>;
  let provider: AnthropicProvider;
  before(async () => {
    server = await anthropicMock.start({ apiKey: KEY });
    provider = new AnthropicProvider({ apiKey: KEY, baseUrl: server.url });
  });
  after(() => server.close());
  beforeEach(() => server.requests.splice(0));

  it('streams text in order, reports usage, and sends exactly the converted request', async () => {
    server.enqueue({ text: ['One', ', two', ', three.'], usage: { input: 42, output: 7, cacheRead: 30 } });
    const r = await run(provider, request('claude-test'));
    assert.equal(r.error, undefined);
    assert.deepEqual(texts(r), ['One', ', two', ', three.']);
    assert.deepEqual(r.reply.usage, { prompt_tokens: 72, completion_tokens: 7, total_tokens: 79, cached_tokens: 30 });
    assert.equal(r.reply.reason, 'stop');
    assert.equal(r.reply.markdown(), `One, two, three.\n\n${usageBlock(r.reply.usage!)}`);
    assert.equal(server.requests.length, 1);
    const sent = server.requests[0];
    assert.equal(sent.path, '/v1/messages');
    assert.deepEqual(sent.body, { ...anthropicParams(request('claude-test')), stream: true });
    assert.equal(sent.body.system, 'Be brief.');
    assert.equal(sent.headers['x-stainless-retry-count'], '0');
  });

  it('a body made beforehand (prepare) is the one sent; a changed request sends its own', async () => {
    const req = request('claude-test');
    await provider.prepare(req);
    const more = { ...req, messages: [...req.messages, user('And to 4')] };
    for (const r of [{ ...req, messages: [...req.messages] }, more]) {
      server.enqueue({ text: ['Done.'] });
      assert.equal((await run(provider, r)).error, undefined);
    }
    assert.deepEqual(server.requests.map((q) => q.body), [req, more].map((r) => ({ ...anthropicParams(r), stream: true })));
  });

  it('thinking and tool calls arrive as events; the call ends the answer with tool_use', async () => {
    server.enqueue({ thinking: ['Hmm', '.'], text: ['Let me run it.'], toolUse: { id: 'toolu_01', name: 'python', input: { code: 'print(1)' } } });
    const r = await run(provider, request('claude-test'));
    assert.deepEqual(r.reply.messages()[0].content.map((p) => p.type), ['thinking', 'text', 'tool_use']);
    assert.deepEqual(r.events.find((e) => e.type === 'tool_use'), { type: 'tool_use', id: 'toolu_01', name: 'python', arguments: { code: 'print(1)' }, server: false });
    assert.equal(r.reply.reason, 'tool_use');
  });

  it('stop mid-stream: what arrived stays, then the marker', async () => {
    // The server holds the stream open until the client cuts it: the run ends only when the stop cut it.
    server.enqueue({ text: ['a', 'b', 'c', 'd', 'e', 'f'], delayMs: 40, holdOpen: true });
    const r = await run(provider, request('claude-test'), 2);
    assert.equal(r.error, undefined);
    assert.equal(r.reply.reason, 'aborted');
    assert.deepEqual(types(r).slice(-1), ['end']);
    const got = texts(r).join('');
    assert.ok(got.startsWith('ab') && 'abcdef'.startsWith(got) && got.length < 6, got);
    assert.ok(r.reply.markdown().startsWith(got) && r.reply.markdown().endsWith(`\n${INTERRUPTED}`));
    assert.equal(await server.requests[server.requests.length - 1].closed, true, 'the stop cut the stream');
  });

  it('429, then success: one retry, its wait reported (retry-after-ms honoured)', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after-ms': '20' } }, { text: ['ok'] });
    const r = await run(provider, request('claude-test'));
    assert.equal(r.error, undefined);
    assert.deepEqual(r.events[0], { type: 'retry', retry: 1, of: RATE_LIMIT_RETRIES, delayMs: 20, message: 'Number of request tokens has exceeded your per-minute rate limit. Please try again later.' });
    assert.deepEqual(texts(r), ['ok']);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1].headers['x-stainless-retry-count'], '0', 'the SDK did not retry by itself');
  });

  it('529 overloaded, then success: waits the schedule (1 s) without a retry-after', async () => {
    server.enqueue({ status: 529 }, { text: ['fine'] });
    const r = await run(provider, request('claude-test'));
    assert.deepEqual(r.events[0], { type: 'retry', retry: 1, of: RATE_LIMIT_RETRIES, delayMs: 1_000, message: 'Overloaded' });
    assert.deepEqual(texts(r), ['fine']);
  });

  it('gives up after 8 retries, saying so', async () => {
    server.enqueue(...Array.from({ length: RATE_LIMIT_RETRIES + 1 }, () => ({ status: 429, headers: { 'retry-after-ms': '1' } })));
    const r = await run(provider, request('claude-test'));
    assert.equal(r.error?.kind, 'rate-limit');
    assert.match(r.error!.message, /gave up after 8 retries/);
    assert.equal(server.requests.length, RATE_LIMIT_RETRIES + 1);
    assert.equal(r.events.filter((e) => e.type === 'retry').length, RATE_LIMIT_RETRIES);
  });

  it('an overload after text has arrived is not retried (it would repeat the text)', async () => {
    server.enqueue({ text: ['Half'], streamError: { type: 'overloaded_error', message: 'Overloaded' } });
    const r = await run(provider, request('claude-test'));
    assert.equal(r.error?.kind, 'rate-limit');
    assert.deepEqual(texts(r), ['Half']);
    assert.equal(server.requests.length, 1);
  });

  it('401: a clear error that never shows the key', async () => {
    const bad = new AnthropicProvider({ apiKey: 'sk-ant-wrong-key-999', baseUrl: server.url });
    const r = await run(bad, request('claude-test'));
    assert.equal(r.error?.kind, 'auth');
    assert.equal(r.error?.status, 401);
    assert.equal(r.error?.message, 'Anthropic rejected the API key (401): invalid x-api-key');
    assert.ok(!r.error!.message.includes('wrong-key'));
  });

  it('another failure is reported with the provider message', async () => {
    server.enqueue({ status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' });
    const r = await run(provider, request('claude-test'));
    assert.equal(r.error?.kind, 'other');
    assert.equal(r.error?.message, 'prompt is too long: 250000 tokens > 200000 maximum');
  });

  it('no key: no request at all; the fix named is one that works where the extension runs', async () => {
    const r = await run(new AnthropicProvider({ apiKey: '', baseUrl: server.url }), request('claude-test'));
    assert.equal(r.error?.kind, 'no-key');
    assert.equal(r.error?.message, 'No Anthropic API key: set one with Dialog: Set API Key…, or ANTHROPIC_API_KEY.');
    const web = await run(new AnthropicProvider({ apiKey: '', baseUrl: server.url, host: 'browser' }), request('claude-test'));
    assert.equal(web.error?.message, 'No Anthropic API key: set one with Dialog: Set API Key…');
    assert.equal(server.requests.length, 0);
  });

  it('an empty base URL leaves ANTHROPIC_BASE_URL to the SDK', async () => {
    const saved = process.env.ANTHROPIC_BASE_URL;
    process.env.ANTHROPIC_BASE_URL = server.url;
    try {
      server.enqueue({ text: ['via env'] });
      const r = await run(new AnthropicProvider({ apiKey: KEY, baseUrl: '' }), request('claude-test'));
      assert.deepEqual(texts(r), ['via env']);
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_BASE_URL;
      else process.env.ANTHROPIC_BASE_URL = saved;
    }
  });
});

describe('answer: OpenAI-compatible provider (SDK against the mock)', function () {
  let server: Awaited<ReturnType<typeof openaiMock.start>>;
  let provider: OpenAIProvider;
  before(async () => {
    server = await openaiMock.start({ apiKey: KEY });
    provider = new OpenAIProvider({ apiKey: KEY, baseUrl: `${server.url}/v1` });
  });
  after(() => server.close());
  beforeEach(() => server.requests.splice(0));

  it('streams text in order, reports the final usage chunk, and sends exactly the converted request', async () => {
    server.enqueue({ text: ['One', ', two', ', three.'], usage: { prompt: 40, completion: 6, cached: 32, cost: 0.002 } });
    const r = await run(provider, request('gpt-test'));
    assert.equal(r.error, undefined);
    assert.deepEqual(texts(r), ['One', ', two', ', three.']);
    assert.deepEqual(r.reply.usage, { prompt_tokens: 40, completion_tokens: 6, total_tokens: 46, cached_tokens: 32, cost: 0.002 });
    assert.equal(r.reply.reason, 'stop');
    const sent = server.requests[0];
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(sent.body, openaiParams(request('gpt-test')));
    assert.deepEqual(sent.body.stream_options, { include_usage: true });
    assert.deepEqual(sent.body.messages[0], { role: 'system', content: 'Be brief.' });
  });

  it('reasoning_content is thinking; streamed tool calls are complete calls', async () => {
    server.enqueue({ reasoning: ['Think', 'ing'], text: ['Running.'], toolCalls: [{ id: 'call_1', name: 'python', arguments: { code: 'x = 1' } }] });
    const r = await run(provider, request('gpt-test'));
    assert.deepEqual(r.reply.messages()[0].content, [
      { type: 'thinking', text: 'Thinking', showthink: false },
      textPart('Running.'),
      { type: 'tool_use', id: 'call_1', name: 'python', arguments: { code: 'x = 1' }, server: false },
    ]);
    assert.equal(r.reply.reason, 'tool_use');
  });

  it('stop mid-stream: what arrived stays, then the marker', async () => {
    server.enqueue({ text: ['a', 'b', 'c', 'd', 'e', 'f'], delayMs: 40, holdOpen: true });
    const r = await run(provider, request('gpt-test'), 2);
    assert.equal(r.reply.reason, 'aborted');
    const got = texts(r).join('');
    assert.ok(got.startsWith('ab') && 'abcdef'.startsWith(got) && got.length < 6, got);
    assert.ok(r.reply.markdown().endsWith(`${got}\n${INTERRUPTED}`));
  });

  it('429, then success: one retry with its wait', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after-ms': '20' } }, { text: ['ok'] });
    const r = await run(provider, request('gpt-test'));
    assert.equal(r.events[0].type, 'retry');
    assert.equal((r.events[0] as { delayMs: number }).delayMs, 20);
    assert.deepEqual(texts(r), ['ok']);
    assert.equal(server.requests.length, 2);
  });

  it('401: a clear error, the echoed key redacted', async () => {
    const r = await run(new OpenAIProvider({ apiKey: 'sk-wrong-key-424242', baseUrl: server.url }), request('gpt-test'));
    assert.equal(r.error?.kind, 'auth');
    assert.match(r.error!.message, /^The OpenAI-compatible endpoint rejected the API key \(401\): Incorrect API key provided: \[redacted\]\./);
    assert.ok(!/wrong|wron\*/.test(r.error!.message));
  });

  it('no key: no request; an empty base URL leaves OPENAI_BASE_URL to the SDK', async () => {
    assert.equal((await run(new OpenAIProvider({ apiKey: '' }), request('gpt-test'))).error?.kind, 'no-key');
    const web = await run(new OpenAIProvider({ apiKey: '', host: 'browser' }), request('gpt-test'));
    assert.doesNotMatch(web.error?.message ?? '', /OPENAI_API_KEY/);
    const saved = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = server.url;
    try {
      server.enqueue({ text: ['via env'] });
      assert.deepEqual(texts(await run(new OpenAIProvider({ apiKey: KEY, baseUrl: '' }), request('gpt-test'))), ['via env']);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_BASE_URL;
      else process.env.OPENAI_BASE_URL = saved;
    }
  });
});

describe('answer: the body of the last request', () => {
  const made: AnswerRequest[] = [];
  const body = new LastBody((r) => (made.push(r), { n: made.length }));
  const req = request('m');

  it('is made again only when the request changes: a field, the tools, or any message object', () => {
    const first = body.of(req);
    assert.equal(body.of({ ...req, messages: [...req.messages] }), first, 'the same messages in a new array');
    const changed: AnswerRequest[] = [
      { ...req, model: 'n' },
      { ...req, system: 'Other.' },
      { ...req, maxTokens: 512 },
      { ...req, toolChoice: 'none' },
      { ...req, thinking: { budgetTokens: 1024, effort: 'low' } },
      { ...req, tools: [{ name: 'f', description: 'd', parameters: { type: 'object', properties: {} } }] },
      // An equal message, but a new object: the plan made it again, so it may differ.
      { ...req, messages: [...req.messages.slice(0, -1), user('Count to 3')] },
    ];
    for (const r of changed) assert.notEqual(body.of(r), body.of(req), JSON.stringify(r));
  });
});
