// What Dialog: Answer All Prompts… says before it sends anything: requests, tokens, and the cost where
// the model's price is known (never a guess).
import { strict as assert } from 'node:assert';
import { batchQuestion, priceOf } from '../../src/core/answer';

describe('answer: the Answer All confirmation', () => {
  it('counts the requests and their input tokens, and prices them at the model’s list price', () => {
    const q = batchQuestion('anthropic:claude-sonnet-4-5', { prompts: 3, inputTokens: 120_000, outputTokens: 3_000 });
    assert.equal(q.message, 'Answer 3 prompts with anthropic:claude-sonnet-4-5?');
    assert.equal(q.cost, priceOf('anthropic:claude-sonnet-4-5', { input_tokens: 120_000, output_tokens: 3_000 }));
    assert.ok(q.cost! > 0);
    assert.equal(
      q.detail,
      [
        '3 requests in order, about 120,000 input tokens in all (each prompt is sent with its history).',
        `Estimated cost: about $${q.cost!.toFixed(2)} at anthropic:claude-sonnet-4-5's list price (output estimated as long as the current replies).`,
        'Each new reply replaces the old one as its own undo step; Stop ends the rest.',
      ].join('\n'),
    );
  });

  it('says when the price is not known, and under a cent', () => {
    const q = batchQuestion('vscode-lm:copilot-gpt-4o', { prompts: 1, inputTokens: 10, outputTokens: 0 });
    assert.equal(q.message, 'Answer 1 prompt with vscode-lm:copilot-gpt-4o?');
    assert.equal(q.cost, undefined);
    assert.match(q.detail, /^1 request in order/);
    assert.match(q.detail, /The price of vscode-lm:copilot-gpt-4o is not known here: no cost estimate\./);
    assert.match(batchQuestion('openai:gpt-4o', { prompts: 1, inputTokens: 10, outputTokens: 0 }).detail, /about < \$0\.01/);
  });
});
