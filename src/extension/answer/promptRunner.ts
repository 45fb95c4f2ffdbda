// Answering one prompt cell: plan the request (request.ts), stream the answer into the cell at a bounded
// rate, then make it the prompt's reply as ONE undoable edit. Output changes made through an execution
// are not undoable, so the streamed output is first put back to the old reply and the new one written
// with `applyMessage`: Undo then restores the old reply. A failure changes nothing in the file: it is
// shown as a note in the cell's status bar and a notification, and logged. A prompt naming kernel
// values or functions (promptKernel.ts) gets the values with its history and the functions as tools, beside
// the dialog tools (toolbox.ts): while the model ends a round with calls, they run (in the kernel, or on the
// open notebook) and the model is asked again with the results, up to `dialogNotebook.maxToolRounds`
// rounds; the reply holds every call with its result.

import * as vscode from 'vscode';
import { Msg } from '../../core';
import { AnswerEvent, ReplyBuilder, Usage, UsageForm, addUsage, planFits, pricedUsage, replyMarkdown, thinkingOn, usageFormOf } from '../../core/answer';
import { Dialog, aiRes, withTimeRun } from '../../core/model';
import { config } from '../config';
import { cell2msg, cellLike, cellReply, cellState, cellType, notebookMeta, replyOutput } from '../document/cells';
import { streamingReply } from '../document/streamingReplies';
import { cellMessage, dialogOf } from '../document/dialogCache';
import { applyMessage } from '../editing/edits';
import { setCellNote } from '../look/statusBar';
import { reason } from '../commands/feedback';
import { log } from '../log';
import type { CellRunner } from './cellRunner';
import { ApiKeys } from './keys';
import { AnswerError, AnswerProvider, AnswerRequest } from './providers/provider';
import { PromptRefs, chatTokens, clientCalls, kernelAsks, promptRefs, refsText } from './kernelRefs';
import { sayOnce } from './kernelNotices';
import { promptKernel } from './promptKernel';
import { DialogKernels } from '../kernel/dialogKernels';
import { AnswerInputs, answerInputs, planRequest } from './request';
import { AnswerToolbox, answerDialogTools, answerToolbox, answerWebTools, kernelRefs } from './toolbox';
import { watchPrompt } from './promptWatch';
import { UPDATE_INTERVAL_MS, UpdateThrottle } from './throttle';

const copy = (o: vscode.NotebookCellOutput) => new vscode.NotebookCellOutput(o.items.slice(), o.metadata && { ...o.metadata });

function note(text: string, tooltip: string, command?: string): vscode.NotebookCellStatusBarItem {
  const it = new vscode.NotebookCellStatusBarItem(text, vscode.NotebookCellStatusBarAlignment.Right);
  it.tooltip = tooltip;
  if (command) it.command = command;
  return it;
}

/** Resolves once the extension host sees `reply` as the cell's reply (execution updates arrive asynchronously). */
function replyShown(cell: vscode.NotebookCell, reply: string): Promise<boolean> {
  const shown = () => cellReply(cell) === reply;
  if (shown()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      sub.dispose();
      clearTimeout(timer);
      resolve(ok);
    };
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook === cell.notebook && shown()) done(true);
    });
    const timer = setTimeout(() => done(shown()), 10_000);
  });
}

/** The usage form of the dialog's replies (Solveit's `<details>` fold unless they use the fenced block). */
function dialogUsageForm(d: Dialog): UsageForm {
  return usageFormOf(d.messages.filter((m) => m.msgType === 'prompt').map(aiRes));
}

/**
 * One round's events. A model that cannot think refuses the request (400) before anything arrives: it
 * is asked again without thinking, and `refused` says so.
 */
async function* roundEvents(provider: AnswerProvider, request: AnswerRequest, signal: AbortSignal, refused: (why: string) => void): AsyncIterable<AnswerEvent> {
  let content = false;
  try {
    for await (const e of provider.answer(request, signal)) {
      if (e.type === 'text' || e.type === 'thinking' || e.type === 'tool_use') content = true;
      yield e;
    }
  } catch (e) {
    if (!request.thinking || content || !(e instanceof AnswerError) || e.status !== 400) throw e;
    log.warn(`The model refused to think (${e.message}): answering without thinking.`);
    refused(e.message);
    yield* provider.answer({ ...request, thinking: undefined }, signal);
  }
}

