// Discovering the Python environments a dialog can run in: where they are looked for (the workspace's venvs, conda,
// pyenv, the PATH, interpreters named by the settings or the Python extension) and what each one is, asked
// of the interpreter itself (version, prefix, whether it has ipykernel and jupyter_server). Node only, no
// vscode import: the browser build has remote-server kernels alone, and this is tested under plain Node.

import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { EnvCandidate, EnvKind, PythonEnv, compareVersions } from './environment';

const windows = process.platform === 'win32';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every executable of that name on the PATH, in order, like `which -a`. */
function allOnPath(name: string, pathVar: string): string[] {
  return pathVar
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => (windows ? [`${name}.exe`, name] : [name]).map((file) => join(dir, file)))
    .filter(executable);
}

/** An executable on the PATH, like `which`. */
export function onPath(name: string, pathVar = process.env.PATH ?? ''): string | undefined {
  return allOnPath(name, pathVar)[0];
}

/** pyenv's version folders, newest first (3.13.0 before 3.9.18). */
function byVersionDesc(a: string, b: string): number {
  return compareVersions(basename(b), basename(a));
}

/** The interpreter of an environment folder (`bin/python`, on Windows `Scripts/python.exe` or `python.exe`). */
function interpreterIn(prefix: string): string | undefined {
  const tries = windows ? [join(prefix, 'Scripts', 'python.exe'), join(prefix, 'python.exe')] : [join(prefix, 'bin', 'python3'), join(prefix, 'bin', 'python')];
  return tries.find(executable);
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => join(dir, d.name))
      .sort();
  } catch {
    return [];
  }
}

function lines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  } catch {
    return [];
  }
}

