// The model the settings name, made ready to answer: its provider (with its key and base URL), its
// input window and whether it takes images. The window of an editor-provided model is remembered, so
// the History tab (built synchronously) plans with the same limits as the last answer.

import type { AimInfo } from '../../core/hist';
import { config } from '../config';
import { platform } from '../platform';
import { ApiKeys } from './keys';
import { ModelChoice, knownWindow, parseModel } from './models';
import { AnthropicProvider } from './providers/anthropic';
import { OpenAIProvider } from './providers/openai';
import { AnswerError, AnswerProvider } from './providers/provider';
import { VscodeLmProvider } from './providers/vscodeLm';

export interface ModelLimits {
  /** The `dialogNotebook.model` value the limits are for. */
  setting: string;
  choice: ModelChoice | null;
  maxInputTokens: number;
  maxTokens: number;
  /** Images go as image parts (the LM API of VS Code 1.90 takes text only). */
  vision: boolean;
}

export interface ResolvedModel extends ModelLimits {
  choice: ModelChoice;
  provider: AnswerProvider;
}

/** What the history may carry for a model of these limits: everything, or no images for one without vision. */
export const modelAim = (limits: Pick<ModelLimits, 'vision'>): AimInfo | null => (limits.vision ? null : { supports_vision: false });

/** Input windows the LM API reported, by model id. */
const lmWindows = new Map<string, number>();

/** The limits the settings give now for `setting` (default `dialogNotebook.model`), without asking any provider. */
export function modelLimits(setting = config.model): ModelLimits {
  const choice = parseModel(setting);
  const fromModel = !choice ? knownWindow('') : choice.provider === 'vscode-lm' ? (lmWindows.get(choice.model) ?? knownWindow(choice.model)) : knownWindow(choice.model);
  return { setting, choice, maxInputTokens: config.contextWindow || fromModel, maxTokens: config.maxReplyTokens, vision: choice?.provider !== 'vscode-lm' };
}

/** The last API provider made, with what it was made from: its SDK client (and connections) serve the next answers too. */
let last: { key: string; provider: AnswerProvider } | undefined;

/** The provider for `setting` (default the model the settings name); throws `AnswerError` (`no-model`, `no-key`) when there is none. */
export async function resolveModel(keys: ApiKeys, setting = config.model): Promise<ResolvedModel> {
  const limits = modelLimits(setting);
  const choice = limits.choice;
  if (!choice) throw new AnswerError('no-model', `dialogNotebook.model is '${limits.setting}': expected '<provider>:<model id>' with provider anthropic, openai or vscode-lm.`);
  let provider: AnswerProvider;
  if (choice.provider === 'vscode-lm') {
    const lm = await VscodeLmProvider.select(choice.model);
    if (lm.maxInputTokens > 0) lmWindows.set(choice.model, lm.maxInputTokens);
    provider = lm;
  } else {
    const apiKey = await keys.get(choice.provider);
    const baseUrl = config.baseUrl(choice.provider);
    const host = platform().kind;
    const key = JSON.stringify([choice.provider, apiKey, baseUrl, host]);
    if (last?.key !== key) last = { key, provider: choice.provider === 'anthropic' ? new AnthropicProvider({ apiKey, baseUrl, host }) : new OpenAIProvider({ apiKey, baseUrl, host }) };
    provider = last.provider;
  }
  return { ...modelLimits(setting), choice, provider };
}
