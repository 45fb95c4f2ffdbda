// One kernel per dialog: executes code cells with their iopub messages turned into nbformat outputs by
// the core (model §7), plus interrupt, restart, status and the kernel's death. No vscode import.

import { Kernel, KernelMessage, Session } from '@jupyterlab/services';
import { Jmsg, JsonObject, Message, Output, addOutput, clearOutput } from '../../core';
import { JupyterConnection } from '../jupyter/connection';

export type KernelStatus = Kernel.Status;
export type ConnectionStatus = Kernel.ConnectionStatus;

export interface Disposable {
  dispose(): void;
}

export interface ExecuteCallbacks {
  /** The cell's whole output list after each change (append, display update, clear), in nbformat. */
  onOutputs?: (outputs: readonly Output[]) => void;
  /** The execution count, as soon as the kernel starts the cell. */
  onExecutionCount?: (count: number) => void;
}

/** `aborted`: skipped after an earlier error, or cut short by a restart; `died`: the kernel died while it ran. */
export type ExecuteStatus = 'ok' | 'error' | 'aborted' | 'died';

export interface ExecuteResult {
  status: ExecuteStatus;
  executionCount: number | null;
  /** Every output the cell produced, including those produced before the kernel died. */
  outputs: Output[];
  /** When the kernel started and finished the cell, by its own clock (epoch ms), when it reports them (ipykernel does). */
  kernelTime?: { started: number; ended: number };
}

export interface SessionOptions {
  /** The dialog's path relative to the server root: its folder (when it exists there) is the kernel's working directory. */
  path: string;
  /** The dialog's kernelspec name. */
  kernelName?: string;
}

/** The kernel cannot be used: its spec is missing on the server, or it is dead. */
export class KernelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KernelError';
  }
}

/** A silent evaluation failed in the kernel (the helper code itself raised, or it was interrupted). */
export class KernelEvalError extends Error {
  constructor(
    readonly ename: string,
    readonly evalue: string,
  ) {
    super(evalue ? `${ename}: ${evalue}` : ename);
    this.name = 'KernelEvalError';
  }
}

/** What `user_expressions` gives back for one expression: a mime bundle, or the error it raised. */
export type UserExpressionResult =
  | { status: 'ok'; data: JsonObject; metadata: JsonObject }
  | { status: 'error'; ename: string; evalue: string; traceback: string[] };

/** How long one try of `ready` waits for the kernel, and how many tries it makes. */
const READY_TRY_MS = 10_000;
const READY_TRIES = 6;

const OUTPUT_TYPES = new Set(['stream', 'display_data', 'update_display_data', 'execute_result', 'error']);

type Listener<T> = (value: T) => void;

/** A minimal event (this file does not import vscode). */
export class Emitter<T> {
  private listeners = new Set<Listener<T>>();
  on(l: Listener<T>): Disposable {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }
  fire(v: T): void {
    for (const l of [...this.listeners]) l(v);
  }
}

export class KernelSession {
  private readonly statusEmitter = new Emitter<KernelStatus>();
  private readonly diedEmitter = new Emitter<string>();
  private readonly connectionEmitter = new Emitter<ConnectionStatus>();
  private disposing = false;
  /** Deaths seen so far: a cell that sees this grow while it runs died with the kernel. */
  private deaths = 0;
  /** After an autorestart: settles once the new kernel answers; requests wait for it. */
  private reviving: Promise<void> | undefined;
  /** The restarted kernel never answered: unusable until the user restarts it. */
  private deaf = false;
  /** The kernel's language and its version, as its kernel_info reply says (for the status bar). */
  language: { name: string; version: string } | undefined;

  private constructor(
    private readonly session: Session.ISessionConnection,
    readonly kernelName: string,
  ) {
    session.statusChanged.connect((_, s) => this.onKernelStatus(s));
    session.connectionStatusChanged.connect((_, s) => this.connectionEmitter.fire(s));
  }

