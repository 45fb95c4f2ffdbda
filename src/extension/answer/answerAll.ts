// Dialog: Answer All Prompts… / Answer Prompts Below…: the one way to answer many prompts again, since
// Run All runs code only. It says first how many requests it sends, their estimated tokens and cost
// (core batchQuestion), asks in a modal, then answers them in dialog order through the controller,
// each reply one undo step, with a progress notification whose Cancel (like a cell's stop) ends the rest.

import * as vscode from 'vscode';
import { batchQuestion } from '../../core/answer';
import { tokenEstimate } from '../../core/hist';
import { CommandResult, refuse } from '../commands/feedback';
import { commandTarget } from '../commands/target';
import { cellLike, cellReply, cellState, cellType } from '../document/cells';
import { dialogOf } from '../document/dialogCache';
import { log } from '../log';
import type { DialogController } from './controller';
import { modelLimits, planRequest, requestMedia } from './request';

export interface AnswerAllOptions {
  /** The modal's answer, given (tests); undefined: ask. */
  confirm?: boolean;
}

export interface AnswerAllResult extends CommandResult {
  /** What the confirmation said (message and detail), when it was shown or given. */
  question?: string;
  answered?: number;
}

/** Answers every prompt of the dialog (`below`: from the selected cell down), after asking. */
export async function answerAll(controller: DialogController, below: boolean, arg?: unknown, o: AnswerAllOptions = {}): Promise<AnswerAllResult> {
  const t = arg instanceof vscode.Uri || typeof arg === 'string' ? uriTarget(arg) : commandTarget(arg);
  if (!t) return refuse('Open a dialog first: Answer All Prompts answers the prompts of the active dialog.');
  const from = below ? Math.max(0, t.focus) : 0;
  const prompts = t.nb.getCells().filter((c) => c.index >= from && cellType(cellLike(c)) === 'prompt');
  if (!prompts.length) return refuse(below ? 'There is no prompt from the selected cell down.' : 'This dialog has no prompt to answer.');

  const limits = modelLimits();
  const d = dialogOf(t.nb);
  const media = await requestMedia(t.nb, d);
  let inputTokens = 0;
  let outputTokens = 0;
  for (const c of prompts) {
    const id = cellState(c).id;
    try {
      if (id) inputTokens += planRequest(d, id, limits, media).plan.total;
    } catch (e) {
      log.warn(`Answer All: no estimate for prompt ${c.index + 1}: ${e instanceof Error ? e.message : String(e)}`);
    }
    outputTokens += tokenEstimate(cellReply(c));
  }
  const q = batchQuestion(limits.setting, { prompts: prompts.length, inputTokens, outputTokens });
  const question = `${q.message}\n${q.detail}`;
  const yes = prompts.length === 1 ? 'Answer 1 Prompt' : `Answer ${prompts.length} Prompts`;
  const ok = o.confirm ?? (await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, yes)) === yes;
  if (!ok) return { ok: false, message: 'cancelled: nothing was sent', question };

  log.info(`Answer All: ${prompts.length} prompts with ${limits.setting}, ~${inputTokens} input tokens`);
  const answered = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Answering prompts', cancellable: true },
    (progress, stop) =>
      controller.answerPrompts(prompts, stop, (k) => progress.report({ message: `${k + 1} of ${prompts.length}`, increment: k ? 100 / prompts.length : 0 })),
  );
  const message = `Answered ${answered} of ${prompts.length} prompts`;
  log.info(`Answer All: ${message}`);
  return { ok: answered === prompts.length, message, question, answered };
}

/** A dialog given by its notebook uri, as scripts pass it: all of it. */
function uriTarget(arg: vscode.Uri | string) {
  const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === arg.toString());
  return nb?.cellCount ? commandTarget(nb.cellAt(0)) : undefined;
}
