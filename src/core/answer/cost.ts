// Token usage of answers (seed 004's `message.cost` / `dialog.cost`): what the provider reported for one
// answer, written into the reply as a ```json {.usage}``` block (reply-format §4), and summed over a
// dialog from those blocks, so the total survives closing the file and follows reruns and deletions.

import { priceOf, webSearchPrice } from './price';
import { numberValue, parseJsonObject } from '../base';
import { Dialog, Message } from '../model';
import { renderOutputsAi } from '../hist';
import { TOKEN_TAG, USAGE_INFO, convTools, fenced, fencedBlocks, pyJsonDumps } from '../reply';

/** One answer's usage in the usage-block field names; `prompt_tokens` includes cached input. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Input read from the provider's prompt cache. */
  cached_tokens?: number;
  /** Input written to the provider's prompt cache (Anthropic). */
  cache_creation_tokens?: number;
  /** Output spent on reasoning (part of `completion_tokens`). */
  reasoning_tokens?: number;
  /** Searches of the provider's server-side web search (Anthropic's `server_tool_use`), priced apart from tokens. */
  web_search_requests?: number;
  /** Dollars, when the provider reports them (OpenRouter, LiteLLM proxies). */
  cost?: number;
}

const OPTIONAL = ['cached_tokens', 'cache_creation_tokens', 'reasoning_tokens', 'web_search_requests', 'cost'] as const;

/**
 * `u` with its dollar cost: the provider's own when it reported one, else from the price list for
 * `model` (the setting's `provider:id` form); an unknown model keeps tokens only.
 */
export function pricedUsage(u: Usage, model: string): Usage {
  if (u.cost !== undefined) return u;
  const tokens = priceOf(model, { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens, cached_tokens: u.cached_tokens, cache_write_tokens: u.cache_creation_tokens });
  const searches = u.web_search_requests ? webSearchPrice(model, u.web_search_requests) : 0;
  const cost = tokens === undefined || searches === undefined ? undefined : tokens + searches;
  // To a hundred-millionth of a dollar: float noise (0.0045000000000000005) has no place in a reply.
  return cost === undefined ? u : { ...u, cost: Math.round(cost * 1e8) / 1e8 };
}

export function noUsage(): Usage {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}