/** The cell's note after a stop: what arrived was kept, marked interrupted, or nothing had and the old reply stays. */
const stoppedNote = (partial = false) =>
  partial ? note('$(debug-stop) stopped: partial reply kept', 'The answer was stopped: what had arrived is kept, followed by *[Response interrupted]*. Undo brings the old reply back.') : note('$(debug-stop) stopped: old reply kept', 'The answer was stopped before anything arrived: the previous reply was kept.');

/** The cell's note after an answer the model gave without the thinking the prompt asked for. */
const noThinkingNote = (why: string) => note('🧠 answered without thinking', `The prompt asks for thinking, but the model refused it:\n\n${why}\n\nIt answered without. Pick a model that thinks (Dialog: Select Model) or turn the prompt's 🧠 off.`, 'dialogNotebook.selectModel');

/** Says on the answered prompt which references it names could not be used (the Output channel said it once). */
const missingNote = (missing: readonly string[]) => note(`$(warning) ${missing.length === 1 ? 'a tool is missing' : `${missing.length} tools are missing`}`, `Answered without these, which the kernel does not define:\n${missing.map((m) => `- ${m}`).join('\n')}\n\nRun the cells that define them first.`, 'dialogNotebook.showLog');

/** Says on the answered prompt which CRAFT files it was answered without. */
function craftNote(cell: vscode.NotebookCell, unreadable: readonly string[]): void {
  const files = unreadable.map((u) => `- ${u}`).join('\n');
  setCellNote(cell, note(`$(warning) CRAFT unreadable`, `Answered without these CRAFT files, which could not be read:\n${files}\n\nFix or remove them; the next prompt reads them again.`, 'dialogNotebook.showLog'));
}

/** Runs `then` once `nb` has closed. */
function untilClosed(nb: vscode.NotebookDocument, then: () => void): void {
  const sub = vscode.workspace.onDidCloseNotebookDocument((d) => {
    if (d !== nb) return;
    sub.dispose();
    then();
  });
}

/**
 * The request of an answer's round: the CRAFT turns, then `history` (the kernel's values, the planned
 * chat, the rounds so far). After the last round the tools stay declared but none may be called, so the
 * model answers in words; thinking goes with the first round only (a later one would have to send back
 * the signed thinking blocks).
 */
function roundRequest(inputs: AnswerInputs, system: string, history: readonly Msg[], toolbox: AnswerToolbox | undefined, round: number, thinking: AnswerRequest['thinking']): AnswerRequest {
  const schemas = toolbox?.schemas ?? [];
  return {
    model: inputs.model.choice.model,
    system: system || undefined,
    messages: [...inputs.craft.chat, ...history],
    maxTokens: inputs.model.maxTokens,
    tools: schemas.length ? schemas : undefined,
    toolChoice: round >= config.maxToolRounds ? 'none' : undefined,
    webSearch: config.webEnabled && inputs.model.choice.provider === 'anthropic' ? true : undefined,
    thinking: round ? undefined : thinking,
  };
}

export class PromptRunner implements CellRunner {
  /** The kernel layer's dialog kernels (undefined: prompts answer without ``$`…` `` values and ``&`…` `` tools). */
  kernels: DialogKernels | undefined;

  constructor(
    private readonly keys: ApiKeys,
    /** Called after the reply to prompt `id` was written (the status bar's cost, the next answer's warm-up). */
    private readonly answered: (nb: vscode.NotebookDocument, id: string | undefined) => void,
  ) {}

