// Runs a dialog's code cells in a Jupyter kernel, for the dialog controller (its CellRunner for code).
// One kernel per open dialog, from its kernelspec (default python3) or the environment picked for it (a
// controller of the kernel picker), started on its first code cell and shut down when the dialog closes
// or another environment is picked; start hooks (dialoghelper's address) and its CRAFT files' code run
// first (craftCode.ts), and it says which cell runs now (for the dialog's own code calling back). Outputs
// stream into the cell at a bounded rate; stopping the cell interrupts the kernel. Whatever fails (no
// Jupyter, a wrong token, a dead kernel) is said on the cell and in a notification, and outputs the cell
// already had stay.

import * as vscode from 'vscode';
import { Output } from '../../core/model';
import { missingSolveitPackage, tryParsePyLiteral } from '../../core/python';
import { CellRunner } from '../answer';
import { UpdateThrottle } from '../answer/throttle';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { fromCellOutput, toCellOutput } from '../document/outputs';
import { setCellNote } from '../look/statusBar';
import { stampTimeRun } from '../editing/edits';
import { JupyterConnectError } from '../jupyter/connection';
import { DialogServer, JupyterServers, KernelRefused } from '../jupyter/servers';
import { PythonEnv, envLabel } from '../environments/environment';
import { ExecuteResult, KernelError, KernelSession, KernelStatus } from './session';
import { runCraftCode } from './craftCode';
import { DialogKernels } from './dialogKernels';
import { LostSignal } from './lost';
import { KernelTarget, MissingIpykernelError, dialogKernelspec, targetKey } from './target';

// By name, not instanceof: localServer.ts (child processes) is only in the desktop build.
const isNamed = (e: unknown, name: string) => e instanceof Error && e.name === name;

/** Streamed outputs reach the cell at most this often. */
export const OUTPUT_INTERVAL_MS = 100;

/** What the status bar shows: the kernel's own status, or where it is before it has one. */
export type KernelState = KernelStatus | 'not started' | 'connecting';

interface DialogKernel {
  ks: KernelSession;
  target: KernelTarget;
  server: DialogServer;
  /** Tells when the server or the connection to it is lost: running cells end then. */
  lost: LostSignal;
  /** Counts restarts: an `aborted` reply during one is the restart's doing. */
  restarts: number;
  subs: { dispose(): void }[];
}

/** The kernel's result, or `lost`: the server or the connection went away while the cell ran. */
type RunResult = ExecuteResult | { status: 'lost'; message: string };

interface Entry {
  ready: Promise<DialogKernel>;
  kernel?: DialogKernel;
}

const RESTART = 'Restart Kernel';
const INSTALL = 'Install ipykernel';

/** Code that prepares a fresh kernel for the host (before CRAFT code and any cell); `local`: the kernel runs on this machine. */
export type KernelStartHook = (nb: vscode.NotebookDocument, ks: KernelSession, local: boolean) => Promise<void>;

/** One run of a code cell: a new object each time the cell runs. */
export interface CellRun {
  readonly cell: vscode.NotebookCell;
}

/** What the status bar says of a dialog's kernel: a name, and where it runs when that is known. */
export interface KernelDescription {
  label: string;
  /** The interpreter, for an environment. */
  path?: string;
}

/** The kernelspec a dialog names (`metadata.kernelspec.name`), default python3. */
function kernelName(nb: vscode.NotebookDocument): string {
  return dialogKernelspec(nb.metadata).name ?? 'python3';
}

function note(text: string, tooltip: string, command?: vscode.Command): vscode.NotebookCellStatusBarItem {
  const it = new vscode.NotebookCellStatusBarItem(text, vscode.NotebookCellStatusBarAlignment.Right);
  it.tooltip = tooltip;
  it.command = command;
  return it;
}

const installCommand = (env: PythonEnv): vscode.Command => ({ title: INSTALL, command: 'dialogNotebook.installIpykernel', arguments: [env.executable] });

/** Says what the environment lacks, offering to install it (in a terminal the user sees). */
export async function offerInstall(env: PythonEnv, message: string): Promise<void> {
  if ((await vscode.window.showWarningMessage(message, INSTALL)) === INSTALL) await vscode.commands.executeCommand('dialogNotebook.installIpykernel', env.executable);
}

const restartCommand = (nb: vscode.NotebookDocument): vscode.Command => ({ title: RESTART, command: 'dialogNotebook.restartKernel', arguments: [nb.uri] });

