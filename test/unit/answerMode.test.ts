// Issue 21: a dialog's mode and thinking switch (both metadata forms), its usage written as Solveit's
// fold, think blocks read back as thinking parts, `time_run` stamps.
import { strict as assert } from 'node:assert';
import { Dialog, Message, dlg2md, fmt2hist, hist2fmt, thinkingPart, textPart, timeRunStamp, withTimeRun } from '../../src/core';
import {
  Usage,
  dialogCost,
  dialogMode,
  modeSystemPrompt,
  pricedUsage,
  replyMarkdown,
  replyUsage,
  thinkingOn,
  usageBlock,
  usageEnvelope,
  usageFormOf,
  withMode,
  withThinking,
  withTools,
  dialogUsesTools,
} from '../../src/core/answer';

const legacy = { solveit_dialog_mode: 'concise', solveit_ver: 2 };
const dict = { solveit: { mode: 'learning', ver: 2, use_thinking: true, use_tools: true } };

describe('answer: mode and thinking', () => {
  it('reads the mode from both forms, the default when none, an unknown value as standard', () => {
    assert.deepEqual(dialogMode(legacy), { mode: 'concise', form: 'legacy', defaulted: false });
    assert.deepEqual(dialogMode(dict), { mode: 'learning', form: 'dict', defaulted: false });
    assert.deepEqual(dialogMode({}, 'learning'), { mode: 'learning', form: 'none', defaulted: true });
    assert.deepEqual(dialogMode({ solveit: { mode: 'socratic' } }), { mode: 'standard', form: 'dict', unknown: 'socratic', defaulted: false });
  });

  it('writes the mode in the form the file uses; the newer dict for a file with neither', () => {
    assert.deepEqual(withMode(legacy, 'learning'), { solveit_dialog_mode: 'learning', solveit_ver: 2 });
    assert.deepEqual(withMode(dict, 'standard'), { solveit: { ...dict.solveit, mode: 'standard' } });
    assert.deepEqual(withMode({ kernelspec: { name: 'python3' } }, 'concise'), { kernelspec: { name: 'python3' }, solveit: { mode: 'concise', ver: 2 } });
    // An unknown value is kept until a mode is chosen, in its own form.
    assert.deepEqual(withMode({ solveit_dialog_mode: 'odd', solveit_ver: 2 }, 'concise'), legacy);
  });

  it('adds each mode’s own instructions to the system prompt', () => {
    const prompts = (['learning', 'concise', 'standard'] as const).map((m) => modeSystemPrompt('Base.', m));
    assert.equal(new Set(prompts).size, 3);
    for (const p of prompts) assert.ok(p.startsWith('Base.\n\nMode: '), p);
    assert.match(prompts[0], /tutor/);
    assert.match(prompts[1], /terse/);
    assert.match(modeSystemPrompt('', 'standard'), /^Mode: standard/);
  });

  it('thinking: the cell’s flag, else the dialog’s; the toggle leaves the flag out where they agree', () => {
    assert.equal(thinkingOn({}, { use_thinking: true }), true);
    assert.equal(thinkingOn({}, {}), false);
    assert.equal(thinkingOn(dict, {}), true);
    assert.equal(thinkingOn(dict, { use_thinking: false }), false);
    assert.deepEqual(withThinking({}, { pinned: true }, true), { pinned: true, use_thinking: true });
    assert.deepEqual(withThinking({}, { use_thinking: true }, false), {});
    assert.deepEqual(withThinking(dict, {}, false), { use_thinking: false });
    assert.deepEqual(withThinking(dict, { use_thinking: false }, true), {});
  });
});