  /** Starts the dialog's kernel on the server and resolves once it answers. */
  static async start(conn: JupyterConnection, opts: SessionOptions): Promise<KernelSession> {
    const name = opts.kernelName || 'python3';
    const specs = await conn.kernelSpecs();
    if (!specs.kernelspecs[name]) {
      const have = Object.keys(specs.kernelspecs);
      throw new KernelError(
        have.length
          ? `The dialog's kernel "${name}" is not available on the Jupyter Server (it has: ${have.join(', ')}).`
          : 'The Jupyter Server has no kernels: install ipykernel (`pip install ipykernel`, Debian: `python3-ipykernel`) for its Python.',
      );
    }
    const fileName = opts.path.split('/').pop() || opts.path;
    const session = await conn.sessions.startNew({ path: opts.path, type: 'notebook', name: fileName, kernel: { name } });
    const ks = new KernelSession(session, name);
    await ks.ready();
    return ks;
  }

  get status(): KernelStatus {
    return this.session.kernel?.status ?? 'dead';
  }

  /** The kernel's id on the server. */
  get kernelId(): string | undefined {
    return this.session.kernel?.id;
  }

  onStatus(l: Listener<KernelStatus>): Disposable {
    return this.statusEmitter.on(l);
  }

  /** Fires with a message for the user when the kernel dies (killed, out of memory): its state is lost. */
  onDied(l: Listener<string>): Disposable {
    return this.diedEmitter.on(l);
  }

  /** The WebSocket to the server: `connecting` while it is lost and being retried. */
  onConnection(l: Listener<ConnectionStatus>): Disposable {
    return this.connectionEmitter.on(l);
  }

  private onKernelStatus(s: KernelStatus): void {
    this.statusEmitter.fire(s);
    if (this.disposing) return;
    // `autorestarting`: the server saw the process die and started a fresh one; `dead`: it gave up.
    if (s !== 'autorestarting' && s !== 'dead') return;
    this.deaths++;
    if (s === 'autorestarting') this.revive();
    this.diedEmitter.fire(
      s === 'dead'
        ? 'The kernel died and could not be restarted. Restart it to run code again.'
        : 'The kernel died. Jupyter restarted it: its variables are gone.',
    );
  }

  private kernel(): Kernel.IKernelConnection {
    const k = this.session.kernel;
    if (!k || k.isDisposed || k.status === 'dead' || this.deaf) throw new KernelError('The kernel is dead. Restart it to run code again.');
    return k;
  }

  /** The kernel, once a revival after an autorestart (if any) has settled. */
  private async live(): Promise<Kernel.IKernelConnection> {
    await this.reviving;
    return this.kernel();
  }

  private revive(): void {
    const reviving = this.ready().catch((e) => {
      if (this.disposing || this.session.kernel?.status === 'dead') return; // a death already said
      this.deaf = true;
      this.diedEmitter.fire(`The kernel does not answer after Jupyter restarted it (${(e as Error).message}). Restart it to run code again.`);
    });
    this.reviving = reviving.finally(() => {
      if (this.reviving === reviving) this.reviving = undefined;
    });
  }

  /** Runs a code cell. Outputs stream through `callbacks`; the promise settles once the kernel is done with it. */
  async execute(code: string, callbacks: ExecuteCallbacks = {}): Promise<ExecuteResult> {
    const kernel = await this.live();
    const deaths = this.deaths;
    const cell = new Message({ content: code, msgType: 'code' }); // the core keeps display ids and pending clears on it
    const outputs = () => cell.output as Output[];
    let executionCount: number | null = null;
    const future = kernel.requestExecute({ code, silent: false, store_history: true, allow_stdin: false, stop_on_error: true });
    future.onIOPub = (msg) => {
      const type = msg.header.msg_type;
      if (type === 'execute_input') {
        executionCount = (msg as KernelMessage.IExecuteInputMsg).content.execution_count;
        if (executionCount !== null) callbacks.onExecutionCount?.(executionCount);
      } else if (type === 'clear_output') {
        const wait = (msg as KernelMessage.IClearOutputMsg).content.wait;
        clearOutput(cell, wait);
        if (!wait) callbacks.onOutputs?.(outputs());
      } else if (OUTPUT_TYPES.has(type)) {
        addOutput(cell, msg as unknown as Jmsg);
        callbacks.onOutputs?.(outputs());
      }
    };
    // A death ends the cell even if the client library misses cancelling its future (seen under load).
    let onDeath: Disposable | undefined;
    const death = new Promise<never>((_, reject) => {
      onDeath = this.diedEmitter.on(() => reject(new Error('Canceled future: the kernel died')));
    });
    future.done.catch(() => undefined);
    try {
      const reply = await Promise.race([future.done, death]);
      const status = reply.content.status === 'ok' ? 'ok' : reply.content.status === 'error' ? 'error' : 'aborted';
      const started = Date.parse(String(reply.metadata.started));
      const ended = Date.parse(reply.header.date);
      const kernelTime = Number.isFinite(started) && Number.isFinite(ended) ? { started, ended } : undefined;
      return { status, executionCount: reply.content.execution_count ?? executionCount, outputs: outputs(), kernelTime };
    } catch (e) {
      // The future is cancelled when the kernel's state is cleared: by its death, a restart or our dispose.
      if (!/^Canceled future/.test((e as Error).message)) throw e;
      return { status: this.deaths > deaths ? 'died' : 'aborted', executionCount, outputs: outputs() };
    } finally {
      onDeath?.dispose();
    }
  }