  /** Answers `exec`'s prompt; false when it failed or was stopped (by its cell or by `stop`), so a queue ends. */
  async run(exec: vscode.NotebookCellExecution, stop?: vscode.CancellationToken): Promise<boolean> {
    const cell = exec.cell;
    const startedAt = new Date();
    exec.start(startedAt.getTime());
    setCellNote(cell, undefined);
    const old = cell.outputs.map(copy);
    const oldReply = cellReply(cell);
    const ac = new AbortController();
    const subs = [exec.token, stop].map((t) => t?.onCancellationRequested(() => ac.abort()));
    if (exec.token.isCancellationRequested || stop?.isCancellationRequested) ac.abort();
    // While it streams, a save writes the old reply (streamingReplies.ts).
    const streaming = streamingReply(old);
    // Closing or reverting the dialog stops the answer; from then on nothing is written to it. Until the
    // old outputs are put back, any other outputs on the cell are not the answer's: a revert's.
    let restoring = false;
    const watch = watchPrompt(cell, (outputs) => restoring || streaming.shows(outputs), (why) => {
      log.warn(`Answer of prompt ${cell.index + 1} stopped: ${why}. Nothing was written to ${cell.notebook.uri.path}.`);
      ac.abort();
    });
    let streamed = false;
    let reply: string | undefined;
    let notice: vscode.NotebookCellStatusBarItem | undefined;
    let failure: unknown;
    /** The CRAFT files the answer went without (they could not be read). */
    const craft = { unreadable: [] as readonly string[] };
    // The prompt as it was run, for the thumbnails of each streamed update (converted once, not per update).
    const asRun = cellMessage(cell);
    try {
      try {
        ({ reply, notice } = await this.answer(cell, ac.signal, craft, async (r) => {
          watch.check();
          if (watch.lost) return;
          streamed = true;
          await exec.replaceOutput(streaming.mark(replyOutput(r, asRun)));
        }));
      } catch (e) {
        failure = e;
      } finally {
        subs.forEach((d) => d?.dispose());
      }
      if (watch.lost) return this.lost(exec, watch.lost, watch.reverted);
      restoring = true;
      if (streamed) await exec.replaceOutput(old);
    } finally {
      watch.dispose();
      // A dialog whose tab closed stays open while its cell shows the streamed outputs: until it closes,
      // a save of it (auto save) writes the old reply.
      if (watch.lost && !cell.notebook.isClosed) untilClosed(cell.notebook, () => streaming.end());
      else streaming.end();
    }
    exec.end(failure ? false : reply === undefined ? undefined : true, Date.now());
    if (failure) return this.report(cell, failure);
    if (reply === undefined) return (setCellNote(cell, notice ?? stoppedNote()), false);
    if (streamed && !(await replyShown(cell, oldReply))) log.warn('The streamed reply was not seen reset before the answer was written.');
    // The dialog may have closed, the prompt gone, while the old reply was put back.
    const lost = watch.lost ?? (cellType(cellLike(cell)) !== 'prompt' ? 'the cell is no longer a prompt' : undefined);
    if (lost) return (log.warn(`The answer of a prompt was dropped: ${lost}.`), false);
    const m = cell2msg(cellLike(cell));
    m.output = reply;
    // When it ran, in the same edit as its reply (as Solveit stamps it).
    m.setMeta(withTimeRun(m.meta, startedAt));
    setCellNote(cell, undefined);
    const at = cell.index;
    if (!(await applyMessage(cell, m))) return this.report(cell, new AnswerError('other', 'VS Code refused to write the reply into the cell.'));
    // The reply replaced the cell: a note goes on the cell now there.
    if (at < cell.notebook.cellCount) {
      if (craft.unreadable.length) craftNote(cell.notebook.cellAt(at), craft.unreadable);
      else if (notice) setCellNote(cell.notebook.cellAt(at), notice);
      else if (ac.signal.aborted) setCellNote(cell.notebook.cellAt(at), stoppedNote(true));
    }
    this.answered(cell.notebook, m.id);
    return !ac.signal.aborted;
  }

  /** Ends the run of a prompt whose dialog closed or was reverted: nothing more is written to it. */
  private lost(exec: vscode.NotebookCellExecution, why: string, reverted: boolean): false {
    try {
      exec.end(undefined, Date.now());
    } catch (e) {
      log.debug(`The run of a closed dialog's prompt ended with it: ${reason(e)}`);
    }
    const nb = exec.cell.notebook;
    if (reverted && !nb.isClosed && exec.cell.index >= 0) setCellNote(exec.cell, note('$(debug-stop) stopped: dialog reverted', `The answer was stopped because ${why} while it streamed. Nothing of it was written to the file. Run the prompt again to answer it.`));
    else vscode.window.setStatusBarMessage(`$(debug-stop) Answer stopped: ${why}; nothing was written`, 8000);
    return false;
  }

