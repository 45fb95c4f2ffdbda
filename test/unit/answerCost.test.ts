// Usage of answers (seed 004's cost): the usage block a reply records, and the dialog's total.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Dialog, Message, fmt2hist, readIpynb } from '../../src/core';
import { Usage, addUsage, dialogCost, noUsage, replyUsage, usageBlock, usageDetail, usageSummary } from '../../src/core/answer';
import { SHARED, corpusFiles } from './corpus';

const u1: Usage = { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, cached_tokens: 800 };
const u2: Usage = { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55, reasoning_tokens: 3, cost: 0.0012 };

describe('answer: usage and cost', () => {
  it('adds field by field, optional fields when either side has them', () => {
    assert.deepEqual(addUsage(u1, u2), { prompt_tokens: 1050, completion_tokens: 205, total_tokens: 1255, cached_tokens: 800, reasoning_tokens: 3, cost: 0.0012 });
    assert.deepEqual(addUsage(noUsage(), noUsage()), noUsage());
  });

  it('writes the usage block of reply-format §4, which fmt2hist drops and replyUsage reads back', () => {
    const block = usageBlock(u1);
    assert.equal(block, '```json {.usage}\n{"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200, "cached_tokens": 800}\n```');
    const reply = `The answer.\n\n${block}`;
    assert.deepEqual(fmt2hist(reply), fmt2hist('The answer.'));
    assert.deepEqual(replyUsage(reply), u1);
    assert.equal(replyUsage('No usage here.'), null);
  });

  it('summary and detail as the legacy token envelope shows them', () => {
    assert.equal(usageSummary(u1), '1,200 tokens');
    assert.equal(usageSummary(u2), '$0.0012');
    assert.equal(usageDetail(u1), 'total=1,200 | in=1,000 | out=200 | cached=80.0%');
    assert.equal(usageDetail(u2), 'total=55 | in=50 | out=5 | reasoning=3 | $0.0012');
  });

  it('reads converted legacy blocks and legacy envelopes', () => {
    const synthetic = readIpynb(readFileSync(join(SHARED, 'corpus/synthetic/tools.ipynb'), 'utf8'), 'tools');
    const c = dialogCost(synthetic);
    assert.equal(c.answers, 1);
    assert.deepEqual(c.total, { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30, cost: 0.0012 });
    const envelope =
      "Hi.\n\n<details class='token-usage-details' markdown='1'><summary>$0.0034</summary>\n\n`total=99,897 | in=99,854 | out=43 | cached=93.3% | reasoning=15 | $0.0034`\n\n</details>\n";
    assert.deepEqual(replyUsage(envelope), { prompt_tokens: 99_854, completion_tokens: 43, total_tokens: 99_897, cached_tokens: 93_164, reasoning_tokens: 15, cost: 0.0034 });
  });

  it('dialog.cost sums every answered prompt; the last is the last in the dialog', () => {
    const d = new Dialog([
      new Message({ id: 'p1', msgType: 'prompt', content: 'a', output: `one\n\n${usageBlock(u1)}` }),
      new Message({ id: 'n', msgType: 'note', content: usageBlock(u2) }),
      new Message({ id: 'p2', msgType: 'prompt', content: 'b', output: 'unanswered cost' }),
      new Message({ id: 'p3', msgType: 'prompt', content: 'c', output: `two\n\n${usageBlock(u2)}` }),
    ]);
    assert.deepEqual(dialogCost(d), { total: addUsage(u1, u2), last: u2, answers: 2 });
  });

  it('finds the usage recorded in the public corpus (legacy envelopes)', () => {
    let answers = 0;
    let tokens = 0;
    for (const f of corpusFiles(['public'])) {
      let d: Dialog;
      try {
        d = readIpynb(readFileSync(f.path, 'utf8'), f.stem);
      } catch {
        continue;
      }
      const c = dialogCost(d);
      answers += c.answers;
      tokens += c.total.total_tokens;
      assert.ok(c.total.total_tokens >= c.total.prompt_tokens, f.stem);
    }
    assert.ok(answers > 100, `${answers} answers with usage`);
    assert.ok(tokens > 1_000_000, `${tokens} tokens`);
  });
});