/** The interpreter a kernel runs (`sys.executable`), asked silently; undefined when it cannot tell. */
async function kernelPython(ks: KernelSession): Promise<string | undefined> {
  try {
    const r = (await ks.evaluate('', { exe: "__import__('sys').executable" })).exe;
    const text = r?.status === 'ok' ? r.data['text/plain'] : undefined;
    const v = typeof text === 'string' ? tryParsePyLiteral(text) : undefined;
    return typeof v === 'string' && v ? v : undefined;
  } catch (e) {
    log.warn(`Could not ask the kernel for its Python: ${reason(e)}`);
    return undefined;
  }
}

export class CodeRunner implements CellRunner, DialogKernels, vscode.Disposable {
  private readonly kernels = new Map<string, Entry>();
  /** What each dialog runs in, once an environment was picked for it (else its own kernelspec). */
  private readonly targets = new Map<string, KernelTarget>();
  private readonly stateChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly ran = new vscode.EventEmitter<vscode.NotebookDocument>();
  /** A dialog's kernel changed state (started, busy, idle, died, shut down) or target: the dialog's URI. */
  readonly onDidChangeState = this.stateChanged.event;
  /** A code cell of the dialog ran (to its end, whatever its outcome): its variables may have changed. */
  readonly onDidRun = this.ran.event;
  private readonly subs: vscode.Disposable[] = [this.stateChanged, this.ran];
  private readonly startHooks: KernelStartHook[] = [];
  /** The run of a code cell each dialog's kernel does now, by the dialog's uri. */
  private readonly runningCells = new Map<string, CellRun>();

  /** `recheck` asks an environment again (it may have got ipykernel since it was found). */
  constructor(
    private readonly servers: JupyterServers,
    private readonly recheck: (env: PythonEnv) => Promise<PythonEnv> = async (env) => env,
  ) {
    this.subs.push(
      vscode.workspace.onDidCloseNotebookDocument((nb) => {
        this.shutdown(nb.uri);
        this.targets.delete(nb.uri.toString());
      }),
    );
  }

  /** What the dialog's code runs in from now on; a kernel of another target is shut down (the next run starts the new one). */
  select(nb: vscode.NotebookDocument, target: KernelTarget): void {
    const key = nb.uri.toString();
    const had = this.targets.get(key);
    this.targets.set(key, target);
    if (had && targetKey(had) === targetKey(target)) return;
    const running = this.kernels.get(key);
    if (running) {
      void running.ready.then(
        (k) => targetKey(k.target) !== targetKey(target) && this.forget(nb.uri, k, true),
        () => undefined,
      );
    }
    this.stateChanged.fire(nb.uri);
  }

  /** Whether something was selected for the dialog (else it runs its own kernelspec). */
  hasTarget(nb: vscode.NotebookDocument): boolean {
    return this.targets.has(nb.uri.toString());
  }

  target(nb: vscode.NotebookDocument): KernelTarget {
    return this.targets.get(nb.uri.toString()) ?? { kind: 'dialog' };
  }

  /** The kernel's name for the status bar: the environment (with its interpreter), else the kernelspec. */
  describe(nb: vscode.NotebookDocument): KernelDescription {
    const k = this.kernels.get(nb.uri.toString())?.kernel;
    const t = k?.target ?? this.target(nb);
    if (t.kind === 'env') return { label: envLabel(t.env), path: t.env.executable };
    // A kernelspec's language and version are known once its kernel answered.
    const lang = k?.ks.language;
    const version = lang?.version ? ` · ${lang.name[0].toUpperCase()}${lang.name.slice(1)} ${lang.version}` : '';
    return { label: `${t.kind === 'spec' ? t.displayName : this.kernelName(nb)}${version}` };
  }

  /** The dialog's kernel if one runs now (none is started). */
  running(nb: vscode.NotebookDocument): KernelSession | undefined {
    return this.kernels.get(nb.uri.toString())?.kernel?.ks;
  }

  state(nb: vscode.NotebookDocument): KernelState {
    const e = this.kernels.get(nb.uri.toString());
    return !e ? 'not started' : e.kernel ? e.kernel.ks.status : 'connecting';
  }

  kernelName(nb: vscode.NotebookDocument): string {
    return this.kernels.get(nb.uri.toString())?.kernel?.ks.kernelName ?? kernelName(nb);
  }

