// The context-window policy (issue 9) on the public corpus: what is sent to answer a dialog's last prompt.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { Dialog, DialogError, Message, dlg2chat, msgText, readIpynb, truthy } from '../../src/core';
import { ContextPlan, MIN_CUT_TOKENS, TRUNCATED_MARK, contextPlan } from '../../src/core/answer';
import { corpusFiles } from './corpus';

interface Case {
  stem: string;
  d: Dialog;
  promptId: string;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const f of corpusFiles(['public'])) {
    let d: Dialog;
    try {
      d = readIpynb(readFileSync(f.path, 'utf8'), f.stem);
    } catch {
      continue; // unreadable files are the storage tests' business
    }
    const prompts = d.messages.filter((m) => m.msgType === 'prompt' && !truthy(m.skipped));
    if (!prompts.length) continue;
    const promptId = prompts[prompts.length - 1].id;
    try {
      dlg2chat(d, null, { upto: promptId });
    } catch {
      continue; // e.g. duplicate tool-call ids: dlg2chat's own error, tested there
    }
    out.push({ stem: f.stem, d, promptId });
  }
  return out;
}

const LIMITS = { replyTokens: 4_000, safetyTokens: 5_000 };
const budgetOf = (tokens: number) => ({ maxInputTokens: tokens + LIMITS.replyTokens + LIMITS.safetyTokens, ...LIMITS });
const sentIds = (p: ContextPlan) => p.messages.map((m) => m.id);

/** The policy's shape: pinned and the prompt kept; among the rest, left-out ones, at most one cut, then kept ones. */
function checkShape(p: ContextPlan, d: Dialog, promptId: string): void {
  const byId = new Map(d.messages.map((m) => [m.id, m]));
  const last = p.verdicts[p.verdicts.length - 1];
  assert.equal(last.id, promptId);
  assert.equal(last.verdict, 'kept');
  const order = p.verdicts.filter((v) => !v.pinned).map((v) => v.verdict);
  const firstKept = order.indexOf('kept');
  const tail = firstKept < 0 ? [] : order.slice(firstKept);
  assert.ok(tail.every((v) => v === 'kept'), `kept messages are the newest: ${order.join(',')}`);
  assert.ok(order.filter((v) => v === 'cut').length <= 1);
  const cutAt = order.indexOf('cut');
  if (cutAt >= 0) assert.ok(order.slice(0, cutAt).every((v) => v === 'leftOut'));
  for (const v of p.verdicts) {
    if (v.pinned) assert.equal(v.verdict, 'kept', `pinned ${v.id}`);
    if (truthy(byId.get(v.id)!.pinned)) assert.ok(v.pinned);
    assert.equal(v.sentTokens, v.verdict === 'kept' ? v.tokens : v.verdict === 'leftOut' ? 0 : v.sentTokens);
    if (v.verdict === 'cut') assert.ok(v.sentTokens < v.tokens && v.sentTokens > 0);
  }
  assert.deepEqual(sentIds(p), p.verdicts.filter((v) => v.verdict !== 'leftOut').map((v) => v.id));
  // Only copies are changed: the dialog's own messages are not.
  for (const m of p.messages) if (byId.get(m.id) !== m) assert.ok(m.id === promptId || p.verdicts.find((v) => v.id === m.id)!.verdict === 'cut');
}