export interface DiscoverOptions {
  /** Workspace folders (file paths), searched for `.venv`, `venv` and `.conda`. */
  folders: readonly string[];
  /** Interpreters named elsewhere, looked at first (the setting, the Python extension's choice). */
  named?: readonly EnvCandidate[];
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** The folders conda keeps environments in: its own list, the active one, and the usual installs. */
function condaPrefixes(env: NodeJS.ProcessEnv, home: string): string[] {
  const roots = [env.CONDA_PREFIX, env.CONDA_ROOT, ...['miniconda3', 'anaconda3', 'miniforge3', 'mambaforge'].map((d) => join(home, d))].filter((d): d is string => !!d);
  return [...lines(join(home, '.conda', 'environments.txt')), ...roots.flatMap((r) => [r, ...subfolders(join(r, 'envs'))])];
}

/** The folders tools keep their venvs in, one venv per subfolder. */
function virtualenvHomes(env: NodeJS.ProcessEnv, home: string): string[] {
  const cache = windows ? join(home, 'AppData', 'Local') : join(home, '.cache');
  return [
    env.WORKON_HOME || join(home, '.virtualenvs'),
    windows ? join(home, '.virtualenvs') : join(home, '.local', 'share', 'virtualenvs'),
    join(cache, 'pypoetry', 'virtualenvs'),
  ];
}

/** Every interpreter worth asking, in order of preference, each path once. */
export function candidates(opts: DiscoverOptions): EnvCandidate[] {
  const env = opts.env ?? process.env;
  const home = opts.home ?? homedir();
  const found: EnvCandidate[] = [...(opts.named ?? [])];
  const add = (path: string | undefined, kind: EnvKind, name: string, inWorkspace?: true) => path && found.push({ path, kind, name, ...(inWorkspace && { inWorkspace }) });
  for (const folder of opts.folders) {
    for (const name of ['.venv', 'venv', '.conda']) add(interpreterIn(join(folder, name)), name === '.conda' ? 'conda' : 'venv', name, true);
  }
  for (const prefix of condaPrefixes(env, home)) {
    const name = basename(dirname(prefix)) === 'envs' ? basename(prefix) : 'base';
    add(interpreterIn(prefix), 'conda', name);
  }
  for (const version of subfolders(join(env.PYENV_ROOT || join(home, '.pyenv'), 'versions')).sort(byVersionDesc)) add(interpreterIn(version), 'pyenv', `pyenv ${basename(version)}`);
  // Venvs kept outside projects: virtualenvwrapper's WORKON_HOME, pipenv's and poetry's folders, ~/.venv.
  add(interpreterIn(join(home, '.venv')), 'venv', '.venv');
  for (const dir of virtualenvHomes(env, home)) for (const prefix of subfolders(dir)) add(interpreterIn(prefix), 'venv', basename(prefix));
  // Each one on the PATH: the first `python3` may be a pyenv shim hiding the system's, which has Jupyter.
  for (const name of ['python3', 'python']) for (const path of allOnPath(name, env.PATH ?? '')) add(path, 'path', path);
  const seen = new Set<string>();
  return found.filter((c) => !seen.has(c.path) && seen.add(c.path));
}

/** Prints what we need to know of an interpreter as JSON; Python 2 has no importlib.util. */
const PROBE = `import sys, json, os
try:
    from importlib.util import find_spec
except ImportError:
    from pkgutil import find_loader as find_spec
print(json.dumps({'executable': sys.executable, 'version': '%d.%d.%d' % tuple(sys.version_info[:3]), 'prefix': sys.prefix,
                  'ipykernel': find_spec('ipykernel') is not None, 'jupyterServer': find_spec('jupyter_server') is not None,
                  'venv': sys.prefix != getattr(sys, 'base_prefix', getattr(sys, 'real_prefix', sys.prefix)),
                  'conda': os.path.isdir(os.path.join(sys.prefix, 'conda-meta'))}))`;

/** The environment `c` is, from the last line its probe printed; undefined when that is not the probe's JSON. */
function probed(c: EnvCandidate, stdout: string): PythonEnv | undefined {
  try {
    const r = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Omit<PythonEnv, keyof EnvCandidate>;
    return { ...c, ...r, executable: r.executable || c.path };
  } catch {
    return undefined;
  }
}

/** Asks the interpreter what it is; undefined when it does not answer (a broken venv, a shim of no version). */
export function probe(c: EnvCandidate, timeoutMs = 20000): Promise<PythonEnv | undefined> {
  return new Promise((resolve) => {
    execFile(c.path, ['-c', PROBE], { timeout: timeoutMs, windowsHide: true }, (err, stdout) => resolve(err ? undefined : probed(c, stdout)));
  });
}

/**
 * Each interpreter's probe run at once by ONE shell, each printing "INDEX<tab>JSON": the extension host
 * forks once, not once per interpreter (a fork of a big extension host blocks it for tens of ms each).
 * The shell and what it started are killed after `timeoutMs`; interpreters that answered by then count.
 */
const PROBE_ALL = 'i=0; for p in "$@"; do (out=$("$p" -c "$DIALOG_PROBE" 2>/dev/null | tail -n 1); printf "%s\\t%s\\n" "$i" "$out") & i=$((i+1)); done; wait';

export function probeAll(cands: readonly EnvCandidate[], timeoutMs = 20000): Promise<(PythonEnv | undefined)[]> {
  if (!cands.length) return Promise.resolve([]);
  return new Promise((resolve) => {
    const sh = spawn('/bin/sh', ['-c', PROBE_ALL, 'sh', ...cands.map((c) => c.path)], { env: { ...process.env, DIALOG_PROBE: PROBE }, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    sh.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-sh.pid!, 'SIGKILL');
      } catch {
        // gone already
      }
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      const byIndex = new Map(out.split('\n').map((l) => [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)]));
      resolve(cands.map((c, k) => probed(c, byIndex.get(String(k)) ?? '')));
    };
    sh.on('close', done);
    sh.on('error', done);
  });
}

/**
 * The environments found, in order of preference. One environment found twice (`python3` on the PATH is
 * the pyenv version it shims, a conda env listed twice) is kept once, where it was found first.
 */
export async function discover(opts: DiscoverOptions): Promise<PythonEnv[]> {
  const cands = candidates(opts);
  const envs = windows ? await Promise.all(cands.map((c) => probe(c))) : await probeAll(cands);
  const seen = new Set<string>();
  return envs.filter((e): e is PythonEnv => {
    if (!e) return false;
    const key = `${e.prefix}\n${e.version}`;
    return !seen.has(key) && !!seen.add(key);
  });
}
