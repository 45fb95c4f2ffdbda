// AI inside a cell, the pure part: ghost text (a completion at the cursor, fill in the middle) and Edit
// with AI (a rewrite of a selection by instruction). Both ask with the history a prompt in the cell's
// place would send: the messages before the cell, then one request prompt of our own, planned by the
// context policy as a prompt's history is (newest kept within the budget). The model's answer is taken
// as the insertion or the rewrite only, without the fences models like to wrap code in.

import { Message } from '../model';
import { ContextOptions, ContextPlan, SAFETY_TOKENS, contextPlan } from './contextPolicy';

/** The id of the request prompt put in the cell's place (never a cell's: ids are 8 hex digits or more). */
export const INLINE_PROMPT_ID = '_inline_request_';

/** What the cell is: the request says so, and a code cell's language. */
export interface InlineCell {
  /** `code`, `note`, `prompt` (the request of a prompt), `reply` (a prompt's reply, through Edit Reply), `raw`. */
  kind: string;
  /** The code cell's language (python …). */
  language?: string;
}

/** The cell's text around the cursor (ghost text) or around the selection (Edit with AI). */
export interface InlineText {
  before: string;
  after: string;
}

/** The longest text kept on either side of the cursor, in UTF-16 units: the nearest text matters most. */
export const MAX_BEFORE_CHARS = 16_000;
export const MAX_AFTER_CHARS = 4_000;

/** Appended to the dialog's system prompt: the answer goes into the cell as it is. */
export const INLINE_SYSTEM =
  'You are also an editor inside the user’s notebook: when asked for an insertion or a rewrite, answer with exactly that text and nothing else, ' +
  'no explanation, no Markdown code fence around it.';

const CURSOR = '<CURSOR/>';

function describe(cell: InlineCell): string {
  switch (cell.kind) {
    case 'code':
      return `a ${cell.language || 'code'} code cell`;
    case 'note':
      return 'a Markdown note';
    case 'prompt':
      return 'a prompt (a request to the AI)';
    case 'reply':
      return 'the AI’s reply to the prompt above';
    default:
      return `a ${cell.kind} cell`;
  }
}

/** `s` without a cut surrogate pair at either end. */
function whole(s: string): string {
  const c = s.charCodeAt(0);
  if (c >= 0xdc00 && c <= 0xdfff) s = s.slice(1);
  const d = s.charCodeAt(s.length - 1);
  if (d >= 0xd800 && d <= 0xdbff) s = s.slice(0, -1);
  return s;
}

/** The text around the cursor cut to the limits: the end of what is before, the start of what is after. */
export function nearText(t: InlineText): InlineText {
  return {
    before: t.before.length > MAX_BEFORE_CHARS ? whole(t.before.slice(-MAX_BEFORE_CHARS)) : t.before,
    after: t.after.length > MAX_AFTER_CHARS ? whole(t.after.slice(0, MAX_AFTER_CHARS)) : t.after,
  };
}

/** The request of ghost text: the cell with the cursor marked, and what to answer. */
export function completionRequest(cell: InlineCell, text: InlineText): string {
  const t = nearText(text);
  return (
    `I am writing ${describe(cell)} at this point of the dialog. Here is its text, with ${CURSOR} where my cursor is:\n\n` +
    `<cell>${t.before}${CURSOR}${t.after}</cell>\n\n` +
    `Continue my writing at the cursor: answer with only the text to insert there (it may span lines), fitting what comes after it. ` +
    `Do not repeat the text before the cursor. Keep it short: finish the current line or thought, at most a few lines.`
  );
}

/** The request of Edit with AI: the text to rewrite, the cell around it, the instruction. */
export function editRequest(cell: InlineCell, text: InlineText & { selected: string }, instruction: string): string {
  const t = nearText(text);
  const around = t.before || t.after ? `It sits in this text of the cell, where ${CURSOR} marks its place:\n\n<cell>${t.before}${CURSOR}${t.after}</cell>\n\n` : '';
  return (
    `Rewrite part of ${describe(cell)} at this point of the dialog. The text to rewrite:\n\n<text>${text.selected}</text>\n\n${around}` +
    `Instruction: ${instruction}\n\nAnswer with only the rewritten text, which replaces the text above as it is.`
  );
}

export interface InlineLimits {
  /** `dialogNotebook.ghostText.maxContextTokens` (Edit with AI: the model's window). */
  maxContextTokens: number;
  /** The model's input window. */
  maxInputTokens: number;
  /** Tokens reserved for the answer. */
  replyTokens: number;
}

/**
 * Plans an inline request: `history` (the messages before the cell, as saved) then the request prompt, cut
 * to fit `maxContextTokens` and the model's window, whichever is less (the request itself is always sent).
 * The plan's chat ends with the request's user turn.
 */
export function inlinePlan(history: readonly Message[], request: string, limits: InlineLimits, opts: ContextOptions = {}): ContextPlan {
  const prompt = new Message({ id: INLINE_PROMPT_ID, msgType: 'prompt', content: request });
  const window = limits.maxInputTokens - limits.replyTokens - SAFETY_TOKENS;
  const budget = Math.max(1, Math.min(limits.maxContextTokens, window));
  return contextPlan([...history, prompt], INLINE_PROMPT_ID, { maxInputTokens: budget, replyTokens: 0, safetyTokens: 0 }, opts);
}

const FENCED = /^\s*(`{3,}|~{3,})[^\n`]*\n([\s\S]*?)\n?\1\s*$/;

/** The text in the model's answer: one fence around all of it is taken off, unless the original was fenced too. */
function unfenced(answer: string, original: string): string {
  const m = FENCED.exec(answer);
  return m && !FENCED.test(original) ? m[2] : answer;
}

/**
 * The ghost text from the model's answer: unfenced; without a repeat of the line before the cursor
 * (models often restate it); without trailing blank lines when the cursor ends its line already.
 */
export function cleanCompletion(answer: string, text: InlineText): string {
  let s = unfenced(answer, '');
  const line = text.before.slice(text.before.lastIndexOf('\n') + 1);
  if (line.trim() && s.startsWith(line)) s = s.slice(line.length);
  if (!text.after || text.after.startsWith('\n')) s = s.replace(/\s+$/, '');
  return s;
}

/** The rewrite from the model's answer: unfenced (unless the text was), with the text's own trailing newline. */
export function cleanRewrite(answer: string, selected: string): string {
  let s = unfenced(answer, selected);
  const ends = /\n$/.test(selected);
  s = s.replace(/\n+$/, '');
  return ends ? `${s}\n` : s;
}