/** `a + b`, field by field; optional fields appear when either side has them. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
  for (const k of OPTIONAL) if (a[k] !== undefined || b[k] !== undefined) sum[k] = (a[k] ?? 0) + (b[k] ?? 0);
  return sum;
}

/** The usage block a reply ends with: compact JSON (Python's `json.dumps` layout), zero extras left out. */
export function usageBlock(u: Usage): string {
  const o: Record<string, number> = { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens };
  for (const k of OPTIONAL) if (u[k]) o[k] = u[k]!;
  return fenced(pyJsonDumps(o), USAGE_INFO);
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');

/** The legacy envelope's summary: `$0.0012` when the cost is known, else `1,234 tokens`. */
export function usageSummary(u: Usage): string {
  return u.cost !== undefined ? `$${u.cost.toFixed(4)}` : `${n(u.total_tokens)} tokens`;
}

/** The legacy envelope's detail line: `total=23,276 | in=23,158 | out=118 | cached=81.8%`, extras, the model. */
export function usageDetail(u: Usage, model?: string): string {
  const f = [`total=${n(u.total_tokens)}`, `in=${n(u.prompt_tokens)}`, `out=${n(u.completion_tokens)}`];
  if (u.cached_tokens !== undefined && u.prompt_tokens > 0) f.push(`cached=${((100 * u.cached_tokens) / u.prompt_tokens).toFixed(1)}%`);
  if (u.cache_creation_tokens) f.push(`cache_new=${n(u.cache_creation_tokens)}`);
  if (u.reasoning_tokens) f.push(`reasoning=${n(u.reasoning_tokens)}`);
  if (u.web_search_requests) f.push(`web_search=${n(u.web_search_requests)}`);
  if (u.cost !== undefined) f.push(`$${u.cost.toFixed(4)}`);
  if (model) f.push(model);
  return f.join(' | ');
}

/** The two forms a reply records its usage in: Solveit's `<details>` fold, or the fenced block. */
export type UsageForm = 'details' | 'fenced';

/**
 * Solveit's token-usage fold (reply-format §10): the cost as its summary, the detail line inside, with
 * the cached share always shown and the model last. The tokens only when the cost is unknown.
 */
export function usageEnvelope(u: Usage, model?: string): string {
  const detail = usageDetail({ ...u, cached_tokens: u.cached_tokens ?? 0 }, model);
  return `${TOKEN_TAG}<summary>${usageSummary(u)}</summary>\n\n\`${detail}\`\n\n</details>`;
}

/** The usage record of a new reply in `form`. */
export function usageRecord(u: Usage, form: UsageForm, model?: string): string {
  return form === 'details' ? usageEnvelope(u, model) : usageBlock(u);
}

/**
 * The form a dialog's replies record usage in: that of the last reply recording any (in dialog order);
 * none does: the `<details>` fold most real dialogs use (DECISIONS, "reply wire format").
 */
export function usageFormOf(replies: Iterable<string>): UsageForm {
  let form: UsageForm = 'details';
  for (const r of replies) {
    const details = r.lastIndexOf('token-usage-details');
    const fenced = r.lastIndexOf(USAGE_INFO);
    if (details >= 0 || fenced >= 0) form = fenced > details ? 'fenced' : 'details';
  }
  return form;
}

const count = (s: string) => Number(s.replace(/,/g, ''));

/** A legacy `{summary, detail}` pair back as numbers (cached tokens from their percentage). */
function legacyUsage(summary: unknown, detail: unknown): Usage | null {
  const u = noUsage();
  let seen = false;
  for (const field of String(detail ?? '').split('|').map((s) => s.trim())) {
    const kv = /^(\w+)=([\d,.]+)(%?)$/.exec(field);
    const dollars = /^\$([\d.]+)$/.exec(field);
    if (dollars) u.cost = Number(dollars[1]);
    if (!kv) continue;
    seen = true;
    const v = count(kv[2]);
    if (kv[1] === 'total') u.total_tokens = v;
    else if (kv[1] === 'in') u.prompt_tokens = v;
    else if (kv[1] === 'out') u.completion_tokens = v;
    else if (kv[1] === 'cache_new') u.cache_creation_tokens = v;
    else if (kv[1] === 'reasoning') u.reasoning_tokens = v;
    else if (kv[1] === 'web_search') u.web_search_requests = v;
    else if (kv[1] === 'cached' && kv[3]) u.cached_tokens = Math.round((u.prompt_tokens * v) / 100);
  }
  const cost = /^\$([\d.]+)$/.exec(String(summary ?? '').trim());
  if (cost && u.cost === undefined) u.cost = Number(cost[1]);
  if (!u.total_tokens) u.total_tokens = u.prompt_tokens + u.completion_tokens;
  return seen || u.cost !== undefined ? u : null;
}

/** One usage block's body: usage fields, or the `{summary, detail}` of a converted legacy envelope. */
export function parseUsage(body: string): Usage | null {
  const v = parseJsonObject(body);
  if (!v) return null;
  if (v.prompt_tokens === undefined && v.completion_tokens === undefined) return legacyUsage(v.summary, v.detail);
  const u: Usage = { prompt_tokens: numberValue(v.prompt_tokens) ?? 0, completion_tokens: numberValue(v.completion_tokens) ?? 0, total_tokens: 0 };
  u.total_tokens = numberValue(v.total_tokens) ?? u.prompt_tokens + u.completion_tokens;
  for (const k of OPTIONAL) {
    const x = numberValue(v[k]);
    if (x !== undefined) u[k] = x;
  }
  return u;
}

/** The usage a reply records (its usage blocks summed; legacy token envelopes count), or null. */
export function replyUsage(reply: string): Usage | null {
  const text = reply.includes('token-usage-details') ? convTools(reply) : reply;
  if (!text.includes(USAGE_INFO)) return null;
  let total: Usage | null = null;
  for (const b of fencedBlocks(text)) {
    const u = b.info === USAGE_INFO ? parseUsage(b.body) : null;
    if (u) total = total ? addUsage(total, u) : u;
  }
  return total;
}

export interface DialogCost {
  /** Usage of every answered prompt, summed (`dialog.cost`). */
  total: Usage;
  /** The last prompt (in dialog order) whose reply records usage. */
  last: Usage | null;
  /** How many replies record usage. */
  answers: number;
}

/** Each prompt's usage while its output is the same (`version`): a status bar sums them after every change. */
const usages = new WeakMap<Message, { version: number; usage: Usage | null }>();
function promptUsage(m: Message): Usage | null {
  const hit = usages.get(m);
  if (hit?.version === m.version) return hit.usage;
  const usage = replyUsage(renderOutputsAi(m.output));
  usages.set(m, { version: m.version, usage });
  return usage;
}

/** `dialog.cost`: the usage recorded in every prompt's reply. */
export function dialogCost(d: Dialog | readonly Message[]): DialogCost {
  const res: DialogCost = { total: noUsage(), last: null, answers: 0 };
  for (const m of d instanceof Dialog ? d.messages : d) {
    const u = m.msgType === 'prompt' ? promptUsage(m) : null;
    if (!u) continue;
    res.total = addUsage(res.total, u);
    res.last = u;
    res.answers++;
  }
  return res;
}