describe('answer: usage as Solveit writes it', () => {
  const u: Usage = { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, cost: 0.0054 };

  it('writes the token-usage fold with the cost, cached share and model, which reads back and is never sent', () => {
    const fold = usageEnvelope(u, 'claude-sonnet-4-5');
    assert.equal(fold, "<details class='token-usage-details' markdown='1'><summary>$0.0054</summary>\n\n`total=1,200 | in=1,000 | out=200 | cached=0.0% | $0.0054 | claude-sonnet-4-5`\n\n</details>");
    const reply = replyMarkdown([{ role: 'assistant', content: [textPart('Hi.')] }], { usage: u, usageForm: 'details', model: 'claude-sonnet-4-5' });
    assert.equal(reply, `Hi.\n\n${fold}`);
    assert.deepEqual(replyUsage(reply), { ...u, cached_tokens: 0 });
    assert.deepEqual(fmt2hist(reply), fmt2hist('Hi.'));
    assert.equal(dialogCost([new Message({ msgType: 'prompt', output: reply })]).total.cost, 0.0054);
  });

  it('prices a known model from the price list, keeps a provider’s own cost, and none for an unknown model', () => {
    const t = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };
    assert.ok(Math.abs(pricedUsage(t, 'anthropic:claude-sonnet-4-5').cost! - 0.0045) < 1e-9);
    assert.equal(pricedUsage({ ...t, cost: 0.5 }, 'anthropic:claude-sonnet-4-5').cost, 0.5);
    assert.equal(pricedUsage(t, 'anthropic:claude-e2e').cost, undefined);
    assert.equal(pricedUsage(t, 'vscode-lm:copilot-gpt-4o').cost, undefined);
  });

  it('an unknown price: tokens only, no dollar figure', () => {
    const fold = usageEnvelope({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
    assert.equal(fold, "<details class='token-usage-details' markdown='1'><summary>12 tokens</summary>\n\n`total=12 | in=10 | out=2 | cached=0.0%`\n\n</details>");
  });

  it('keeps the form the dialog’s replies use; the fold for a dialog with neither', () => {
    assert.equal(usageFormOf([]), 'details');
    assert.equal(usageFormOf(['plain']), 'details');
    assert.equal(usageFormOf(['a', `b\n\n${usageBlock(u)}`]), 'fenced');
    assert.equal(usageFormOf([`b\n\n${usageBlock(u)}`, `c\n\n${usageEnvelope(u)}`]), 'details');
  });

  it('Compare with Parent’s markdown shows a usage block of fields as text', () => {
    const md = dlg2md(new Dialog([new Message({ id: 'p', msgType: 'prompt', content: 'Q', output: `A.\n\n${usageBlock(u)}` })]));
    assert.match(md, /## \$0\.0054\n\n`total=1,200 \| in=1,000 \| out=200 \| \$0\.0054`/);
  });
});

describe('answer: think blocks and time_run', () => {
  it('a think block reads back as a thinking part (with keepThinking), and the history never has it', () => {
    const msgs = [{ role: 'assistant' as const, content: [thinkingPart('Let me see.\nYes.'), textPart('The answer.')] }];
    const reply = hist2fmt(msgs, 2000, true);
    assert.equal(reply, '<!--think_start-->\n::: details\n\n## Thinking\n\nLet me see.\nYes.\n\n:::\n<!--think_end-->\n\nThe answer.');
    assert.deepEqual(fmt2hist(reply, { keepThinking: true }), [{ role: 'assistant', content: [thinkingPart('Let me see.\nYes.', true), textPart('The answer.')] }]);
    assert.deepEqual(fmt2hist(reply), [{ role: 'assistant', content: [textPart('The answer.')] }]);
  });

  it('stamps time_run as Python’s isoformat in UTC', () => {
    const at = new Date(Date.UTC(2026, 11, 1, 11, 30, 16, 123));
    assert.equal(timeRunStamp(at), '2026-12-01T11:30:16.123000+00:00');
    assert.deepEqual(withTimeRun({ pinned: true }, at), { pinned: true, time_run: '2026-12-01T11:30:16.123000+00:00' });
  });

  it('the tools switch: the dict gets use_tools; an older file keeps its mode and keys, and is as it was once off again', () => {
    assert.equal(dialogUsesTools(dict), true);
    assert.equal(dialogUsesTools(legacy), false);
    const off = withTools(dict, false);
    assert.deepEqual(off, { solveit: { ...dict.solveit, use_tools: false } });
    assert.deepEqual(withTools(off, true), dict);
    const on = withTools({ ...legacy, kernelspec: { name: 'python3' } }, true);
    assert.equal(dialogUsesTools(on), true);
    assert.equal(dialogMode(on).mode, 'concise');
    assert.equal(on.solveit_dialog_mode, 'concise');
    assert.deepEqual(on.kernelspec, { name: 'python3' });
    assert.deepEqual(withTools(on, false), { ...legacy, kernelspec: { name: 'python3' } });
    // A mode chosen while the switch is on stays the mode once it is off.
    const moved = withMode(on, 'standard');
    assert.equal(dialogMode(withTools(moved, false)).mode, 'standard');
    assert.deepEqual(withTools(withTools({}, true), false), {});
    assert.deepEqual(withTools({}, false), {});
  });
});
