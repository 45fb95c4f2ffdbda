// The AI's dialog tools on an open dialog (issue 32): which tools a prompt gets, and each call acting
// on the open notebook, live, as ONE WorkspaceEdit (one undo step), never on another file. The calls are
// planned by the core (core/tools) against the notebook as it is now; a destructive call (python, or
// del_msgs) asks the user first (confirm.ts); `python` runs in the dialog's kernel.

import * as vscode from 'vscode';
import { JsonObject, preview } from '../../core';
import { DialogEdit } from '../../core/surgery';
import { dialogUsesTools } from '../../core/answer';
import { DIALOG_TOOLS, DialogToolDef, ToolContext, ToolOutcome, WORKSPACE_TOOLS, dialogTool, needsHead, planDialogTool } from '../../core/tools';
import { searchDialogsTool } from '../search/tool';
import { notebookMeta } from '../document/cells';
import { DialogSnapshot, applyPlanNow } from '../editing/edits';
import { markAllBusy } from '../editing/busyCells';
import { dialogOf } from '../document/dialogCache';
import { headDialog } from '../outside/gitHead';
import { notebookMode } from '../answer/mode';
import { DialogKernels } from '../kernel/dialogKernels';
import { ToolResult, runPython } from '../kernel/hostTools';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { DENIED, confirmCall, needsConfirm } from './confirm';

/** The dialog's name as dialoghelper gives it: its workspace path without `.ipynb`. */
export function dialogName(nb: vscode.NotebookDocument): string {
  return vscode.workspace.asRelativePath(nb.uri, false).replace(/\.ipynb$/, '');
}

/**
 * The tools a prompt of `nb` is offered: every dialog tool with the dialog's Use tools switch on, else
 * those its prompts name (``&`add_msg` ``). An untrusted workspace gets the read tools only; `python`
 * needs a kernel.
 */
export function offeredDialogTools(nb: vscode.NotebookDocument, referenced: readonly string[], kernel: boolean): DialogToolDef[] {
  const on = dialogUsesTools(notebookMeta(nb));
  let defs = on ? [...DIALOG_TOOLS] : DIALOG_TOOLS.filter((t) => referenced.includes(t.name));
  if (!vscode.workspace.isTrusted && defs.some((t) => t.kind !== 'read')) {
    log.warn('This workspace is not trusted: the AI gets the dialog tools that read, none that edit or run code.');
    defs = defs.filter((t) => t.kind === 'read');
  }
  if (!kernel) defs = defs.filter((t) => t.name !== 'python');
  return defs;
}

/**
 * The dialog as it is now, from the shared per-version cache: a call converts only the cells changed
 * since the last one (a 2,000-cell dialog is not converted again per call). Plans only read it.
 */
const snapshotDialog = (nb: vscode.NotebookDocument): DialogSnapshot => ({ nb, d: dialogOf(nb), version: nb.version });

/** How long python may go on after the interrupt at its time limit before its call returns anyway. */
const INTERRUPT_GRACE_MS = 5000;

/** What the model reads for a call the answer was stopped before (or while) it ran. */
const STOPPED = 'Not run: the answer was stopped.';

/** The result of a call as the model reads it. */
const result = (ok: boolean, text: string): ToolResult => ({ ok, text, printed: '' });

/** The cells a planned edit updates or replaces (their indices are the notebook's as planned). */
function targets(nb: vscode.NotebookDocument, edit: DialogEdit<unknown>): vscode.NotebookCell[] {
  const at = new Set<number>();
  for (const e of edit.edits) {
    if (e.kind === 'update') at.add(e.index);
    else for (let k = e.start; k < e.start + e.deleteCount; k++) at.add(k);
  }
  return [...at].filter((i) => i < nb.cellCount).map((i) => nb.cellAt(i));
}

/** What the confirmation says about a call: the question and the detail (the code, the messages). */
function question(who: string, def: DialogToolDef, args: JsonObject, plan: ToolOutcome | undefined, name: string): [string, string] {
  if (def.name === 'python') return [`${who} wants to run Python in the kernel of ${name}.`, String(args.code ?? '')];
  if (def.name === 'del_msgs' && plan?.deletes) {
    const n = plan.deletes.length;
    return [`${who} wants to delete ${n} message${n === 1 ? '' : 's'} from ${name}.`, plan.deletes.map((m) => preview(m, 120)).join('\n')];
  }
  return [`${who} wants to call ${def.name} on ${name}.`, JSON.stringify(args, null, 2)];
}

export interface DialogToolOptions {
  /** The prompt being answered: the current message, which no call may change. */
  answering?: string;
  /** Runs `python`; none: python is not offered. */
  kernels?: DialogKernels;
  /** Ask before calls as `dialogNotebook.tools.confirm` says (false: the caller asked already). */
  confirm?: boolean;
  /** The current message to start from, when no prompt is answered (an agent's earlier call). */
  current?: string | null;
  /** Who calls, as the confirmation names it (default "The AI"); see door.ts. */
  who?: string;
  /** python: interrupt the kernel after this long (ms) and return what came so far; none: no limit. */
  timeLimitMs?: number;
}

/** The dialog tools of one answer (or one agent call) on `nb`, with its current message. */
export class DialogToolSession {
  private current: string | null;

  constructor(
    readonly nb: vscode.NotebookDocument,
    readonly defs: readonly DialogToolDef[],
    private readonly opts: DialogToolOptions = {},
  ) {
    this.current = opts.answering ?? opts.current ?? null;
  }