  /**
   * Streams the answer, handing the reply so far to `show` at a bounded rate. Returns the final reply,
   * or undefined when stopped before anything arrived (the old reply stays), and a note for the cell.
   */
  private async answer(cell: vscode.NotebookCell, signal: AbortSignal, unread: { unreadable: readonly string[] }, show: (reply: string) => PromiseLike<void>): Promise<{ reply?: string; notice?: vscode.NotebookCellStatusBarItem }> {
    const id = cellState(cell).id;
    if (!id) throw new AnswerError('other', 'This prompt has no message id; edit it once so it gets one, then run it again.');
    let notice: vscode.NotebookCellStatusBarItem | undefined;
    // One snapshot of the dialog for its media, the plan and the reply's usage form.
    const d = dialogOf(cell.notebook);
    const inputs = await answerInputs(cell.notebook, d, this.keys);
    const { model, aim, craft, media, limits } = inputs;
    let { plan, system } = planRequest(d, id, limits, media);
    const refs = promptRefs(plan.messages);
    const asks = kernelAsks(plan.messages, !!this.kernels?.running(cell.notebook), kernelRefs, refs);
    if (!asks) this.noKernel(cell.notebook, refs);
    const kernel = asks && (await promptKernel(this.kernels, cell.notebook, asks, aim));
    // The values turn takes its room off the window: the history is planned again around it unless it fits as planned.
    const varTokens = kernel ? chatTokens(kernel.vars) : 0;
    if (varTokens && !planFits(plan, varTokens)) ({ plan, system } = planRequest(d, id, { ...limits, maxInputTokens: limits.maxInputTokens - varTokens }, media));
    if (kernel?.missing.length) notice = missingNote(kernel.missing);
    unread.unreadable = craft.unreadable;
    const toolbox = answerToolbox(kernel, answerDialogTools(cell.notebook, refs, id, this.kernels), answerWebTools(cell.notebook, refs));
    let thinking = this.thinking(cell, model.choice.provider);
    const refused = (why: string) => {
      thinking = undefined;
      notice = noThinkingNote(why);
    };
    const dropped = plan.verdicts.filter((v) => v.verdict !== 'kept').length;
    log.info(`Answering ${id} with ${model.setting}: ${plan.chat.length} messages, ~${plan.total} of ${plan.budget} tokens${dropped ? `, ${dropped} messages cut or left out` : ''}${craft.chat.length ? `, after ~${craft.tokens} tokens of CRAFT context` : ''}`);
    if (plan.over) log.warn(`The prompt and pinned messages alone exceed the budget (${plan.budget} tokens): the model may refuse.`);
    /** The answer's rounds so far: assistant turns, each round's calls answered by a tool turn. */
    const reply: Msg[] = [];
    let builder = new ReplyBuilder();
    let usage: Usage | undefined;
    // While it streams: the reply so far, without the usage block and marker the final one gets.
    const throttle = new UpdateThrottle(() => show(replyMarkdown([...reply, ...builder.messages()], { showthink: true })), UPDATE_INTERVAL_MS);
    let waiting = false;
    try {
      for (let round = 0; ; round++) {
        const last = round >= config.maxToolRounds;
        const request = roundRequest(inputs, system, [...(kernel?.vars ?? []), ...plan.chat, ...reply], toolbox, round, thinking);
        for await (const e of roundEvents(model.provider, request, signal, refused)) {
          if (e.type === 'retry') {
            waiting = true;
            const s = Math.ceil(e.delayMs / 1000);
            setCellNote(cell, note(`$(watch) rate limited: retry ${e.retry}/${e.of} in ${s} s`, `${e.message}\n\nRetrying in ${s} s (stop the cell to give up).`));
            log.warn(`Rate limited (${e.message}): retry ${e.retry}/${e.of} in ${s} s`);
            continue;
          }
          if (waiting) {
            waiting = false;
            setCellNote(cell, undefined);
          }
          builder.add(e);
          if (e.type === 'text' || e.type === 'thinking' || e.type === 'tool_use') throttle.mark();
        }
        reply.push(...builder.messages());
        if (builder.usage) usage = usage ? addUsage(usage, builder.usage) : builder.usage;
        const calls = clientCalls(builder.parts);
        if (!toolbox || last || builder.reason !== 'tool_use' || !calls.length) break;
        log.info(`Round ${round + 1}: ${calls.length} tool calls`);
        builder = new ReplyBuilder();
        reply.push(await toolbox.call(calls, signal));
        throttle.mark();
        if (signal.aborted) {
          builder.reason = 'aborted';
          break;
        }
      }
    } finally {
      await throttle.finish();
    }
    log.info(`Answer to ${id} ended (${builder.reason ?? 'no end'}) after ${throttle.updates} cell updates`);
    if (reply.length || builder.reason !== 'aborted') {
      const form = dialogUsageForm(d);
      return { reply: replyMarkdown(reply, { showthink: true, usage: usage && pricedUsage(usage, model.setting), usageForm: form, model: model.choice.model, interrupted: builder.reason === 'aborted' }), notice };
    }
    return { notice };
  }

