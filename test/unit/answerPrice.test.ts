// What an answer costs: priceOf over the bundled price list of @pydantic/genai-prices.
import { strict as assert } from 'node:assert';
import { priceOf } from '../../src/core/answer';

const near = (a: number | undefined, b: number) => assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

describe('answer: price', () => {
  it('prices known Anthropic and OpenAI models per million tokens, input and output', () => {
    near(priceOf('anthropic:claude-sonnet-4-5', { input_tokens: 1000, output_tokens: 1000 }), 0.003 + 0.015);
    near(priceOf('openai:gpt-4o', { input_tokens: 1000, output_tokens: 1000 }), 0.0025 + 0.01);
    near(priceOf('anthropic:claude-sonnet-4-5', { input_tokens: 0, output_tokens: 0 }), 0);
  });

  it('prices cached input at the cache rates (part of input_tokens)', () => {
    const plain = priceOf('anthropic:claude-sonnet-4-5', { input_tokens: 100_000, output_tokens: 0 })!;
    const read = priceOf('anthropic:claude-sonnet-4-5', { input_tokens: 100_000, output_tokens: 0, cached_tokens: 100_000 })!;
    const write = priceOf('anthropic:claude-sonnet-4-5', { input_tokens: 100_000, output_tokens: 0, cache_write_tokens: 100_000 })!;
    assert.ok(read < plain && plain < write, `${read} < ${plain} < ${write}`);
  });

  it('has no price for unknown models, the editor LM API or malformed settings, never a guess', () => {
    const u = { input_tokens: 1000, output_tokens: 1000 };
    assert.equal(priceOf('anthropic:claude-nonexistent-9', u), undefined);
    assert.equal(priceOf('openai:claude-sonnet-4-5', u), undefined); // the provider decides, not the name
    assert.equal(priceOf('openai:anthropic/claude-sonnet-4.5', u), undefined); // an OpenRouter-style id
    assert.equal(priceOf('vscode-lm:copilot-gpt-4o', u), undefined);
    assert.equal(priceOf('claude-sonnet-4-5', u), undefined);
    assert.equal(priceOf('anthropic:', u), undefined);
  });

  it('has no price for inconsistent counts (more cached than input)', () => {
    assert.equal(priceOf('anthropic:claude-sonnet-4-5', { input_tokens: 10, output_tokens: 0, cached_tokens: 20 }), undefined);
  });
});
