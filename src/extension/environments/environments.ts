// The Python environments of this window, for the kernel picker, the status bar and Select Python
// Environment: found once (then on Refresh, a workspace folder change, a settings change, or when the
// Python extension selects another interpreter), each asked what it is. Finding them spawns processes, so
// it goes through `EnvironmentFinder`, which only the desktop (Node) build has.

import * as vscode from 'vscode';
import { PythonExtension } from '@vscode/python-extension';
import { config } from '../config';
import { log } from '../log';
import { EnvCandidate, PythonEnv, envLabel, envNameOf } from './environment';

export interface EnvironmentFinder {
  /** The environments of these workspace folders and the machine, `named` ones first. */
  discover(opts: { folders: readonly string[]; named: readonly EnvCandidate[] }): Promise<PythonEnv[]>;
  /** Asks one interpreter what it is; undefined when it does not answer. */
  probe(c: EnvCandidate): Promise<PythonEnv | undefined>;
}

const PYTHON_EXTENSION = 'ms-python.python';
/** globalState: interpreters the user gave by path (Select Python Environment) that discovery does not see. */
const GIVEN_KEY = 'dialogNotebook.givenInterpreters';

/** The interpreter the Python extension has selected for the workspace, when that extension is installed. */
async function pythonExtensionChoice(onChange: () => void, subs: vscode.Disposable[]): Promise<EnvCandidate[]> {
  if (!vscode.extensions.getExtension(PYTHON_EXTENSION)) return [];
  try {
    const api = await PythonExtension.api();
    if (!subs.length) subs.push(api.environments.onDidChangeActiveEnvironmentPath(onChange));
    const path = api.environments.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri).path;
    return path ? [{ path, kind: 'python-extension', name: envNameOf(path) }] : [];
  } catch (e) {
    log.warn(`The Python extension's interpreter is unknown: ${(e as Error).message}`);
    return [];
  }
}

export class Environments implements vscode.Disposable {
  private found: Promise<PythonEnv[]> | undefined;
  /** Interpreters given by path (Select Python Environment) that discovery does not list, remembered across windows. */
  private readonly given: EnvCandidate[];
  private readonly changed = new vscode.EventEmitter<readonly PythonEnv[]>();
  /** The list changed (after a refresh). */
  readonly onDidChange = this.changed.event;
  private readonly pythonExtSubs: vscode.Disposable[] = [];
  private readonly subs: vscode.Disposable[] = [this.changed];

  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly finder: EnvironmentFinder,
    private readonly memory?: vscode.Memento,
  ) {
    this.given = (memory?.get<string[]>(GIVEN_KEY) ?? []).map((path) => ({ path, kind: 'setting', name: envNameOf(path) }));
    const refresh = () => void this.refresh();
    // A workspace venv made or removed is seen once its files settle (venv and pip write many).
    const soon = () => {
      clearTimeout(this.settle);
      this.settle = setTimeout(refresh, 3000);
    };
    const globs = ['{.venv,venv,.conda}', '{.venv,venv,.conda}/{pyvenv.cfg,bin/python,bin/python3,Scripts/python.exe}'];
    const watchers = (vscode.workspace.workspaceFolders ?? []).flatMap((f) => globs.map((g) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, g))));
    for (const w of watchers) this.subs.push(w, w.onDidCreate(soon), w.onDidDelete(soon));
    this.subs.push(
      vscode.workspace.onDidChangeWorkspaceFolders(refresh),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('dialogNotebook.python') && refresh()),
    );
  }

  /** Every environment found (discovered on first use). */
  all(): Promise<PythonEnv[]> {
    return (this.found ??= this.discover());
  }

  /** Looks again (a venv made, a package installed); fires onDidChange. */
  async refresh(): Promise<PythonEnv[]> {
    const next = this.discover();
    this.found = next;
    const envs = await next;
    if (this.found === next) this.changed.fire(envs);
    return envs;
  }

  /**
   * The environment of an interpreter path (or of an environment's folder), looking again if it is not
   * among those found; an interpreter discovery does not see is asked directly and kept in the list.
   */
  async find(path: string): Promise<PythonEnv | undefined> {
    // `…/.venv/bin/python` is the environment of `…/.venv` whichever of its interpreters discovery took.
    const home = path.replace(/[\\/][^\\/]+[\\/][^\\/]+$/, '');
    const match = (envs: PythonEnv[]) => envs.find((e) => e.path === path || e.executable === path || e.prefix === path) ?? envs.find((e) => e.prefix === home);
    const had = match(await this.all()) ?? match(await this.refresh());
    if (had) return had;
    const c: EnvCandidate = { path, kind: 'setting', name: envNameOf(path) };
    if (!(await this.finder.probe(c))) return undefined;
    this.given.push(c);
    await this.memory?.update(GIVEN_KEY, this.given.map((g) => g.path));
    log.info(`Python interpreter ${path} added to the environments (remembered)`);
    return match(await this.refresh());
  }

  /** The environment asked again, as it is now (the same one when it no longer answers). */
  async recheck(env: PythonEnv): Promise<PythonEnv> {
    const now = await this.finder.probe(env);
    if (!now || now.ipykernel === env.ipykernel) return env;
    void this.refresh();
    return now;
  }

  private async discover(): Promise<PythonEnv[]> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const setting = config.python.trim();
    const named = [
      ...(setting ? [{ path: setting, kind: 'setting' as const, name: envNameOf(setting) }] : []),
      ...(await pythonExtensionChoice(() => void this.refresh(), this.pythonExtSubs)),
      ...this.given,
    ];
    const envs = await this.finder.discover({ folders, named });
    log.info(`Python environments: ${envs.map((e) => `${envLabel(e)} ${e.executable}${e.ipykernel ? '' : ' (no ipykernel)'}`).join('; ') || 'none'}`);
    return envs;
  }

  dispose(): void {
    clearTimeout(this.settle);
    this.subs.forEach((s) => s.dispose());
    this.pythonExtSubs.forEach((s) => s.dispose());
  }
}
