// A local Jupyter Server for the dialogs of this window: 127.0.0.1 only, a free port, a random token,
// its own process group, stopped on dispose. No vscode import, so it is tested under plain Node.

import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { onPath } from '../environments/discovery';

/** How to launch Jupyter Server: a command and the arguments before the server's own options. */
export interface JupyterCommand {
  command: string;
  args: string[];
}

export interface LocalServerOptions {
  /** The Python that has `jupyter_server` (setting `dialogNotebook.python`); empty: look on the PATH. */
  python?: string;
  /** The server's root: the dialog's folder or the workspace. Kernels start in the dialog's folder under it. */
  rootDir: string;
  /** Pythons found to have `jupyter_server`, tried when neither the setting nor the PATH gives a server. */
  fallbacks?: readonly string[];
  /** A folder of kernelspecs put first on the server's JUPYTER_PATH (the environments' kernels). */
  jupyterPath?: string;
  /** How long the server may take to start listening (default 60 s: Python imports are slow on a busy machine). */
  startTimeoutMs?: number;
}

export interface LocalServer {
  /** Base URL, ending in `/`. */
  readonly url: string;
  readonly token: string;
  readonly pid: number;
  /** Resolves when the server process has exited (its exit code, or null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Stops the server (it shuts its kernels down first), then its whole process group. */
  dispose(): Promise<void>;
}

/** No usable Jupyter Server: the message says what was tried and what to install. */
export class JupyterNotFoundError extends Error {
  constructor(tried: string) {
    super(
      `Jupyter Server was not found (${tried}). Install it with \`pip install jupyter_server ipykernel\` ` +
        '(Debian/Ubuntu: `sudo apt-get install jupyter-server python3-ipykernel`), ' +
        'or set `dialogNotebook.python` to a Python that has them, or connect to a server with `dialogNotebook.jupyter.serverUrl`.',
    );
    this.name = 'JupyterNotFoundError';
  }
}

/** The server exited or stayed silent before it was listening. */
export class ServerStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerStartError';
  }
}

/** Runs `python -c 'import jupyter_server'`; resolves to the failure text, or '' when it imports. */
function probe(python: string): Promise<string> {
  return new Promise((resolve) => {
    let err = '';
    const p = spawn(python, ['-c', 'import jupyter_server'], { stdio: ['ignore', 'ignore', 'pipe'] });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', (e) => resolve(`${python}: ${e.message}`));
    p.on('close', (code) => resolve(code === 0 ? '' : `${python}: ${err.trim().split('\n').pop() || `exit ${code}`}`));
  });
}

/**
 * The Jupyter Server to run: `<python> -m jupyter_server` for the configured Python; with none
 * configured, `python3` on the PATH, else the `jupyter-server` script on the PATH (which runs on its
 * own interpreter: a pyenv `python3` may shadow the system one that has Jupyter), else the first of
 * `fallbacks` (environments found to have jupyter_server).
 */
export async function findJupyterServer(python?: string, fallbacks: readonly string[] = []): Promise<JupyterCommand> {
  const py = python?.trim();
  const failure = await probe(py || 'python3');
  if (!failure) return { command: py || 'python3', args: ['-m', 'jupyter_server'] };
  const script = py ? undefined : onPath('jupyter-server');
  if (script) return { command: script, args: [] };
  if (!py && fallbacks.length) return { command: fallbacks[0], args: ['-m', 'jupyter_server'] };
  throw new JupyterNotFoundError(py ? failure : `${failure}; no jupyter-server on the PATH`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Kills the process group, ignoring one that is already gone. */
function killGroup(p: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (p.pid) process.kill(-p.pid, signal);
  } catch {
    // already exited
  }
}

function exitOf(p: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) resolve(p.exitCode);
    else p.once('exit', (code) => resolve(code));
  });
}

/**
 * A config file for the server we start. Its kernel WebSockets send each message at once: Jupyter Server
 * leaves Nagle's algorithm on, so a cell's replies wait for the client's delayed ACK: ~40 ms per cell
 * (the handler's module moved in Jupyter Server 2; a version with neither keeps its default). And it
 * stops when the extension host is gone: its stdin is a pipe from us, which closes when our process ends
 * however it ends (killed, crashed), so the server and its kernels never outlive the window.
 */
