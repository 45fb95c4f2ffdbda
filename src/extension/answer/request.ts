// What is sent to answer a prompt of an open dialog, built in ONE place for the answer and for the
// History tab, so the tab shows the very request: the saved form of the dialog (exploded replies
// imploded), the system prompt, the model's limits and the images as the model gets them.

import * as vscode from 'vscode';
import { ContextPlan, ModeInfo, PlanPreview, contextPlan, dialogMode, dialogUsesTools, modeSystemPrompt, planPreview } from '../../core/answer';
import { DIALOG_TOOLS } from '../../core/tools';
import { Dialog } from '../../core/model';
import { AimInfo, CraftContext, FileRefs, PreviewMode, craftNotes, tokenEstimate } from '../../core/hist';
import { savedDialog } from '../../core/reply';
import { config } from '../config';
import { dialogOf } from '../document/dialogCache';
import { craftFor } from '../craft/cache';
import { DialogMedia, dialogMedia } from '../media/dialogMedia';
import { promptRefs } from './kernelRefs';
import { offeredHistory } from './providers/wire';
import { ApiKeys } from './keys';
import { ModelLimits, ResolvedModel, modelAim, resolveModel } from './resolve';

export { modelAim, modelLimits } from './resolve';

/** Images scaled down and `#ai` files read: what `dlg2chat` looks up synchronously. */
export type RequestMedia = DialogMedia;

/** The saved form of each dialog version (`dialogOf` gives one Dialog per version). */
const saved = new WeakMap<Dialog, Dialog>();
function savedOf(d: Dialog): Dialog {
  let s = saved.get(d);
  if (!s) saved.set(d, (s = savedDialog(d)));
  return s;
}

export interface PlannedRequest {
  /** The dialog as a save would write it, which the plan is made from. */
  dialog: Dialog;
  plan: ContextPlan;
  system: string;
  /** The dialog's mode, whose instructions the system prompt ends with. */
  mode: ModeInfo;
}

const planOptions = (limits: ModelLimits, media: RequestMedia) => ({ aim: modelAim(limits), hist: media });

/**
 * Plans the request for `promptId` (throws DialogError when it is not a prompt that can be answered). The
 * values of its ``$`expr` `` references are not in the plan: only the kernel has them, read when the prompt
 * is answered (promptKernel.ts), so the History tab shows the references unevaluated, as prompt text.
 */
export function planRequest(d: Dialog, promptId: string, limits: ModelLimits, media: RequestMedia = {}): PlannedRequest {
  const dialog = savedOf(d);
  const { system, mode } = systemPrompt(dialog);
  // The same dialog version, prompt, window, system prompt and media as the last plan of it (the
  // warm-up's, then the answer's): that plan. `#ai` files are read afresh for each request.
  const key = [promptId, limits.maxInputTokens, limits.maxTokens, limits.vision, system, mode.mode, media.images, media.images?.version];
  const last = planned.get(dialog);
  if (last && !media.files?.size && last.key.every((v, k) => v === key[k])) return last.req;
  const plan = contextPlan(dialog, promptId, { maxInputTokens: limits.maxInputTokens, replyTokens: limits.maxTokens }, { system: system || undefined, ...planOptions(limits, media) });
  const req = { dialog, plan, system, mode };
  if (!media.files?.size) planned.set(dialog, { key, req });
  return req;
}

/** The last request planned from each saved dialog, with what it was planned for. Read-only, like the dialog. */
const planned = new WeakMap<Dialog, { key: unknown[]; req: PlannedRequest }>();

/** The system prompt for `d`: the setting's, then the instructions of the dialog's mode (its metadata, else `dialogNotebook.defaultMode`). */
export function systemPrompt(d: Dialog): { system: string; mode: ModeInfo } {
  const mode = dialogMode(d.meta, config.defaultMode);
  return { system: modeSystemPrompt(config.systemPrompt, mode.mode), mode };
}

/**
 * The History tab's preview of a planned request, with the whole system prompt. Its `chat` view is the
 * request's messages as the wire sends them: past calls of tools the prompt does not offer (its ``&`fn` ``,
 * the dialog tools with Use tools on) as text (offeredHistory).
 */
export function requestPreview(req: PlannedRequest, mode: PreviewMode, limits: ModelLimits, media: RequestMedia = {}): PlanPreview & { model: string; system: string; systemTokens: number } {
  const offered = [...promptRefs(req.plan.messages).tools, ...(dialogUsesTools(req.dialog.meta) ? DIALOG_TOOLS.map((t) => t.name) : [])].map((name) => ({ name }));
  const plan = { ...req.plan, chat: offeredHistory(req.plan.chat, offered) };
  const preview = planPreview(req.dialog, plan, mode, planOptions(limits, media));
  return { ...preview, model: limits.setting, system: req.system, systemTokens: tokenEstimate(req.system) };
}

/** The limits left for the dialog's own messages once its CRAFT context (sent before them) took its room. */
export function craftLimits(limits: ModelLimits, craft: CraftContext): ModelLimits {
  return craft.tokens ? { ...limits, maxInputTokens: limits.maxInputTokens - craft.tokens } : limits;
}

/** A preview with the CRAFT turns before the dialog's, and a note for each CRAFT file that could not be read. */
export function craftPreview<P extends PlanPreview>(preview: P, craft: CraftContext): P {
  if (!craft.turns.length && !craft.unreadable.length) return preview;
  const turns = [...craft.turns, ...preview.turns];
  const notes = craftNotes(craft);
  if (notes.length && turns.length) turns[0] = { ...turns[0], parts: [...notes, ...turns[0].parts] };
  return { ...preview, turns, total: preview.total + craft.tokens, budget: preview.budget + craft.tokens };
}

/** The media of the request for `d` (the dialog of `nb` as it is now, by default): its `#ai` files read and its images scaled down, as the panel shows them. */
export function requestMedia(nb: vscode.NotebookDocument, d: Dialog = dialogOf(nb)): Promise<RequestMedia & { files: FileRefs }> {
  return dialogMedia(nb, savedOf(d).messages);
}

export interface AnswerInputs {
  model: ResolvedModel;
  /** What the model takes (null: everything; images left out for a model without vision). */
  aim: AimInfo | null;
  craft: CraftContext;
  media: RequestMedia & { files: FileRefs };
  /** The model's limits less the CRAFT context's room. */
  limits: ModelLimits;
}

/**
 * What answering a prompt of `nb` (its dialog `d`) with the model `setting` (default the settings' one)
 * reads before planning: the model, the CRAFT files and the dialog's media, looked up at once (each
 * waits on VS Code or the disk). Inline requests (ghost text, Edit with AI) read the same.
 */
export async function answerInputs(nb: vscode.NotebookDocument, d: Dialog, keys: ApiKeys, setting?: string): Promise<AnswerInputs> {
  const [{ model, aim, craft }, media] = await Promise.all([
    resolveModel(keys, setting).then(async (model) => {
      const aim = modelAim(model);
      return { model, aim, craft: await craftFor(nb, aim) };
    }),
    requestMedia(nb, d),
  ]);
  return { model, aim, craft, media, limits: craftLimits(model, craft) };
}