  /** The message add_msg places after without an id: the prompt answered, then the last added or updated. */
  get currentMessage(): string | null {
    return this.current;
  }

  offers(name: string): boolean {
    return this.defs.some((d) => d.name === name);
  }

  private context(head?: ToolContext['head']): ToolContext {
    return { name: dialogName(this.nb), mode: notebookMode(this.nb).mode, current: this.current, answering: this.opts.answering ?? null, head };
  }

  /** Runs one call; failures are results the model reads, and change nothing. */
  async call(name: string, args: JsonObject, signal?: AbortSignal): Promise<ToolResult> {
    const def = this.offers(name) ? dialogTool(name) : undefined;
    if (!def) return result(false, `Error: the dialog tool ${name} is not available here.`);
    if (WORKSPACE_TOOLS.includes(name)) return searchDialogsTool(args);
    if (this.nb.isClosed) return result(false, 'Error: the dialog was closed, so nothing was changed.');
    log.info(`Dialog tool ${name}(${JSON.stringify(args).slice(0, 200)})`);
    const r = name === 'python' ? await this.python(def, args, signal) : await this.edit(def, args, signal);
    log.info(`Dialog tool ${name} ${r.ok ? 'returned' : 'failed'}: ${r.text.slice(0, 200)}`);
    return r;
  }

  /** Asks the user when the setting says so; a stopped answer stops waiting (the call is not run). */
  private async ask(def: DialogToolDef, args: JsonObject, signal: AbortSignal | undefined, plan?: ToolOutcome): Promise<ToolResult | undefined> {
    if (this.opts.confirm === false || !needsConfirm(this.nb, def.kind)) return undefined;
    const [q, detail] = question(this.opts.who ?? 'The AI', def, args, plan, dialogName(this.nb));
    const stopped = result(false, STOPPED);
    if (signal?.aborted) return stopped;
    const allowed = await new Promise<boolean | 'stopped'>((resolve) => {
      signal?.addEventListener('abort', () => resolve('stopped'), { once: true });
      void confirmCall(this.nb, q, detail).then(resolve, () => resolve(false));
    });
    if (allowed === 'stopped') return stopped;
    if (!allowed) log.info(`The user denied ${def.name}.`);
    return allowed ? undefined : result(false, DENIED);
  }

  private async edit(def: DialogToolDef, args: JsonObject, signal?: AbortSignal): Promise<ToolResult> {
    const head = needsHead(def.name, args) ? await headDialog(this.nb) : undefined;
    let plan = planDialogTool(snapshotDialog(this.nb).d, def.name, args, this.context(head));
    if (plan.edit) {
      // The cells the call changes are its own until its edit is applied: a merge of outside changes leaves them.
      const idle = markAllBusy(targets(this.nb, plan.edit));
      try {
        const refused = await this.ask(def, args, signal, plan);
        if (refused) return refused;
        // Planned again when its turn to edit comes, on the dialog as it is then: its messages are found by
        // id there (the user, an outside change or another caller may have moved them since).
        const done = await applyPlanNow(this.nb, (snap) => planDialogTool(snap.d, def.name, args, this.context(head)), snapshotDialog);
        plan = done.planned;
        if (done.why) return result(false, `Error: ${done.why}; nothing was changed.`);
      } finally {
        idle();
      }
    }
    if (plan.ok && plan.current !== undefined) this.current = plan.current;
    return { ...result(plan.ok, plan.text), value: plan.value, ...(plan.images?.length ? { images: plan.images } : {}) };
  }

  private async python(def: DialogToolDef, args: JsonObject, signal?: AbortSignal): Promise<ToolResult> {
    const kernels = this.opts.kernels;
    if (typeof args.code !== 'string') return result(false, 'Error: code must be a string of Python code.');
    if (!kernels) return result(false, 'Error: this dialog has no kernel to run Python in.');
    const refused = await this.ask(def, args, signal);
    if (refused) return refused;
    let session;
    try {
      session = await kernels.session(this.nb);
    } catch (e) {
      return result(false, `Error: the dialog's kernel could not start: ${reason(e)}`);
    }
    const stop = () => void kernels.interrupt(this.nb).catch((e) => log.warn(`Interrupt failed: ${reason(e)}`));
    signal?.addEventListener('abort', stop);
    const limit = this.opts.timeLimitMs;
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // At the limit the kernel is interrupted (run_python then returns what it printed); code that ignores
    // the interrupt gets a little longer, then the call returns anyway, so that it never outlives its caller.
    const late = new Promise<ToolResult>((resolve) => {
      if (!limit) return;
      timer = setTimeout(() => {
        timedOut = true;
        stop();
        timer = setTimeout(() => resolve(result(false, `The code is still running in the kernel: the interrupt at the time limit (${limit / 1000} s) did not stop it. Interrupt the kernel in VS Code.`)), INTERRUPT_GRACE_MS);
      }, limit);
    });
    try {
      const r = await Promise.race([runPython(session, args.code), late]);
      return timedOut && r.interrupted ? { ...r, text: `${r.text}\n[Stopped at the time limit of ${limit! / 1000} s: the output above is what came until then.]` } : r;
    } catch (e) {
      // Stopped: the kernel was interrupted; anything else is the kernel failing.
      return result(false, timedOut ? `Stopped at the time limit of ${limit! / 1000} s (${reason(e)}).` : signal?.aborted ? `Interrupted: the answer was stopped (${reason(e)}).` : `Error: ${reason(e)}`);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  }
}