  /** Runs `hook` in each kernel started (or restarted) from now on. */
  onKernelStart(hook: KernelStartHook): vscode.Disposable {
    this.startHooks.push(hook);
    return new vscode.Disposable(() => this.startHooks.splice(this.startHooks.indexOf(hook), 1));
  }

  /** The code cell the dialog's kernel runs now (the cell whose code calls back into the dialog), if any. */
  runningCell(nb: vscode.NotebookDocument): CellRun | undefined {
    return this.runningCells.get(nb.uri.toString());
  }

  private async prepare(nb: vscode.NotebookDocument, k: { ks: KernelSession; server: DialogServer }): Promise<void> {
    for (const hook of this.startHooks) {
      await hook(nb, k.ks, k.server.root !== undefined).catch((e) => log.warn(`Preparing the kernel of ${k.server.path} failed: ${reason(e)}`));
    }
    await runCraftCode(nb, k.ks);
  }

  /** Runs a code cell; false when the cells queued after it should not run (it failed or was stopped). */
  async run(exec: vscode.NotebookCellExecution): Promise<boolean> {
    const cell = exec.cell;
    const startedAt = new Date();
    exec.start(startedAt.getTime());
    setCellNote(cell, undefined);
    let k: DialogKernel;
    try {
      k = await this.kernel(cell.notebook);
    } catch (e) {
      exec.end(false, Date.now());
      this.report(cell, e);
      return false;
    }
    if (exec.token.isCancellationRequested) {
      exec.end(undefined, Date.now());
      return false;
    }
    let r: RunResult;
    try {
      r = await this.execute(exec, k);
    } catch (e) {
      exec.end(false, Date.now());
      this.report(cell, e);
      return false;
    } finally {
      this.ran.fire(cell.notebook);
    }
    exec.end(r.status === 'ok', Date.now());
    // It ran (whatever came of it): Solveit's `time_run`, which the history's `time` shows the model.
    if (!(await stampTimeRun(cell, startedAt))) log.warn(`Cell ${cell.index + 1} ran, but VS Code refused to record its time_run.`);
    if (r.status === 'ok') return true;
    if (r.status === 'error') void this.offerPackage(k, r.outputs);
    if (r.status === 'died') {
      // Jupyter says so through onDied (a notification offering Restart); the cell says it too.
      setCellNote(cell, note('$(error) kernel died', 'The kernel died while this cell ran; the outputs it had produced were kept. Click to restart the kernel.', restartCommand(cell.notebook)));
    } else if (r.status === 'lost') {
      setCellNote(cell, note('$(error) server lost', `${r.message}\n\nThe outputs the cell had produced were kept.`, { title: 'Show Log', command: 'dialogNotebook.showLog' }));
      void vscode.window.showErrorMessage(r.message);
    }
    return false;
  }

  /**
   * A cell stopped at `ModuleNotFoundError` for a module Solveit provides (dialoghelper, fastcore…): offers to
   * install its package into the kernel's Python, in a terminal the user sees, as the ipykernel offer does.
   * A kernel on a remote server gets the `%pip` line to run instead.
   */
  private async offerPackage(k: DialogKernel, outputs: readonly Output[], ask = true): Promise<void> {
    const miss = missingSolveitPackage(outputs);
    if (!miss) return;
    const exe = k.target.kind === 'env' ? k.target.env.executable : this.servers.remote ? undefined : await kernelPython(k.ks);
    const what = `This dialog imports ${miss.module}, which Solveit provides and this kernel's Python lacks`;
    if (!exe) return void vscode.window.showWarningMessage(`${what}: run \`%pip install ${miss.pkg}\` in a code cell, then run the cell again.`);
    const install = `Install ${miss.pkg}`;
    log.info(`${what} (${exe}): ${ask ? 'offering to install' : 'installing'} ${miss.pkg}`);
    if (!ask || (await vscode.window.showWarningMessage(`${what} (${exe}). Install it, then run the cell again.`, install)) === install) {
      await vscode.commands.executeCommand('dialogNotebook.installPythonPackage', exe, miss.pkg);
    }
  }

  /** The offer of the cell's status bar (packageOffer.ts), taken: installs what the cell's error says is missing. */
  async installMissing(cell: vscode.NotebookCell): Promise<void> {
    let k: DialogKernel;
    try {
      k = await this.kernel(cell.notebook);
    } catch (e) {
      return this.report(cell, e);
    }
    await this.offerPackage(k, cell.outputs.map(fromCellOutput), false);
  }

