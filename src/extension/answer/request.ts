// What is sent to answer a prompt of an open dialog, built in ONE place for the answer and for the
// History tab, so the tab shows the very request: the saved form of the dialog (exploded replies
// imploded), the system prompt, the model's limits and the images as the model gets them.

import * as vscode from 'vscode';
import { ContextPlan, PlanPreview, contextPlan, planPreview } from '../../core/answer';
import { Dialog } from '../../core/model';
import { DEFAULT_MAX_PIXELS, FileRefs, PreparedImages, PreviewMode, prepareMedia } from '../../core/hist';
import { savedDialog } from '../../core/reply';
import { config } from '../config';
import { platform } from '../platform';
import { dialogOf } from '../notebook/dialogCache';
import { dialogFiles } from '../panel/fileRefs';
import { ModelLimits } from './resolve';

export { modelLimits } from './resolve';

/** Images scaled down and `#ai` files read: what `dlg2chat` looks up synchronously. */
export interface RequestMedia {
  images?: PreparedImages;
  files?: FileRefs;
}

export interface PlannedRequest {
  /** The dialog as a save would write it, which the plan is made from. */
  dialog: Dialog;
  plan: ContextPlan;
  system: string;
}

const planOptions = (limits: ModelLimits, media: RequestMedia) => ({ aim: limits.vision ? null : { supports_vision: false }, hist: media });

/**
 * Plans the request for `promptId` (throws DialogError when it is not a prompt that can be answered). The
 * values of its ``$`expr` `` references are not in the plan: only the kernel has them, read when the prompt
 * is answered (promptKernel.ts), so the History tab shows the references unevaluated, as prompt text.
 */
export function planRequest(d: Dialog, promptId: string, limits: ModelLimits, media: RequestMedia = {}): PlannedRequest {
  const dialog = savedDialog(d);
  const system = config.systemPrompt;
  const plan = contextPlan(dialog, promptId, { maxInputTokens: limits.maxInputTokens, replyTokens: limits.maxTokens }, { system: system || undefined, ...planOptions(limits, media) });
  return { dialog, plan, system };
}

/** The History tab's preview of a planned request. */
export function requestPreview(req: PlannedRequest, mode: PreviewMode, limits: ModelLimits, media: RequestMedia = {}): PlanPreview & { model: string } {
  return { ...planPreview(req.dialog, req.plan, mode, planOptions(limits, media)), model: limits.setting };
}

/** Reads the dialog's `#ai` files and scales its images down (sharp, where it loads), as the panel does. */
export async function requestMedia(nb: vscode.NotebookDocument): Promise<RequestMedia> {
  const messages = savedDialog(dialogOf(nb)).messages;
  const files = await dialogFiles(nb, messages);
  const resizer = platform().imageResizer();
  // By content: the dialog is read again (and its bytes rebuilt) when planning after this await.
  const images = resizer ? await prepareMedia(messages, resizer, { maxPixels: config.maxImagePixels(DEFAULT_MAX_PIXELS), files, into: new PreparedImages({ byContent: true }) }) : undefined;
  return { images, files };
}