describe('answer: context policy on the public corpus', function () {
  const all = cases();

  it('finds answerable dialogs', () => assert.ok(all.length >= 20, `${all.length} dialogs`));

  it('sends everything when it fits, exactly what dlg2chat gives up to the prompt', () => {
    for (const { stem, d, promptId } of all) {
      const p = contextPlan(d, promptId, budgetOf(1e9));
      assert.ok(p.verdicts.every((v) => v.verdict === 'kept'), stem);
      assert.equal(p.over, false);
      const full = dlg2chat(d, null, { upto: promptId });
      assert.deepEqual(p.chat, full.slice(0, p.chat.length), `${stem}: the request is the history`);
      assert.equal(p.chat[p.chat.length - 1].role, 'user', `${stem}: ends with the prompt's turn`);
      assert.ok(msgText(p.chat[p.chat.length - 1]).includes(d.msg(promptId).content.trim().slice(0, 50)), stem);
      checkShape(p, d, promptId);
    }
  });

  it('over budget: the prompt and newest messages go, one border message is cut, the rest left out', () => {
    let cuts = 0;
    let leftOut = 0;
    for (const { stem, d, promptId } of all) {
      const whole = contextPlan(d, promptId, budgetOf(1e9)).total;
      for (const share of [0.1, 0.5, 0.9]) {
        const budget = Math.floor(whole * share);
        const p = contextPlan(d, promptId, budgetOf(budget));
        checkShape(p, d, promptId);
        if (!p.over) assert.ok(p.total <= p.budget, `${stem} at ${share}: ${p.total} > ${p.budget}`);
        assert.equal(p.budget, budget);
        const cut = p.verdicts.findIndex((v) => v.verdict === 'cut');
        if (cut >= 0) {
          cuts++;
          const m = p.messages.find((x) => x.id === p.verdicts[cut].id)!;
          assert.ok(m.content.startsWith(TRUNCATED_MARK), `${stem}: the cut one is marked`);
          assert.ok(p.chat.some((c) => msgText(c).includes(TRUNCATED_MARK)), `${stem}: the mark reaches the request`);
        }
        leftOut += p.verdicts.filter((v) => v.verdict === 'leftOut').length;
        // Without a cut, the newest left-out message is one that did not fit whole.
        const newestOut = p.verdicts[p.verdicts.map((v) => v.verdict).lastIndexOf('leftOut')];
        if (newestOut && cut < 0 && !p.over) assert.ok(p.total + newestOut.tokens > p.budget, stem);
      }
    }
    assert.ok(cuts > 10, `${cuts} cuts`);
    assert.ok(leftOut > 100, `${leftOut} left out`);
  });

  it('a larger budget never sends less', () => {
    for (const { stem, d, promptId } of all.slice(0, 25)) {
      const whole = contextPlan(d, promptId, budgetOf(1e9)).total;
      let prev = -1;
      for (const share of [0.05, 0.2, 0.4, 0.6, 0.8, 1]) {
        const p = contextPlan(d, promptId, budgetOf(Math.floor(whole * share)));
        const kept = p.verdicts.filter((v) => v.verdict !== 'leftOut').length;
        assert.ok(kept >= prev, `${stem} at ${share}`);
        prev = kept;
      }
      assert.equal(prev, contextPlan(d, promptId, budgetOf(1e9)).verdicts.length, stem);
    }
  });

  it('pinned messages are kept however old, and their tokens come off the budget first', () => {
    let checked = 0;
    for (const { stem, d, promptId } of all) {
      const first = d.messages.find((m) => m.id !== promptId && !truthy(m.skipped) && !(m.msgType === 'raw' && truthy(m.meta.rec_kind)));
      if (!first) continue;
      const whole = contextPlan(d, promptId, budgetOf(1e9));
      const firstTokens = whole.verdicts.find((v) => v.id === first.id)!.tokens;
      const budget = Math.floor(whole.total * 0.3) + firstTokens;
      const before = contextPlan(d, promptId, budgetOf(budget));
      if (before.verdicts.find((v) => v.id === first.id)!.verdict === 'kept') continue; // fits anyway
      const saved = first.pinned;
      first.pinned = 1;
      try {
        const p = contextPlan(d, promptId, budgetOf(budget));
        const v = p.verdicts.find((x) => x.id === first.id)!;
        assert.equal(v.verdict, 'kept', stem);
        assert.ok(v.pinned);
        assert.equal(p.messages[0].id, first.id, `${stem}: pinned keeps its place`);
        checkShape(p, d, promptId);
        checked++;
      } finally {
        first.pinned = saved;
      }
    }
    assert.ok(checked >= 10, `${checked} dialogs`);
  });

  it('when the prompt and pinned messages alone exceed the budget, they still go and the plan says so', () => {
    const { d, promptId } = all.find((c) => c.d.messages.length > 5)!;
    const p = contextPlan(d, promptId, budgetOf(1));
    assert.equal(p.over, true);
    assert.ok(p.verdicts.slice(0, -1).every((v) => v.verdict === 'leftOut' || v.pinned));
    assert.equal(p.chat.length, 1);
    assert.equal(p.chat[0].role, 'user');
  });
});