  /** Executes the cell's code, streaming its outputs; ends when the kernel replies, dies or is lost. */
  private async execute(exec: vscode.NotebookCellExecution, k: DialogKernel): Promise<RunResult> {
    const code = exec.cell.document.getText();
    await exec.clearOutput();
    // The core's live list: converted when flushed, so a burst of messages costs one conversion.
    let live: readonly Output[] = [];
    const flush = () => exec.replaceOutput(live.map(toCellOutput));
    const throttle = new UpdateThrottle(flush, OUTPUT_INTERVAL_MS);
    const interrupt = exec.token.onCancellationRequested(() => void k.ks.interrupt().catch((e) => log.warn(`Interrupt failed: ${reason(e)}`)));
    const callbacks = {
      onExecutionCount: (n: number) => (exec.executionOrder = n),
      onOutputs: (outs: readonly Output[]) => {
        live = outs;
        throttle.mark();
      },
    };
    let r: RunResult;
    const key = exec.cell.notebook.uri.toString();
    const run: CellRun = { cell: exec.cell };
    this.runningCells.set(key, run);
    try {
      for (let attempt = 1; ; attempt++) {
        const restarts = k.restarts;
        let lost: { dispose(): void } | undefined;
        const lostRun = new Promise<RunResult>((resolve) => (lost = k.lost.on((message) => resolve({ status: 'lost', message }))));
        try {
          r = await Promise.race([k.ks.execute(code, callbacks), lostRun]);
        } finally {
          lost?.dispose();
        }
        // ipykernel aborts a request that lands just after another cell's error: nothing ran, so it goes again.
        if (r.status !== 'aborted' || k.restarts !== restarts || exec.token.isCancellationRequested || attempt >= 3) break;
      }
    } catch (e) {
      if (!(e instanceof KernelError)) throw e;
      r = { status: 'died', executionCount: null, outputs: [] };
      void this.offerRestart(exec.cell.notebook.uri.toString(), e.message);
    } finally {
      if (this.runningCells.get(key) === run) this.runningCells.delete(key);
      interrupt.dispose();
      await throttle.finish();
    }
    if ('outputs' in r) live = r.outputs;
    await flush();
    if ('executionCount' in r && r.executionCount !== null) exec.executionOrder = r.executionCount;
    return r;
  }

  /** The dialog's kernel, started on first use (its server too). */
  private kernel(nb: vscode.NotebookDocument): Promise<DialogKernel> {
    const key = nb.uri.toString();
    const had = this.kernels.get(key);
    if (had) return had.ready;
    const entry: Entry = { ready: this.start(nb) };
    this.kernels.set(key, entry);
    this.stateChanged.fire(nb.uri);
    entry.ready.then(
      (k) => {
        entry.kernel = k;
        this.stateChanged.fire(nb.uri);
      },
      () => {
        if (this.kernels.get(key) === entry) this.kernels.delete(key);
        this.stateChanged.fire(nb.uri);
      },
    );
    return entry.ready;
  }

  private async start(nb: vscode.NotebookDocument): Promise<DialogKernel> {
    const target = this.target(nb);
    let name: string;
    if (target.kind === 'env') {
      if (this.servers.remote) {
        throw new Error(
          `${envLabel(target.env)} runs on the local Jupyter Server, but dialogNotebook.jupyter.serverUrl names a remote one: pick one of its kernels, or clear the setting.`,
        );
      }
      const env = target.env.ipykernel ? target.env : await this.recheck(target.env);
      if (!env.ipykernel) throw new MissingIpykernelError(env);
      name = this.servers.kernelSpecs.ensure(env);
    } else {
      name = target.kind === 'spec' ? target.name : kernelName(nb);
    }
    const server = await this.servers.forDialog(nb);
    // What outlives the dialog (the server, the kernel's events) holds its uri, never the notebook.
    const uri = nb.uri;
    log.info(`Starting kernel ${name}${target.kind === 'env' ? ` (${target.env.executable})` : ''} for ${server.path} on ${server.label}`);
    const ks = await KernelSession.start(server.conn, { path: server.path, kernelName: name });
    await this.prepare(nb, { ks, server });
    const lost = new LostSignal();
    const subs = [
      ks.onStatus(() => this.stateChanged.fire(uri)),
      ks.onDied((msg) => void this.offerRestart(uri.toString(), msg)),
      ks.onConnection((s) => s === 'disconnected' && lost.lose(`Lost the connection to ${server.label}; the kernel cannot be reached. Run a cell to reconnect.`)),
      lost.follow(server.gone),
    ];
    const k: DialogKernel = { ks, target, server, lost, restarts: 0, subs };
    // A lost kernel is forgotten, so the next run starts afresh.
    subs.push(lost.on(() => this.forget(uri, k, false)));
    return k;
  }

