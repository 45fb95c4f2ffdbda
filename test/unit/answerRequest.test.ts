// What answering a prompt sends, as the History tab shows it (issue 9): the plan's preview is the request
// (the body a mock server receives has the preview's turns), the policy's verdicts are marked, streamed
// replies reach the cell through a bounded-rate throttle, and the model setting is read as documented.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { Dialog, Message, PreviewTurn, chatTurns, dlg2chat, readIpynb, truthy } from '../../src/core';
import { ContextPlan, TRUNCATED_MARK, contextPlan, planPreview } from '../../src/core/answer';
import { OpenAIProvider } from '../../src/extension/answer/providers/openai';
import { UpdateThrottle } from '../../src/extension/answer/throttle';
import { offeredHistory } from '../../src/extension/answer/providers/wire';
import { DEFAULT_CONTEXT_WINDOW, knownWindow, parseModel } from '../../src/extension/answer/models';
import { start } from '../mocks/openaiServer';
import { corpusFiles } from './corpus';

const LIMITS = { replyTokens: 4_000, safetyTokens: 5_000 };
const limitsFor = (tokens: number) => ({ maxInputTokens: tokens + LIMITS.replyTokens + LIMITS.safetyTokens, ...LIMITS });

/** Public dialogs whose last prompt can be answered, the largest first. */
function dialogs(n: number): { stem: string; d: Dialog; promptId: string }[] {
  const out: { stem: string; d: Dialog; promptId: string; size: number }[] = [];
  for (const f of corpusFiles(['public'])) {
    const text = readFileSync(f.path, 'utf8');
    let d: Dialog;
    try {
      d = readIpynb(text, f.stem);
      const prompts = d.messages.filter((m) => m.msgType === 'prompt' && !truthy(m.skipped));
      const promptId = prompts[prompts.length - 1]?.id;
      if (!promptId) continue;
      dlg2chat(d, null, { upto: promptId });
      out.push({ stem: f.stem, d, promptId, size: text.length });
    } catch {
      continue; // unreadable or unanswerable: other suites' business
    }
  }
  return out.sort((a, b) => b.size - a.size).slice(0, n);
}

/** A turn as comparable text: role and its text, tool calls and results, in order. */
const turnText = (t: PreviewTurn) => ({
  role: t.role,
  text: t.parts.filter((p) => p.kind === 'text' || p.kind === 'tool_result' || p.kind === 'tool_use').map((p) => (p.kind === 'tool_use' ? p.text.replace(/\(.*$/s, '') : p.text)),
});

/** The OpenAI request body as the same turns (one `tool` turn per run of tool messages). */
function bodyTurns(body: { messages: any[] }): { role: string; text: string[] }[] {
  const out: { role: string; text: string[] }[] = [];
  for (const m of body.messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      const prev = out[out.length - 1];
      if (prev?.role === 'tool') prev.text.push(m.content);
      else out.push({ role: 'tool', text: [m.content] });
    } else if (m.role === 'user') {
      out.push({ role: 'user', text: typeof m.content === 'string' ? [m.content] : m.content.filter((p: any) => p.type === 'text').map((p: any) => p.text) });
    } else {
      out.push({ role: 'assistant', text: [...(m.content ? [m.content] : []), ...(m.tool_calls ?? []).map((c: any) => c.function.name)] });
    }
  }
  return out;
}

