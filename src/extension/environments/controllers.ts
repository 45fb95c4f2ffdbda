// The kernel picker of dialogs: besides "Dialog" (the dialog's own kernelspec), one controller per Python
// environment ("Dialog · Python 3.11 (.venv)") and per kernelspec of a configured remote server, each
// answering prompts and running code there. One of them is preferred for each dialog: the one picked for
// it before (remembered per dialog), else the one its kernelspec names, else the workspace's venv, else
// "Dialog". Picking one writes the dialog's kernelspec as Jupyter writes it, as one undoable edit, and an
// environment without ipykernel offers to install it. Dialog: Select Python Environment… does the same.
// A controller VS Code or we select by ourselves (as a dialog opens) is only used, never written.

import * as vscode from 'vscode';
import { CONTROLLER_ID, DialogController } from '../answer/controller';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { NOTEBOOK_TYPE } from '../document/cells';
import { platform } from '../platform';
import { PythonEnv, byVersion, envKernelName, envLabel, envLacks } from './environment';
import { Environments } from './environments';
import { CodeRunner, offerInstall } from '../kernel/runner';
import { JupyterServers } from '../jupyter/servers';
import { KernelTarget, KernelspecMeta, dialogKernelspec, namesEnv, targetKernelspec } from '../kernel/target';

/** workspaceState: dialog URI → the id of the controller picked for it. */
const PICKS_KEY = 'dialogNotebook.kernelPicks';

interface Entry {
  controller: vscode.NotebookController;
  target: KernelTarget;
}

/** What Select Python Environment returns (and Refresh lists), for scripts. */
export interface SelectedEnvironment {
  controller: string;
  label: string;
  executable?: string;
  version?: string;
  /** What the environment lacks to run a kernel ('' when nothing). */
  lacks: string;
}

function envDescription(env: PythonEnv): { description: string; detail?: string } {
  const lacks = envLacks(env);
  return { description: env.executable, detail: lacks ? `Needs ${lacks}: pick it to install` : undefined };
}

/** How long after the last notebook's open (a dialog's first) the Python environments are looked for (unless a run asks first). */
const DISCOVERY_DELAY_MS = 4000;

