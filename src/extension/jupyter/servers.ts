// The Jupyter Servers of this window: the local one (started on the first code cell run, one per window,
// stopped with the window) or the remote one of `dialogNotebook.jupyter.serverUrl`, connected once per
// URL + token. A server that failed to start or went away is forgotten, so the next run tries again.

import * as vscode from 'vscode';
import type { KernelSpecAPI } from '@jupyterlab/services';
import { config } from '../config';
import { log } from '../log';
import { platform } from '../platform';
import { JupyterConnection, connectServer } from './connection';
import type { KernelSpecFolder } from '../environments/kernelSpecs';
import type { LocalServer } from './localServer';
import { ServerChoice, chooseServer, sessionPath } from './serverChoice';
import { JupyterToken } from './token';

/** No kernel may start (untrusted workspace, a malformed server URL): a refusal, not a failure. */
export class KernelRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KernelRefused';
  }
}

interface Server {
  conn: JupyterConnection;
  /** The local server's root folder (dialog paths are relative to it); none for a remote server. */
  root?: string;
  /** Settles with a message for the user when the server goes away (the local process exited). */
  gone: Promise<string>;
  label: string;
}

/** A server for one dialog. */
export interface DialogServer extends Server {
  /** The dialog's path on the server: its kernel starts in that folder when the server has it. */
  path: string;
}

const never = new Promise<string>(() => {});

export class JupyterServers implements vscode.Disposable {
  /** By what the settings name (local + python, remote + URL + token). */
  private readonly servers = new Map<string, Promise<Server>>();
  /** Local servers started, kept here so dispose stops them at once (deactivation does not wait). */
  private readonly locals = new Set<LocalServer>();
  /** The environments' kernelspecs, on the local server's JUPYTER_PATH. */
  private specs: KernelSpecFolder | undefined;

  /** `serverPythons`: environments found to have jupyter_server, for a local server when the PATH has none. */
  constructor(
    private readonly token: JupyterToken,
    private readonly serverPythons: () => Promise<string[]> = async () => [],
  ) {}

  /** Whether the settings name a remote server (then environments do not run: their kernels are local). */
  get remote(): boolean {
    return !!config.jupyterServerUrl.trim();
  }

  /** The remote server's URL as the settings name it. */
  get remoteUrl(): string {
    return config.jupyterServerUrl.trim();
  }

  /** The folder of environment kernelspecs, made on first use. */
  get kernelSpecs(): KernelSpecFolder {
    return (this.specs ??= platform().kernelSpecFolder!());
  }

  /** The server the settings name now, started or connected on first use; throws KernelRefused or the reason it failed. */
  async forDialog(nb: vscode.NotebookDocument): Promise<DialogServer> {
    const s = await this.server(await this.choice(), nb);
    const path = s.root !== undefined && nb.uri.scheme === 'file' ? sessionPath(s.root, nb.uri.fsPath) : vscode.workspace.asRelativePath(nb.uri, false);
    return { ...s, path };
  }

  /** The kernelspecs of the remote server the settings name (connected now if need be); none for a local one. */
  async remoteSpecs(): Promise<KernelSpecAPI.ISpecModels | undefined> {
    const choice = await this.choice();
    return choice.kind === 'remote' ? (await this.server(choice)).conn.kernelSpecs() : undefined;
  }

  private async choice(): Promise<Exclude<ServerChoice, { kind: 'refused' }>> {
    const choice = chooseServer({
      trusted: vscode.workspace.isTrusted,
      serverUrl: config.jupyterServerUrl,
      python: config.python,
      storedToken: await this.token.stored(),
      envToken: platform().env('JUPYTER_TOKEN'),
      canStartLocal: !!platform().startLocalServer,
    });
    if (choice.kind === 'refused') throw new KernelRefused(choice.reason);
    return choice;
  }

  private server(choice: Exclude<ServerChoice, { kind: 'refused' }>, nb?: vscode.NotebookDocument): Promise<Server> {
    const key = choice.kind === 'local' ? `local\n${choice.python}` : `remote\n${choice.url}\n${choice.token}`;
    let p = this.servers.get(key);
    if (!p) {
      const started = choice.kind === 'local' ? this.startLocal(choice.python, nb) : this.connectRemote(choice.url, choice.token);
      const forget = () => {
        if (this.servers.get(key) === started) this.servers.delete(key);
      };
      started.then((s) => s.gone.then(forget), forget);
      this.servers.set(key, started);
      p = started;
    }
    return p;
  }

  private async startLocal(python: string, nb?: vscode.NotebookDocument): Promise<Server> {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const root = folder?.uri.fsPath ?? (nb?.uri.scheme === 'file' ? vscode.Uri.joinPath(nb.uri, '..').fsPath : platform().homeDir());
    log.info(`Starting a local Jupyter Server in ${root}${python ? ` with ${python}` : ''}`);
    const fallbacks = python ? [] : await this.serverPythons();
    const server = await platform().startLocalServer!({ python, rootDir: root, fallbacks, jupyterPath: this.kernelSpecs.dir });
    this.locals.add(server);
    void server.exited.then(() => this.locals.delete(server));
    let conn: JupyterConnection;
    try {
      conn = await connectServer(server.url, server.token);
    } catch (e) {
      await server.dispose();
      throw e;
    }
    log.info(`Local Jupyter Server running at ${server.url} (pid ${server.pid})`);
    const gone = server.exited.then((code) => {
      conn.dispose();
      const msg = `The local Jupyter Server stopped (exit code ${code}): its kernels are gone. Run a cell to start a new one.`;
      log.warn(msg);
      return msg;
    });
    return { conn, root, gone, label: 'the local Jupyter Server' };
  }

  private async connectRemote(url: string, token: string): Promise<Server> {
    log.info(`Connecting to the Jupyter Server at ${url}${token ? '' : ' (no token)'}`);
    const conn = await connectServer(url, token);
    return { conn, gone: never, label: `the Jupyter Server at ${conn.url}` };
  }

  dispose(): void {
    const specs = this.specs;
    void Promise.all([...this.locals].map((s) => s.dispose())).finally(() => specs?.dispose());
    this.specs = undefined;
    for (const p of this.servers.values()) p.then((s) => s.conn.dispose(), () => undefined);
    this.servers.clear();
  }
}
