// Answering many prompts at once (Dialog: Answer All Prompts…): what the confirmation says before
// anything is sent — how many requests, their estimated tokens and, where the model's list price is
// known, the estimated cost.

import { priceOf } from './price';

export interface BatchEstimate {
  prompts: number;
  /** Input of all the requests: each prompt's history is sent again. */
  inputTokens: number;
  /** Output, estimated as long as the replies the answers replace. */
  outputTokens: number;
}

export interface BatchQuestion {
  message: string;
  detail: string;
  /** Estimated dollars, when the model's price is known. */
  cost?: number;
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const dollars = (x: number) => (x < 0.01 ? '< $0.01' : `$${x.toFixed(2)}`);

/** The confirmation of answering `e.prompts` prompts with `model` (the setting's form). */
export function batchQuestion(model: string, e: BatchEstimate): BatchQuestion {
  const s = e.prompts === 1 ? '' : 's';
  const cost = priceOf(model, { input_tokens: e.inputTokens, output_tokens: e.outputTokens });
  const price =
    cost === undefined
      ? `The price of ${model} is not known here: no cost estimate.`
      : `Estimated cost: about ${dollars(cost)} at ${model}'s list price (output estimated as long as the current replies).`;
  return {
    message: `Answer ${n(e.prompts)} prompt${s} with ${model}?`,
    detail: [
      `${n(e.prompts)} request${s} in order, about ${n(e.inputTokens)} input tokens in all (each prompt is sent with its history).`,
      price,
      `Each new reply replaces the old one as its own undo step; Stop ends the rest.`,
    ].join('\n'),
    cost,
  };
}