export class EnvironmentControllers implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly subs: vscode.Disposable[] = [];
  private started = false;
  /** The discovery's timer, between a dialog's open and the discovery. */
  private waiting: ReturnType<typeof setTimeout> | undefined;
  /** A dialog opened: the discovery is due once notebooks stop opening. */
  private wanted = false;
  /** By dialog URI: the pick being applied. */
  private readonly picking = new Map<string, Promise<void>>();
  /** Dialogs (by URI) that had a controller selected since they opened. */
  private readonly bound = new Set<string>();

  constructor(
    private readonly dialog: DialogController,
    private readonly runner: CodeRunner,
    private readonly envs: Environments,
    private readonly servers: JupyterServers,
    private readonly memory: vscode.Memento,
    private readonly extensionId: string,
  ) {
    // A prompt alone needs no environment list: its kernel, if it names one, is the dialog's own.
    dialog.beforeOwnRun = (nb, code) => {
      if (code) this.discover();
      runner.select(nb, { kind: 'dialog' });
    };
    this.subs.push(
      dialog.controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => selected && this.selected(notebook, CONTROLLER_ID)),
      envs.onDidChange((list) => this.sync(list)),
      vscode.workspace.onDidOpenNotebookDocument((nb) => {
        this.start(nb);
        this.prefer(nb);
      }),
      vscode.workspace.onDidCloseNotebookDocument((nb) => this.bound.delete(nb.uri.toString())),
      vscode.workspace.onDidChangeConfiguration((e) => this.started && e.affectsConfiguration('dialogNotebook.jupyter.serverUrl') && void this.syncRemote()),
    );
    vscode.workspace.notebookDocuments.forEach((nb) => this.start(nb));
    this.subs.push(vscode.window.onDidChangeActiveNotebookEditor(() => void this.selectPreferred()));
  }

  /**
   * VS Code runs a cell without asking only when the notebook has a selected controller or offers just
   * one: with environments listed, the active dialog gets its preferred controller selected unless it
   * has one (`skipIfAlreadySelected`), so running a cell still needs no kernel pick.
   */
  private async selectPreferred(): Promise<void> {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    if (nb?.notebookType !== NOTEBOOK_TYPE || !this.entries.size) return;
    try {
      await vscode.commands.executeCommand('notebook.selectKernel', { id: this.preferredFor(nb), extension: this.extensionId, skipIfAlreadySelected: true });
    } catch (e) {
      log.warn(`Selecting the dialog's controller failed: ${reason(e)}`);
    }
  }

  /**
   * Environments are looked for once a dialog is open (they cost a process each), not on every window
   * start, and not while notebooks open: a few seconds after the last notebook opened (each open of any
   * notebook puts it off again), when nothing else asked first (the kernel layer runs a dialog's own
   * kernelspec meanwhile). A Jupyter notebook of VS Code's own starts nothing.
   */
  private start(nb: vscode.NotebookDocument): void {
    if (this.started) return;
    if (nb.notebookType === NOTEBOOK_TYPE) this.wanted = true;
    if (!this.wanted) return;
    clearTimeout(this.waiting);
    this.waiting = setTimeout(() => this.discover(), DISCOVERY_DELAY_MS);
  }

  /** Lists the environments and the remote server's kernels now (once). */
  discover(): void {
    if (this.waiting) clearTimeout(this.waiting);
    this.waiting = undefined;
    if (this.started) return;
    this.started = true;
    void this.envs.all().then(
      (list) => this.sync(list),
      (e) => log.warn(`Finding Python environments failed: ${reason(e)}`),
    );
    void this.syncRemote();
  }

  /** One controller per environment: new ones added, gone ones removed, the others' details refreshed. */
  private sync(list: readonly PythonEnv[]): void {
    const ids = new Set<string>();
    for (const env of list) {
      const id = envKernelName(env);
      ids.add(id);
      this.upsert(id, `Dialog · ${envLabel(env)}`, { kind: 'env', env }, envDescription(env));
    }
    this.drop((id, e) => e.target.kind === 'env' && !ids.has(id));
    vscode.workspace.notebookDocuments.forEach((nb) => this.prefer(nb));
    void this.selectPreferred();
  }

  /** The remote server's kernelspecs as controllers (none without a remote server, or when it cannot be reached). */
  private async syncRemote(): Promise<void> {
    let specs: { name: string; displayName: string; language: string }[] = [];
    if (this.servers.remote) {
      try {
        const models = await this.servers.remoteSpecs();
        specs = Object.values(models?.kernelspecs ?? {}).flatMap((s) => (s ? [{ name: s.name, displayName: s.display_name, language: s.language }] : []));
      } catch (e) {
        log.warn(`The remote Jupyter Server's kernels are not listed: ${reason(e)}`);
      }
    }
    const ids = new Set<string>();
    for (const s of specs) {
      const id = `dialog-spec-${s.name}`;
      ids.add(id);
      this.upsert(id, `Dialog · ${s.displayName}`, { kind: 'spec', ...s }, { description: `on ${this.servers.remoteUrl}` });
    }
    this.drop((id, e) => e.target.kind === 'spec' && !ids.has(id));
    vscode.workspace.notebookDocuments.forEach((nb) => this.prefer(nb));
  }

  private upsert(id: string, label: string, target: KernelTarget, text: { description: string; detail?: string }): void {
    let entry = this.entries.get(id);
    if (!entry) {
      const controller = this.dialog.addController(id, label, (nb) => this.runner.select(nb, this.entries.get(id)?.target ?? target));
      entry = { controller, target };
      this.entries.set(id, entry);
      controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => selected && this.selected(notebook, id));
    }
    entry.target = target;
    entry.controller.label = label;
    entry.controller.description = text.description;
    entry.controller.detail = text.detail;
  }

  private drop(gone: (id: string, e: Entry) => boolean): void {
    for (const [id, e] of [...this.entries]) {
      if (!gone(id, e)) continue;
      e.controller.dispose();
      this.entries.delete(id);
    }
  }

  private picks(): Record<string, string> {
    return this.memory.get<Record<string, string>>(PICKS_KEY) ?? {};
  }

  /** The controller a dialog should get: the one picked before, the one its kernelspec names, the workspace's venv, else "Dialog". */
  preferredFor(nb: vscode.NotebookDocument): string {
    const picked = this.picks()[nb.uri.toString()];
    if (picked && (picked === CONTROLLER_ID || this.entries.has(picked))) return picked;
    const spec = dialogKernelspec(nb.metadata);
    const named = [...this.entries].find(([, e]) => {
      const t = e.target;
      return t.kind === 'env' ? namesEnv(spec.display_name, t.env) : t.kind === 'spec' && t.name === spec.name;
    });
    if (named) return named[0];
    // Environments run on the local server only: with a remote one, "Dialog" (or its kernelspecs) stays first.
    const venv = this.servers.remote ? undefined : [...this.entries].find(([, e]) => e.target.kind === 'env' && e.target.env.inWorkspace && e.target.env.ipykernel);
    return venv?.[0] ?? CONTROLLER_ID;
  }

  /** Exactly one controller is preferred for a dialog, so running a cell needs no pick. */
  private prefer(nb: vscode.NotebookDocument): void {
    if (nb.notebookType !== NOTEBOOK_TYPE) return;
    const want = this.preferredFor(nb);
    const affinity = (id: string) => (id === want ? vscode.NotebookControllerAffinity.Preferred : vscode.NotebookControllerAffinity.Default);
    this.dialog.controller.updateNotebookAffinity(nb, affinity(CONTROLLER_ID));
    for (const [id, e] of this.entries) e.controller.updateNotebookAffinity(nb, affinity(id));
    // For the status bar before the first run; a run sets what its controller runs.
    if (!this.runner.hasTarget(nb)) this.runner.select(nb, this.targetOf(want));
  }

  private targetOf(id: string): KernelTarget {
    return this.entries.get(id)?.target ?? { kind: 'dialog' };
  }

  /**
   * VS Code selected a controller for the dialog. It does not say whether the user picked it: it also
   * selects one by itself as a dialog opens (the one bound to the dialog before, the preferred one when a
   * cell is hovered or edited, the one a first run uses), and so do we (selectPreferred). Those must not
   * write into the dialog, since opening never edits it. So the selection counts as the user's only when
   * it replaces another one made since the dialog opened and is not the preferred one (the remembered
   * pick, the kernelspec's own, the workspace venv): both hold for a pick in the kernel picker, none for
   * an automatic one. A user's first pick of the preferred one is used but not written; it is what the
   * dialog runs anyway, and Select Python Environment writes it.
   */
  private selected(nb: vscode.NotebookDocument, id: string): void {
    const key = nb.uri.toString();
    const replaced = this.bound.has(key);
    this.bound.add(key);
    void this.picked(nb, id, replaced && id !== this.preferredFor(nb));
  }

  /**
   * A controller was selected for the dialog: the runner uses it; a user's pick is also remembered and
   * written into the dialog. One at a time per dialog: the picker's event and Select Python Environment
   * both report a pick, and the second must see the first's edit (one undo step, not two).
   */
  private picked(nb: vscode.NotebookDocument, id: string, byUser: boolean): Promise<void> {
    const key = nb.uri.toString();
    const next = (this.picking.get(key) ?? Promise.resolve()).then(() => this.apply(nb, id, byUser)).catch((e) => log.warn(`Applying the kernel pick failed: ${reason(e)}`));
    this.picking.set(key, next);
    return next;
  }

  private async apply(nb: vscode.NotebookDocument, id: string, byUser: boolean): Promise<void> {
    if (nb.notebookType !== NOTEBOOK_TYPE) return;
    const target = this.targetOf(id);
    this.runner.select(nb, target);
    if (!byUser) return;
    if (this.picks()[nb.uri.toString()] !== id) await this.memory.update(PICKS_KEY, { ...this.picks(), [nb.uri.toString()]: id });
    const spec = targetKernelspec(target);
    if (spec) await writeKernelspec(nb, spec);
    if (target.kind === 'env' && !target.env.ipykernel) {
      const env = await this.envs.recheck(target.env);
      if (!env.ipykernel) void offerInstall(env, `${envLabel(env)} has no ipykernel: its kernel cannot start until it is installed.`);
    }
  }

  /** Dialog: Select Python Environment… — an interpreter path (for scripts), else a quick pick; picks it as the kernel picker does. */
  async select(arg?: unknown): Promise<SelectedEnvironment | undefined> {
    const editor = vscode.window.activeNotebookEditor;
    const nb = editor?.notebook.notebookType === NOTEBOOK_TYPE ? editor.notebook : undefined;
    if (!nb) return void vscode.window.showInformationMessage('Select Python Environment: open a dialog first.');
    let id: string | undefined;
    if (typeof arg === 'string' && arg.trim()) {
      const env = await this.envs.find(arg.trim());
      if (!env) return void vscode.window.showErrorMessage(notAnInterpreter(arg));
      this.sync(await this.envs.all());
      id = envKernelName(env);
    } else {
      id = await this.pick(nb);
    }
    if (!id) return undefined;
    await vscode.commands.executeCommand('notebook.selectKernel', { id, extension: this.extensionId });
    await this.picked(nb, id, true);
    return this.described(id);
  }

  /** Dialog: Refresh Python Environments: looks for them again; what the kernel picker now lists. */
  async refresh(): Promise<SelectedEnvironment[]> {
    this.sync(await this.envs.refresh());
    await this.syncRemote();
    return [CONTROLLER_ID, ...this.entries.keys()].map((id) => this.described(id));
  }

  private described(id: string): SelectedEnvironment {
    const t = this.targetOf(id);
    if (t.kind === 'env') return { controller: id, label: envLabel(t.env), executable: t.env.executable, version: t.env.version, lacks: envLacks(t.env) };
    return { controller: id, label: t.kind === 'spec' ? t.displayName : 'Dialog', lacks: '' };
  }

  /**
   * The quick pick of Select Python Environment: "Dialog", the environments by version, the remote
   * kernelspecs, and Look again; a path typed into it (an interpreter outside the usual places) is asked
   * what it is, added and remembered.
   */
  private async pick(nb: vscode.NotebookDocument): Promise<string | undefined> {
    type Item = vscode.QuickPickItem & { id?: string; refresh?: boolean; path?: string };
    const current = this.preferredFor(nb);
    const entry = ([id, e]: [string, Entry]): Item => ({ id, label: e.controller.label, description: e.controller.description, detail: e.controller.detail });
    const listed = (): Item[] => {
      const all = [...this.entries];
      const envs = byVersion(all.flatMap(([id, e]) => (e.target.kind === 'env' ? [{ version: e.target.env.version, item: entry([id, e]) }] : [])));
      return [
        { id: CONTROLLER_ID, label: 'Dialog', description: "the dialog's own kernelspec" },
        ...envs.map((e) => e.item),
        ...all.filter(([, e]) => e.target.kind !== 'env').map(entry),
        { label: '$(refresh) Look again', refresh: true, alwaysShow: true },
      ].map((i: Item) => (i.id === current ? { ...i, label: `$(check) ${i.label}` } : i));
    };
    const typed = (value: string): Item[] => {
      const path = value.trim().replace(/^~(?=$|[\\/])/, platform().homeDir());
      return /[\\/]/.test(path) ? [{ label: `$(file-code) ${path}`, description: 'the Python interpreter at this path', path, alwaysShow: true }] : [];
    };
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = 'Select Python Environment';
    qp.placeholder = 'What runs the code of this dialog (and answers its prompts), or the path of a Python interpreter';
    qp.matchOnDescription = true;
    const show = () => (qp.items = [...typed(qp.value), ...listed()]);
    show();
    try {
      return await new Promise<string | undefined>((resolve) => {
        qp.onDidChangeValue(show);
        qp.onDidHide(() => resolve(undefined));
        qp.onDidAccept(async () => {
          const choice = qp.selectedItems[0];
          if (!choice?.refresh && !choice?.path) return resolve(choice?.id);
          qp.busy = true;
          const env = choice.path ? await this.envs.find(choice.path) : undefined;
          this.sync(choice.path ? await this.envs.all() : await this.envs.refresh());
          qp.busy = false;
          if (env) return resolve(envKernelName(env));
          if (choice.path) void vscode.window.showErrorMessage(notAnInterpreter(choice.path));
          show();
        });
        qp.show();
      });
    } finally {
      qp.dispose();
    }
  }

  dispose(): void {
    if (this.waiting) clearTimeout(this.waiting);
    this.subs.forEach((s) => s.dispose());
    for (const e of this.entries.values()) e.controller.dispose();
    this.entries.clear();
  }
}

function notAnInterpreter(path: string): string {
  return `Select Python Environment: ${path} is not a Python interpreter that answers (\`${path} -c "import sys"\` failed).`;
}

/** The dialog's `metadata.kernelspec` set to `spec` as one undoable edit; nothing when it already is. */
async function writeKernelspec(nb: vscode.NotebookDocument, spec: KernelspecMeta): Promise<void> {
  const had = dialogKernelspec(nb.metadata);
  if (had.name === spec.name && had.display_name === spec.display_name && had.language === spec.language) return;
  const state = (nb.metadata.dialog ?? {}) as { meta?: { [key: string]: unknown } };
  const metadata = { ...nb.metadata, dialog: { ...state, meta: { ...(state.meta ?? {}), kernelspec: spec } } };
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata(metadata)]);
  if (!(await vscode.workspace.applyEdit(edit))) log.warn(`Could not write the kernelspec of ${nb.uri.fsPath}`);
  else log.info(`Wrote kernelspec ${spec.display_name} (${spec.name}) into ${nb.uri.fsPath}`);
}