const SERVER_CONFIG = `# Written by Dialog Notebooks for the local Jupyter Server it starts.
import importlib, os, signal, threading
def _stop_when_parent_gone():
    while os.read(0, 4096):
        pass
    os.kill(os.getpid(), signal.SIGTERM)
threading.Thread(target=_stop_when_parent_gone, daemon=True).start()
for _module, _name in [('jupyter_server.services.kernels.websocket', 'KernelWebsocketHandler'),
                       ('jupyter_server.services.kernels.handlers', 'ZMQChannelsHandler')]:
    try:
        _cls = getattr(importlib.import_module(_module), _name)
    except (ImportError, AttributeError):
        continue
    def _open(self, *args, _open=_cls.open, **kwargs):
        self.set_nodelay(True)
        return _open(self, *args, **kwargs)
    _cls.open = _open
    break
`;

/** One launch on one port: resolves once the server says it is running, rejects with its log otherwise. */
async function launch(cmd: JupyterCommand, rootDir: string, port: number, token: string, timeoutMs: number, jupyterPath?: string): Promise<LocalServer> {
  const configDir = mkdtempSync(join(tmpdir(), 'dialog-jupyter-'));
  const configFile = join(configDir, 'jupyter_server_config.py');
  writeFileSync(configFile, SERVER_CONFIG);
  const removeConfig = () => rmSync(configDir, { recursive: true, force: true });
  const args = [
    ...cmd.args,
    '--ServerApp.ip=127.0.0.1',
    `--ServerApp.port=${port}`,
    '--ServerApp.port_retries=0',
    '--no-browser',
    `--ServerApp.root_dir=${rootDir}`,
    `--config=${configFile}`,
    ...(process.getuid?.() === 0 ? ['--allow-root'] : []),
  ];
  // The token travels in the environment, not on a command line other users can read with `ps`.
  const env: NodeJS.ProcessEnv = { ...process.env, JUPYTER_TOKEN: token };
  if (jupyterPath) env.JUPYTER_PATH = [jupyterPath, process.env.JUPYTER_PATH].filter(Boolean).join(delimiter);
  // stdin stays open (never written) for the config's watch on this process.
  const p = spawn(cmd.command, args, { cwd: rootDir, detached: true, stdio: ['pipe', 'ignore', 'pipe'], env });
  const exited = exitOf(p);
  void exited.then(removeConfig);
  let log = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ServerStartError(`Jupyter Server did not start within ${timeoutMs / 1000} s:\n${log}`)), timeoutMs);
    p.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (/is running at/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    p.on('error', (e) => {
      clearTimeout(timer);
      reject(new ServerStartError(`${cmd.command}: ${e.message}`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new ServerStartError(`Jupyter Server exited (code ${code}) before it was ready:\n${log}`));
    });
  });
  try {
    await ready;
  } catch (e) {
    killGroup(p, 'SIGKILL');
    removeConfig();
    throw e;
  }
  p.stderr!.resume(); // keep draining the log so the server never blocks on a full pipe
  let disposing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/`,
    token,
    pid: p.pid!,
    exited,
    dispose: () =>
      (disposing ??= (async () => {
        killGroup(p, 'SIGTERM');
        const killer = setTimeout(() => killGroup(p, 'SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
        killGroup(p, 'SIGKILL'); // anything the server left in its group
      })()),
  };
}

/** Starts a local Jupyter Server and resolves once it listens; a taken port is retried on another. */
export async function startLocalServer(opts: LocalServerOptions): Promise<LocalServer> {
  const cmd = await findJupyterServer(opts.python, opts.fallbacks);
  const token = randomBytes(24).toString('hex');
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(cmd, opts.rootDir, await freePort(), token, opts.startTimeoutMs ?? 60000, opts.jupyterPath);
    } catch (e) {
      // Between freePort() closing its probe and the server binding, another process may take the port.
      if (attempt >= 3 || !(e instanceof ServerStartError && /already in use/i.test(e.message))) throw e;
    }
  }
}