describe('answer: the History tab is the request', function () {
  const all = dialogs(6);

  it('chat mode shows exactly the plan’s chat; hist mode the same messages without the pending reply', () => {
    for (const { stem, d, promptId } of all) {
      for (const limits of [limitsFor(1e9), limitsFor(3_000)]) {
        const plan = contextPlan(d, promptId, limits);
        const chat = planPreview(d, plan, 'chat');
        assert.deepEqual(chat.turns.map(turnText), chatTurns(plan.chat).map(turnText), stem);
        assert.equal(chat.total, plan.total);
        assert.equal(chat.budget, plan.budget);
        const hist = planPreview(d, plan, 'hist');
        assert.equal(hist.turns[hist.turns.length - 1].role, 'user', `${stem}: the prompt's turn ends the hist preview`);
        assert.equal(hist.turns.filter((t) => t.role === 'user').length, plan.chat.filter((m) => m.role === 'user').length, stem);
      }
    }
  });

  it('the dlg2hist view shows no usage block, which no request carries', () => {
    const d = new Dialog([
      new Message({ id: 'p1', msgType: 'prompt', content: 'Hi', output: 'Hello.\n\n```json {.usage}\n{"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}\n```' }),
      new Message({ id: 'p2', msgType: 'prompt', content: 'More' }),
    ]);
    const plan = contextPlan(d, 'p2', limitsFor(1e6));
    for (const mode of ['chat', 'hist'] as const) {
      const texts = planPreview(d, plan, mode).turns.map((t) => t.parts.map((p) => p.text).join(''));
      assert.deepEqual(texts, ['Hi', 'Hello.', 'More'], mode);
    }
  });

  it('marks what the policy left out and cut', () => {
    let cuts = 0;
    for (const { stem, d, promptId } of all) {
      const plan: ContextPlan = contextPlan(d, promptId, limitsFor(3_000));
      const pv = planPreview(d, plan, 'chat');
      assert.deepEqual(pv.leftOut.map((m) => m.id), plan.verdicts.filter((v) => v.verdict === 'leftOut').map((v) => v.id), stem);
      assert.deepEqual(pv.cut.map((m) => m.id), plan.verdicts.filter((v) => v.verdict === 'cut').map((v) => v.id), stem);
      const marks = pv.turns.flatMap((t) => t.parts.map((p, k) => [p, t.parts[k + 1]] as const)).filter(([p]) => p.kind === 'cut');
      assert.equal(marks.length, pv.cut.length, stem);
      for (const [mark, next] of marks) {
        assert.ok(next?.text.includes(TRUNCATED_MARK), `${stem}: the mark stands before the cut text`);
        assert.equal(mark.tokens, undefined);
      }
      cuts += pv.cut.length;
    }
    assert.ok(cuts > 0, 'some dialog was cut at this budget');
  });

  it('the body a mock OpenAI-compatible server receives has the preview’s turns', async () => {
    const server = await start({ apiKey: 'sk-test-key' });
    try {
      const provider = new OpenAIProvider({ apiKey: 'sk-test-key', baseUrl: server.url });
      for (const { stem, d, promptId } of all) {
        const plan = contextPlan(d, promptId, limitsFor(3_000), { system: 'Be brief.' });
        server.enqueue({ text: ['ok'] });
        for await (const e of provider.answer({ model: 'gpt-mock', system: 'Be brief.', messages: plan.chat, maxTokens: LIMITS.replyTokens }, new AbortController().signal)) void e;
        const body = server.requests[server.requests.length - 1].body;
        assert.deepEqual(body.messages[0], { role: 'system', content: 'Be brief.' });
        // As requestPreview shows it: past calls of tools not offered (none are, here) as the text the wire sends.
        const preview = planPreview(d, { ...plan, chat: offeredHistory(plan.chat) }, 'chat').turns.map(turnText);
        const sent = bodyTurns(body);
        assert.equal(sent.length, preview.length, stem);
        sent.forEach((t, k) => {
          assert.equal(t.role, preview[k].role, `${stem} turn ${k}`);
          const joined = (xs: string[]) => xs.join(t.role === 'user' ? '\n' : '');
          assert.equal(joined(t.text), joined(preview[k].text), `${stem} turn ${k}`);
        });
      }
    } finally {
      await server.close();
    }
  });
});

describe('answer: update throttle', () => {
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('many changes in one go are one update, with the latest state', async () => {
    let state = 0;
    const seen: number[] = [];
    const t = new UpdateThrottle(() => void seen.push(state), 50);
    for (let k = 1; k <= 1000; k++) {
      state = k;
      t.mark();
    }
    while (!seen.length) await tick();
    await t.finish();
    assert.deepEqual(seen, [1000]);
    assert.equal(t.updates, 1);
  });

  it('the first change is shown as it arrives, without waiting for a timer; the next ones are batched', async () => {
    const seen: number[] = [];
    let state = 0;
    const t = new UpdateThrottle(() => void seen.push(state), 10_000);
    state = 1;
    t.mark();
    state = 2;
    t.mark(); // in the same task: the first update shows both
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(seen, [2], 'shown within the microtasks of its task');
    state = 3;
    t.mark();
    await tick();
    assert.deepEqual(seen, [2], 'the next change waits for the interval');
    await t.finish();
    assert.equal(t.updates, 1);
  });

  it('updates are at least the interval apart and never overlap; none after finish', async () => {
    const starts: number[] = [];
    let running = 0;
    let overlapped = false;
    const t = new UpdateThrottle(async () => {
      starts.push(performance.now());
      overlapped ||= running++ > 0;
      await new Promise((r) => setTimeout(r, 30)); // a slow notebook
      running--;
    }, 20);
    const until = performance.now() + 300;
    while (performance.now() < until) {
      t.mark();
      await tick();
    }
    await t.finish();
    const n = t.updates;
    assert.ok(n >= 2, `${n} updates`);
    assert.equal(overlapped, false);
    for (let k = 1; k < starts.length; k++) assert.ok(starts[k] - starts[k - 1] >= 20 - 2, `gap ${starts[k] - starts[k - 1]} ms`);
    assert.equal(running, 0, 'finish waits for the update under way');
    t.mark();
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(t.updates, n);
  });
});

describe('answer: the model setting', () => {
  it('reads <provider>:<model id>', () => {
    assert.deepEqual(parseModel('anthropic:claude-sonnet-4-5'), { provider: 'anthropic', model: 'claude-sonnet-4-5' });
    assert.deepEqual(parseModel('openai:llama3.1:8b'), { provider: 'openai', model: 'llama3.1:8b' });
    assert.deepEqual(parseModel('vscode-lm:copilot-gpt-4o'), { provider: 'vscode-lm', model: 'copilot-gpt-4o' });
    for (const bad of ['', 'claude-sonnet-4-5', 'gemini:pro', 'anthropic:', ':x']) assert.equal(parseModel(bad), null, bad);
  });

  it('knows the input windows of the usual models, else a default', () => {
    assert.equal(knownWindow('claude-3-5-sonnet-20241022'), 200_000);
    assert.equal(knownWindow('anthropic/claude-sonnet-4-5'), 200_000);
    assert.equal(knownWindow('gpt-4o-mini'), 128_000);
    assert.equal(knownWindow('llama3.1'), DEFAULT_CONTEXT_WINDOW);
  });
});
