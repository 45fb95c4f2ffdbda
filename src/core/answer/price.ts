// What an answer costs in dollars, from the public price list of @pydantic/genai-prices (bundled data, no
// network: pure, so core, the CLI and the browser build can all use it). Only prices the list knows:
// an unknown model, or one reached through the editor's LM API, has no price rather than a guessed one.

import { calcPrice } from '@pydantic/genai-prices';

/** Token counts of one request; `input_tokens` counts all input, cached and cache-written included. */
export interface PriceUsage {
  input_tokens: number;
  output_tokens: number;
  /** Input read from the provider's prompt cache. */
  cached_tokens?: number;
  /** Input written to the provider's prompt cache (Anthropic). */
  cache_write_tokens?: number;
}

/** Providers of the `dialogNotebook.model` setting whose ids are the price list's own. */
const PRICED = new Set(['anthropic', 'openai']);

/** Dollars for `usage` on `model` (the setting's form, `anthropic:claude-sonnet-4-5`), or undefined. */
export function priceOf(model: string, usage: PriceUsage): number | undefined {
  const at = model.indexOf(':');
  const provider = model.slice(0, at).trim();
  const id = model.slice(at + 1).trim();
  if (at <= 0 || !id || !PRICED.has(provider)) return undefined;
  try {
    const r = calcPrice(
      { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, cache_read_tokens: usage.cached_tokens, cache_write_tokens: usage.cache_write_tokens },
      id,
      { providerId: provider },
    );
    return r ? r.total_price : undefined;
  } catch {
    return undefined; // inconsistent counts (more cached than input): no price rather than a wrong one
  }
}

/** Dollars per server-side web search, by provider (Anthropic: $10 per 1,000 searches, on top of the tokens). */
const WEB_SEARCH_PRICES: Record<string, number> = { anthropic: 0.01 };

/** Dollars for `requests` web searches on `model` (the setting's form), or undefined when the provider's price is unknown. */
export function webSearchPrice(model: string, requests: number): number | undefined {
  const each = WEB_SEARCH_PRICES[model.slice(0, Math.max(0, model.indexOf(':'))).trim()];
  return each === undefined ? undefined : each * requests;
}