  /**
   * Plans `cell`'s answer beforehand (warmUp.ts), sending nothing: its cells converted, images scaled,
   * CRAFT files read, the plan kept (request.ts) and, when the answer needs nothing from the kernel, the
   * provider's body of its first round made (providers/wire.ts), so that Ctrl+Enter finds it ready.
   */
  async prepare(cell: vscode.NotebookCell): Promise<void> {
    const nb = cell.notebook;
    const id = cellState(cell).id;
    if (!id) return;
    const d = dialogOf(nb);
    const inputs = await answerInputs(nb, d, this.keys);
    // The provider (and its client) is kept while the model, key and base URL stay.
    await inputs.model.provider.prepare?.();
    if (nb.isClosed || d !== dialogOf(nb) || cell.index < 0) return;
    const { plan, system } = planRequest(d, id, inputs.limits, inputs.media);
    const refs = promptRefs(plan.messages);
    if (kernelAsks(plan.messages, !!this.kernels?.running(nb), kernelRefs, refs)) return;
    const toolbox = answerToolbox(undefined, answerDialogTools(nb, refs, id, this.kernels), answerWebTools(nb, refs));
    await inputs.model.provider.prepare?.(roundRequest(inputs, system, plan.chat, toolbox, 0, this.thinking(cell, inputs.model.choice.provider, false)));
  }

  /** Says once per dialog that the history (`sent`: its references) names kernel values or tools which no running kernel holds. */
  private noKernel(nb: vscode.NotebookDocument, sent: PromptRefs): void {
    const refs = kernelRefs(sent);
    if (refs.exprs.length || refs.tools.length) sayOnce(nb, `Earlier prompts name ${refsText(refs)}, but no kernel runs for this dialog: prompts that name none themselves are answered without them. Run a code cell to start the kernel.`);
  }

  /** What the prompt's 🧠 switch asks for (its cell flag, else the dialog's), as the request's thinking settings. */
  private thinking(cell: vscode.NotebookCell, provider: string, say = true): AnswerRequest['thinking'] {
    if (!thinkingOn(notebookMeta(cell.notebook), cellState(cell).meta ?? {})) return undefined;
    if (provider === 'vscode-lm') {
      if (say) log.warn("VS Code's language models take no thinking settings: the prompt is answered as it is.");
      return undefined;
    }
    return { budgetTokens: config.thinkingBudget, effort: config.reasoningEffort };
  }

  /** Shows a failure on the cell (a status bar note: nothing the file keeps) and as a notification with the fix. */
  private report(cell: vscode.NotebookCell, e: unknown): false {
    const err = e instanceof AnswerError ? e : new AnswerError('other', reason(e));
    log.error(`Answer failed (${err.kind}${err.status ? ` ${err.status}` : ''}): ${err.message}`);
    const short = err.kind === 'auth' ? 'API key rejected' : err.kind === 'no-key' ? 'no API key' : err.kind === 'no-model' ? 'no model' : 'answer failed';
    setCellNote(cell, note(`$(error) ${short}`, `${err.message}\n\nThe previous reply was kept. Click for the log.`, 'dialogNotebook.showLog'));
    const fixes = err.kind === 'no-key' || err.kind === 'auth' ? ['Set API Key', 'Select Model'] : err.kind === 'no-model' ? ['Select Model', 'Set API Key'] : ['Show Log'];
    void vscode.window.showErrorMessage(err.message, ...fixes).then((pick) => {
      const command = pick === 'Set API Key' ? 'dialogNotebook.setApiKey' : pick === 'Select Model' ? 'dialogNotebook.selectModel' : pick === 'Show Log' ? 'dialogNotebook.showLog' : undefined;
      if (command) void vscode.commands.executeCommand(command);
    });
    return false;
  }
}