  /**
   * Runs helper code silently (no history, no execution count, no execute_input) and evaluates
   * `expressions` afterwards in the user's namespace; for the host's own work (see hostTools.ts).
   */
  async evaluate(code: string, expressions: Record<string, string>): Promise<Record<string, UserExpressionResult>> {
    // ipykernel aborts every execute request that reaches it just after a cell failed (its stop_on_error
    // window), whatever the request's own stop_on_error: such a request is sent again.
    for (let attempt = 1; ; attempt++) {
      const future = (await this.live()).requestExecute({ code, silent: true, store_history: false, allow_stdin: false, stop_on_error: false, user_expressions: expressions });
      let reply: KernelMessage.IExecuteReplyMsg;
      try {
        reply = await future.done;
      } catch (e) {
        if (/^Canceled future/.test((e as Error).message)) throw new KernelError('The kernel died or restarted while the host was using it.');
        throw e;
      }
      const c = reply.content;
      if (c.status === 'ok') return c.user_expressions as Record<string, UserExpressionResult>;
      if (c.status === 'error') throw new KernelEvalError(c.ename, c.evalue);
      if (attempt >= 3) throw new KernelEvalError('Aborted', 'the kernel aborted the request');
    }
  }

  /** Interrupts what the kernel runs (SIGINT, or the kernel's interrupt message). */
  async interrupt(): Promise<void> {
    await (await this.live()).interrupt();
  }

  /** Restarts the kernel (a fresh one when it is dead); resolves once it answers again. */
  async restart(): Promise<void> {
    const k = this.session.kernel;
    if (!k || k.isDisposed || k.status === 'dead' || this.deaf) {
      this.deaf = false;
      await this.session.changeKernel({ name: this.kernelName });
    } else {
      await k.restart();
    }
    await this.ready();
  }

  /**
   * Resolves once the kernel answers a kernel_info request and goes idle. A WebSocket opened while the
   * server is still restarting the kernel can stay deaf to the new one (seen under load after an
   * autorestart): each unanswered try reconnects it.
   */
  private async ready(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const k = this.kernel();
      if (await this.answers(k)) {
        const info = await k.info.catch(() => undefined);
        this.language = info && { name: info.language_info.name, version: info.language_info.version };
        return;
      }
      this.kernel(); // throws when it died on the way
      if (attempt >= READY_TRIES) throw new KernelError(`no answer in ${(READY_TRIES * READY_TRY_MS) / 1000} s`);
      await k.reconnect();
    }
  }

  /** Whether the kernel answers kernel_info and reports idle (or dead) within one try. */
  private answers(k: Kernel.IKernelConnection): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let sub: Disposable | undefined;
    const settled = new Promise<void>((resolve) => {
      sub = this.statusEmitter.on((s) => (s === 'idle' || s === 'dead') && resolve());
    });
    const info = k.requestKernelInfo();
    const answered = Promise.all([info, settled]).then(
      () => true,
      () => k.status === 'dead',
    );
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_TRY_MS)));
    return Promise.race([answered, late]).finally(() => {
      clearTimeout(timer);
      sub?.dispose();
    });
  }

  /** Shuts the kernel down on the server (unless `shutdown` is false) and releases the connection. */
  async dispose(shutdown = true): Promise<void> {
    if (this.disposing) return;
    this.disposing = true;
    try {
      if (shutdown) await this.session.shutdown();
    } finally {
      this.session.dispose();
    }
  }
}
