// Which model answers: the `dialogNotebook.model` setting (`<provider>:<model id>`) read and written, and
// what is known offline about the usual models (input window) for the context policy. No vscode import.

import type { ProviderId } from './providers/provider';

export const PROVIDERS: readonly ProviderId[] = ['anthropic', 'openai', 'vscode-lm'];
/** An unknown model's input window: small enough for most current models. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

export interface ModelChoice {
  provider: ProviderId;
  /** The provider's own id (for `vscode-lm`, the LM API model id). */
  model: string;
}

/** `anthropic:claude-…` → its parts; null when the provider is unknown or the id empty. */
export function parseModel(setting: string): ModelChoice | null {
  const at = setting.indexOf(':');
  const provider = setting.slice(0, at).trim() as ProviderId;
  const model = setting.slice(at + 1).trim();
  return at > 0 && PROVIDERS.includes(provider) && model ? { provider, model } : null;
}

export function modelSetting(c: ModelChoice): string {
  return `${c.provider}:${c.model}`;
}

/**
 * Models offered by Select Model besides the editor's own, newest first, with their input windows (none
 * past its end of life: the Anthropic SDK warns of `claude-sonnet-4-5`'s, 30 November 2026).
 */
export const KNOWN_MODELS: readonly { provider: 'anthropic' | 'openai'; model: string; window: number }[] = [
  { provider: 'anthropic', model: 'claude-sonnet-5-5', window: 200_000 },
  { provider: 'anthropic', model: 'claude-opus-5-5', window: 200_000 },
  { provider: 'anthropic', model: 'claude-haiku-4-5', window: 200_000 },
  { provider: 'anthropic', model: 'claude-sonnet-4-6', window: 200_000 },
  { provider: 'openai', model: 'gpt-5', window: 272_000 },
  { provider: 'openai', model: 'gpt-5-mini', window: 272_000 },
  { provider: 'openai', model: 'gpt-4.1', window: 1_047_576 },
  { provider: 'openai', model: 'gpt-4o', window: 128_000 },
  { provider: 'openai', model: 'o3', window: 200_000 },
];

/** Families whose dated or suffixed ids share a window (`claude-3-5-sonnet-20241022`, `gpt-4o-mini`). */
const FAMILIES: readonly [RegExp, number][] = [
  [/^claude-/, 200_000],
  [/^gpt-5/, 272_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^(gpt-4o|gpt-4-turbo)/, 128_000],
  [/^o\d/, 200_000],
];

/** The input window of a model known offline, else `DEFAULT_CONTEXT_WINDOW`. */
export function knownWindow(model: string): number {
  const id = model.replace(/^.*\//, ''); // OpenRouter-style `anthropic/claude-…`
  const exact = KNOWN_MODELS.find((m) => m.model === id);
  if (exact) return exact.window;
  return FAMILIES.find(([re]) => re.test(id))?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}