describe('answer: context policy rules', () => {
  const dialog = (...msgs: Message[]) => new Dialog(msgs);
  const note = (id: string, n: number) => new Message({ id, msgType: 'note', content: `${id}:` + 'x'.repeat(n) });
  const prompt = (id: string, content: string, reply = '') => new Message({ id, msgType: 'prompt', content, output: reply });
  const chars = { count: (t: string) => t.length };

  it('the prompt is answered afresh: its old reply is neither sent nor counted', () => {
    const d = dialog(prompt('p1', 'first', 'old answer'), prompt('p2', 'second', 'stale reply'));
    const p = contextPlan(d, 'p2', budgetOf(1e6), chars);
    assert.deepEqual(p.chat.map((m) => [m.role, msgText(m)]), [['user', 'first'], ['assistant', 'old answer'], ['user', 'second']]);
    assert.equal(p.verdicts[1].tokens, 'second'.length);
    assert.equal(d.msg('p2').outputs.length, 1, 'the dialog keeps its reply');
  });

  it('uses the injected counter and the system prompt comes off the budget', () => {
    const d = dialog(note('a', 100), note('b', 100), prompt('p', 'q'));
    // a and b render as <markdown id="a">a:xxx…</markdown>: 130 chars each.
    const cost = contextPlan(d, 'p', budgetOf(1e6), chars).verdicts.map((v) => v.tokens);
    assert.deepEqual(cost, [130, 130, 1]);
    const fits = contextPlan(d, 'p', budgetOf(261), chars);
    assert.deepEqual(fits.verdicts.map((v) => v.verdict), ['kept', 'kept', 'kept']);
    const sys = contextPlan(d, 'p', budgetOf(261), { ...chars, system: 'S'.repeat(50) });
    assert.deepEqual(sys.verdicts.map((v) => v.verdict), ['cut', 'kept', 'kept']);
    assert.equal(sys.total, 261);
    assert.equal(sys.total, 50 + sys.verdicts.reduce((n, v) => n + v.sentTokens, 0));
  });

  it('the border message keeps its latest text behind the marker; no room, no cut', () => {
    const d = dialog(note('a', 300), note('b', 300), prompt('p', 'q'));
    const p = contextPlan(d, 'p', budgetOf(1 + 120), chars);
    assert.deepEqual(p.verdicts.map((v) => v.verdict), ['leftOut', 'cut', 'kept']);
    const cut = p.messages[0];
    assert.equal(cut.id, 'b');
    assert.match(cut.content, new RegExp(`^\\[\\.\\.\\.earlier content truncated\\.\\.\\.\\]\\nx+$`));
    assert.equal(p.verdicts[1].sentTokens, 120, 'the longest end that fits');
    assert.equal(d.msg('b').content.length, 302, 'the dialog is untouched');
    const tight = contextPlan(d, 'p', budgetOf(1 + MIN_CUT_TOKENS - 1), chars);
    assert.deepEqual(tight.verdicts.map((v) => v.verdict), ['leftOut', 'leftOut', 'kept']);
  });

  it('a cut prompt loses its own text first, then the oldest part of its reply', () => {
    const d = dialog(prompt('p1', 'Q'.repeat(200), 'A'.repeat(200)), prompt('p2', 'q'));
    const contentCut = contextPlan(d, 'p2', budgetOf(1 + 200 + 100 + 40), chars);
    assert.equal(contentCut.verdicts[0].verdict, 'cut');
    assert.deepEqual(contentCut.chat.map((m) => msgText(m).replace(/([QA])\1+/g, '$1…')), [`${TRUNCATED_MARK}\nQ…`, 'A…', 'q']);
    const replyCut = contextPlan(d, 'p2', budgetOf(1 + 150), chars);
    assert.deepEqual(replyCut.chat.map((m) => msgText(m).replace(/([QA])\1+/g, '$1…')), [TRUNCATED_MARK, `${TRUNCATED_MARK}\nA…`, 'q']);
  });

  it('skipped messages are not history; a skipped or missing prompt cannot be answered', () => {
    const d = dialog(note('a', 10), prompt('p', 'q'));
    d.msg('a').skipped = 1;
    assert.deepEqual(contextPlan(d, 'p', budgetOf(1e6)).verdicts.map((v) => v.id), ['p']);
    d.msg('p').skipped = 1;
    assert.throws(() => contextPlan(d, 'p', budgetOf(1e6)), DialogError);
    assert.throws(() => contextPlan(d, 'a', budgetOf(1e6)), DialogError);
    assert.throws(() => contextPlan(d, 'zz', budgetOf(1e6)), DialogError);
  });
});