  /** The offer may wait long for an answer: it holds the dialog's uri, not the notebook (closed, it is gone). */
  private async offerRestart(uri: string, message: string): Promise<void> {
    log.warn(message);
    if ((await vscode.window.showWarningMessage(message, RESTART)) !== RESTART) return;
    const open = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri);
    if (open) await this.restart(open);
  }

  /** The dialog's kernel for a prompt's ``$`expr` `` values and ``&`fn` `` tools: the running one, else one started now. */
  async session(nb: vscode.NotebookDocument): Promise<KernelSession> {
    return (await this.kernel(nb)).ks;
  }

  /** Dialog: Restart Kernel: a fresh kernel (the old one's variables are gone); starts one when there is none. */
  async restart(nb: vscode.NotebookDocument): Promise<void> {
    const e = this.kernels.get(nb.uri.toString());
    const k = e && (await e.ready.catch(() => undefined));
    if (!k) {
      await this.kernel(nb);
      return;
    }
    k.restarts++;
    try {
      await k.ks.restart();
      log.info(`Restarted the kernel of ${k.server.path}`);
      await this.prepare(nb, k);
    } catch (err) {
      log.warn(`Restart failed (${reason(err)}): starting a new kernel`);
      this.forget(nb.uri, k, true);
      await this.kernel(nb);
    }
  }

  /** Dialog: Interrupt Kernel: stops what the dialog's kernel runs (the cell gets KeyboardInterrupt). */
  async interrupt(nb: vscode.NotebookDocument): Promise<boolean> {
    const k = this.kernels.get(nb.uri.toString())?.kernel;
    if (!k) return false;
    await k.ks.interrupt();
    return true;
  }

  /** Drops `k` if it is still the dialog's kernel, shutting it down on the server when `shutdown`. */
  private forget(uri: vscode.Uri, k: DialogKernel, shutdown: boolean): void {
    const key = uri.toString();
    if (this.kernels.get(key)?.kernel === k) this.kernels.delete(key);
    k.subs.forEach((s) => s.dispose());
    void k.ks.dispose(shutdown).catch((e) => log.warn(`Kernel shutdown failed: ${reason(e)}`));
    this.stateChanged.fire(uri);
  }

  /** Shuts the dialog's kernel down (once started, when it is still starting). */
  private shutdown(uri: vscode.Uri): void {
    const e = this.kernels.get(uri.toString());
    void e?.ready.then((k) => this.forget(uri, k, true), () => undefined);
  }

  /** Why the cell did not run, on the cell and in a notification with the fix; the file is not touched. */
  private report(cell: vscode.NotebookCell, e: unknown): void {
    const msg = reason(e);
    if (e instanceof MissingIpykernelError) {
      log.warn(msg);
      setCellNote(cell, note('$(warning) no ipykernel', `${msg}\n\nNothing was changed. Click to install it in a terminal.`, installCommand(e.env)));
      void offerInstall(e.env, msg);
      return;
    }
    if (e instanceof KernelRefused) {
      log.warn(msg);
      setCellNote(cell, note('$(shield) not run', msg));
      void vscode.window.showWarningMessage(msg);
      return;
    }
    log.error(`The cell did not run: ${msg}`);
    const short = isNamed(e, 'JupyterNotFoundError') ? 'no Jupyter' : e instanceof JupyterConnectError ? (e.kind === 'auth' ? 'token refused' : 'no server') : 'not run';
    setCellNote(cell, note(`$(error) ${short}`, `${msg}\n\nNothing was changed. Click for the log.`, { title: 'Show Log', command: 'dialogNotebook.showLog' }));
    const fix = e instanceof JupyterConnectError && e.kind === 'auth' ? 'Set Jupyter Token' : 'Show Log';
    void vscode.window.showErrorMessage(msg, fix).then((pick) => {
      if (pick === 'Set Jupyter Token') void vscode.commands.executeCommand('dialogNotebook.setJupyterToken');
      else if (pick === 'Show Log') log.show();
    });
  }

  dispose(): void {
    for (const key of [...this.kernels.keys()]) this.shutdown(vscode.Uri.parse(key));
    this.subs.forEach((s) => s.dispose());
  }
}
