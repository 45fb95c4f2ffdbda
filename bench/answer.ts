// `npm run bench` (via run.mjs), or `npx tsx bench/answer.ts`: answering a prompt (issue 9).
// 1. Building the request for a 20,000-message dialog (the saved form, then the context policy: the
//    whole history, and the same cut to a 200k window), against JSON.parse + JSON.stringify of the
//    same file in the same run. Target ≤ 1.5×.
// 2. Streaming a 20,000-token reply from the mock Anthropic server at full speed through the real SDK,
//    the ReplyBuilder and the cell's update throttle (the flush renders the reply as the cell would):
//    how many cell updates, and the time over reading the same stream raw.

import { Dialog, readIpynb, stringifyCanonical } from '../src/core';
import { ReplyBuilder, contextPlan, replyMarkdown } from '../src/core/answer';
import { savedDialog } from '../src/core/reply';
import { AnthropicProvider } from '../src/extension/answer/providers/anthropic';
import { UPDATE_INTERVAL_MS, UpdateThrottle } from '../src/extension/answer/throttle';
import { start } from '../test/mocks/anthropicServer';
// @ts-expect-error: a plain .mjs helper without types
import { generateDialog } from './generateDialog.mjs';

/** Median ms of `fn` over enough runs to take about `budgetMs`. */
function time(fn: () => void, budgetMs = 2000): number {
  fn();
  const samples: number[] = [];
  const begin = performance.now();
  while (samples.length < 5 || (performance.now() - begin < budgetMs && samples.length < 100)) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

const f = (x: number) => x.toFixed(1);

function requestBench(): void {
  const text = stringifyCanonical(generateDialog(20000, 42)) + '\n';
  const d: Dialog = readIpynb(text);
  const promptId = d.messages.filter((m) => m.msgType === 'prompt').at(-1)!.id;
  const limit = time(() => JSON.stringify(JSON.parse(text), null, 1));
  const whole = { maxInputTokens: 1e12, replyTokens: 8192 };
  const window = { maxInputTokens: 200_000, replyTokens: 8192 };
  const all = time(() => contextPlan(savedDialog(d), promptId, whole));
  const cut = time(() => contextPlan(savedDialog(d), promptId, window));
  const p = contextPlan(savedDialog(d), promptId, window);
  console.log('\n### Building the request (20,000 messages)\n');
  console.log(`| case | ms | ratio to JSON limit (${f(limit)} ms, ${Math.round(text.length / 1000)} kB) |`);
  console.log('| --- | ---: | ---: |');
  console.log(`| whole history (${contextPlan(savedDialog(d), promptId, whole).chat.length} turns) | ${f(all)} | ${(all / limit).toFixed(2)}× |`);
  console.log(`| cut to a 200k window (${p.verdicts.filter((v) => v.verdict === 'kept').length} kept, ${p.verdicts.filter((v) => v.verdict === 'leftOut').length} left out) | ${f(cut)} | ${(cut / limit).toFixed(2)}× |`);
}

async function streamBench(): Promise<void> {
  const N = 20000;
  const text = Array.from({ length: N }, (_, k) => (k % 12 === 11 ? '\n' : `tok${k % 97} `));
  const server = await start({ apiKey: 'bench' });
  try {
    // The same stream read raw (what the server and the socket take), then through our code; each twice,
    // alternating, the faster of each kept (the first runs warm the server up).
    const rawRun = async () => {
      server.enqueue({ text });
      const t = performance.now();
      const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'bench' }, body: JSON.stringify({ model: 'm' }) });
      await res.arrayBuffer();
      return performance.now() - t;
    };
    const provider = new AnthropicProvider({ apiKey: 'bench', baseUrl: server.url });
    let updates = 0;
    let final = '';
    const ourRun = async () => {
      server.enqueue({ text });
      const builder = new ReplyBuilder();
      const throttle = new UpdateThrottle(() => void replyMarkdown(builder.messages()), UPDATE_INTERVAL_MS);
      const t = performance.now();
      for await (const e of provider.answer({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], maxTokens: N }, new AbortController().signal)) {
        builder.add(e);
        if (e.type === 'text') throttle.mark();
      }
      await throttle.finish();
      final = builder.markdown();
      updates = throttle.updates;
      return performance.now() - t;
    };
    let raw = Infinity;
    let ours = Infinity;
    for (let k = 0; k < 2; k++) {
      raw = Math.min(raw, await rawRun());
      ours = Math.min(ours, await ourRun());
    }
    console.log('\n### Streaming a 20,000-token reply from the mock server\n');
    console.log('| raw stream ms | through SDK + builder + throttle ms | over the server | cell updates (≤ 1 per 100 ms) | reply kB |');
    console.log('| ---: | ---: | ---: | ---: | ---: |');
    console.log(`| ${f(raw)} | ${f(ours)} | ${ours >= raw ? '+' : ''}${f(ours - raw)} ms (${(ours / raw).toFixed(2)}×) | ${updates} | ${Math.round(final.length / 1000)} |`);
  } finally {
    await server.close();
  }
}

requestBench();
void streamBench();
