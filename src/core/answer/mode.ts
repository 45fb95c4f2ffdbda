// How a dialog's AI works, as Solveit records it in the notebook metadata: the mode (learning, concise,
// standard) and the thinking switch. Two forms exist: `solveit_dialog_mode` beside `solveit_ver: 2`
// (files up to spring 2026) and the newer dict `metadata.solveit = {mode, ver, use_thinking, …}`.
// A mode is read from either, written back in the form the file already uses, and adds its own
// instructions (our words) to the system prompt.

import { JsonObject, isJsonObject } from '../base/json';
import { truthy } from '../model/dialog';

export const MODES = ['learning', 'concise', 'standard'] as const;
export type DialogMode = (typeof MODES)[number];

export function isMode(v: unknown): v is DialogMode {
  return (MODES as readonly unknown[]).includes(v);
}

/** Where a file keeps its mode: the newer dict, the older pair of keys, or nowhere yet. */
export type ModeForm = 'dict' | 'legacy' | 'none';

export interface ModeInfo {
  /** The mode the AI works in (an unknown value counts as standard). */
  mode: DialogMode;
  form: ModeForm;
  /** The value the file holds, when it is not one of the modes (kept in the file as it is). */
  unknown?: string;
  /** True when the file names no mode and the default applies. */
  defaulted: boolean;
}

const LEGACY_KEY = 'solveit_dialog_mode';

function modeForm(meta: JsonObject): ModeForm {
  if (isJsonObject(meta.solveit)) return 'dict';
  return meta[LEGACY_KEY] !== undefined ? 'legacy' : 'none';
}

/** The dialog's mode from its notebook metadata; `fallback` (the setting) when it names none. */
export function dialogMode(meta: JsonObject, fallback: DialogMode = 'standard'): ModeInfo {
  const form = modeForm(meta);
  const raw = form === 'dict' ? (meta.solveit as JsonObject).mode : form === 'legacy' ? meta[LEGACY_KEY] : undefined;
  if (raw === undefined || raw === null || raw === '') return { mode: fallback, form, defaulted: true };
  if (isMode(raw)) return { mode: raw, form, defaulted: false };
  return { mode: 'standard', form, unknown: typeof raw === 'string' ? raw : JSON.stringify(raw), defaulted: false };
}

/**
 * The notebook metadata with `mode` set in the form the file uses: the dict's `mode`, or the older
 * `solveit_dialog_mode` (with `solveit_ver: 2`); a file with neither gets the newer dict.
 */
export function withMode(meta: JsonObject, mode: DialogMode): JsonObject {
  const form = modeForm(meta);
  if (form === 'legacy') return { ...meta, [LEGACY_KEY]: mode, solveit_ver: meta.solveit_ver ?? 2 };
  // A legacy file that got the dict for its tools switch (withTools) keeps both keys in step.
  if (form === 'dict') return { ...meta, ...(meta[LEGACY_KEY] !== undefined ? { [LEGACY_KEY]: mode } : {}), solveit: { ...(meta.solveit as JsonObject), mode } };
  return { ...meta, solveit: { mode, ver: 2 } };
}

/** Whether the model gets the dialog tools on every prompt (Solveit's "Use tools": `metadata.solveit.use_tools`). */
export function dialogUsesTools(meta: JsonObject): boolean {
  const s = meta.solveit;
  return isJsonObject(s) && truthy(s.use_tools);
}

/**
 * The notebook metadata with the tools switch `on`, every other key kept. The newer dict gets
 * `use_tools`; a file in the older form gets the dict beside its keys, holding its mode (so the mode
 * reads the same), and loses it again when the switch goes off (the file as it was).
 */
export function withTools(meta: JsonObject, on: boolean): JsonObject {
  const form = modeForm(meta);
  const dict = isJsonObject(meta.solveit) ? (meta.solveit as JsonObject) : undefined;
  if (on) {
    if (dict) return { ...meta, solveit: { ...dict, use_tools: true } };
    return { ...meta, solveit: form === 'legacy' ? { mode: meta[LEGACY_KEY], use_tools: true } : { use_tools: true } };
  }
  if (!dict || dict.use_tools === undefined) return meta;
  const { use_tools: _, ...rest } = dict;
  const onlyOurs = Object.keys(rest).every((k) => k === 'mode') && (meta[LEGACY_KEY] !== undefined ? rest.mode === meta[LEGACY_KEY] : rest.mode === undefined);
  if (onlyOurs) {
    const { solveit: __, ...others } = meta;
    return others;
  }
  return { ...meta, solveit: { ...dict, use_tools: false } };
}

const INSTRUCTIONS: Record<DialogMode, string> = {
  learning:
    'Mode: learning. Act as a patient tutor. Go in small steps and check understanding before moving on; ' +
    'ask the user questions back rather than handing over whole solutions. Give little code at a time, ' +
    'a line or a few, and let the user write and run it.',
  concise:
    'Mode: concise. Be terse and lead with code: short, idiomatic snippets with as few words as needed. ' +
    'Do not run or simulate the code yourself; leave running it to the user and wait for their results.',
  standard: 'Mode: standard. Act as an ordinary helpful assistant: answer fully and clearly.',
};

export function modeInstructions(mode: DialogMode): string {
  return INSTRUCTIONS[mode];
}

/** The system prompt sent for a dialog in `mode`: the base prompt (possibly empty), then the mode's instructions. */
export function modeSystemPrompt(base: string, mode: DialogMode): string {
  const add = modeInstructions(mode);
  return base.trim() ? `${base.trimEnd()}\n\n${add}` : add;
}

/** Whether the dialog asks for thinking on every prompt (`metadata.solveit.use_thinking`). */
export function dialogThinking(dialogMeta: JsonObject): boolean {
  const s = dialogMeta.solveit;
  return isJsonObject(s) && truthy(s.use_thinking);
}

/**
 * Whether a prompt is answered with thinking: its cell flag `use_thinking` when the cell has one (Solveit
 * writes only `true`; our toggle writes `false` to turn a dialog-wide switch off for one prompt), else
 * the dialog's switch.
 */
export function thinkingOn(dialogMeta: JsonObject, cellMeta: JsonObject): boolean {
  return cellMeta.use_thinking !== undefined ? truthy(cellMeta.use_thinking) : dialogThinking(dialogMeta);
}

/** The cell metadata with thinking switched to `on`: the flag is left out where the dialog's switch says the same. */
export function withThinking(dialogMeta: JsonObject, cellMeta: JsonObject, on: boolean): JsonObject {
  const { use_thinking: _, ...rest } = cellMeta;
  return on === dialogThinking(dialogMeta) ? rest : { ...rest, use_thinking: on };
}
