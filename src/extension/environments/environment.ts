// A Python environment a dialog can run in, as the kernel layer knows it: how it was found, what its
// interpreter says it is, and how it is named. No vscode, no Node: the browser build shares it.

import { md5, toHex } from '../../core/base';

export type EnvKind = 'setting' | 'python-extension' | 'venv' | 'conda' | 'pyenv' | 'path';

/** An interpreter to look at, and how it was found. */
export interface EnvCandidate {
  /** The interpreter as found (a venv's `bin/python`, a pyenv shim …). */
  path: string;
  kind: EnvKind;
  /** What the environment is called: `.venv`, a conda env's name, `pyenv 3.11.7`, an interpreter on the PATH. */
  name: string;
  /** Found in a workspace folder (`.venv`, `venv`, `.conda`): preferred for the workspace's dialogs. */
  inWorkspace?: boolean;
}

/** An interpreter that answered. */
export interface PythonEnv extends EnvCandidate {
  /** `sys.executable`: what kernels run (a shim resolved to the real interpreter, a venv's own python). */
  executable: string;
  /** `sys.version_info[:3]`, e.g. `3.11.7`. */
  version: string;
  prefix: string;
  ipykernel: boolean;
  jupyterServer: boolean;
  /** A virtual environment (`sys.prefix` is not `sys.base_prefix`), however it was found. */
  venv?: boolean;
  /** A conda environment (its prefix holds `conda-meta`). */
  conda?: boolean;
}

/** Version strings compared part by part as numbers: 3.9 < 3.10 < 3.13, never as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[^0-9]+/).filter(Boolean).map(Number);
  const pb = b.split(/[^0-9]+/).filter(Boolean).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

/** Environments by version, oldest first (3.6, 3.9, 3.10, 3.13); one version keeps the order of preference. */
export function byVersion<E extends Pick<PythonEnv, 'version'>>(envs: readonly E[]): E[] {
  return [...envs].sort((a, b) => compareVersions(a.version, b.version));
}

/** The last folder of a path, either separator. */
function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/**
 * The kernelspec `display_name` a dialog gets for the environment, as Jupyter writes it for its kind: a
 * venv's folder name (`.venv`), a conda environment's name, else Jupyter's own "Python 3 (ipykernel)".
 * Never a path or anything else of this machine: the dialog is opened by other people, elsewhere.
 */
export function envDisplayName(e: Pick<PythonEnv, 'kind' | 'name' | 'prefix' | 'version' | 'venv' | 'conda'>): string {
  if (e.kind === 'conda') return e.name;
  if (e.kind === 'venv' || e.venv || e.conda) return folderName(e.prefix) || e.name;
  return `Python ${e.version.split('.')[0] || '3'} (ipykernel)`;
}

/** Whether the display name names this one environment (a venv's, a conda env's), not any Python. */
export function envIsNamed(e: Pick<PythonEnv, 'kind' | 'venv' | 'conda'>): boolean {
  return e.kind === 'venv' || e.kind === 'conda' || !!e.venv || !!e.conda;
}

/** "Python 3.11 (.venv)": how environments are shown (and how dialogs named them in their kernelspec before). */
export function envLabel(e: Pick<PythonEnv, 'version' | 'name'>): string {
  return `Python ${e.version.split('.').slice(0, 2).join('.')} (${e.name})`;
}

/** What the environment lacks to run a kernel ('' when nothing). */
export function envLacks(e: Pick<PythonEnv, 'ipykernel'>): string {
  return e.ipykernel ? '' : 'ipykernel';
}

/** The name of the environment an interpreter path belongs to: `.venv` for `…/.venv/bin/python`. */
export function envNameOf(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  const bin = parts.length - 2;
  return bin >= 1 && /^(bin|Scripts)$/.test(parts[bin]) ? parts[bin - 1] : parts[parts.length - 1] || path;
}

/** The kernelspec name of an environment on our server: stable for its interpreter, never `python3`. */
export function envKernelName(e: Pick<PythonEnv, 'executable'>): string {
  return `dialog-env-${toHex(md5(new TextEncoder().encode(e.executable))).slice(0, 12)}`;
}

export interface KernelJson {
  argv: string[];
  display_name: string;
  language: string;
  metadata: { debugger: boolean };
}

/** The kernel.json of an environment: its own Python running ipykernel, as `ipykernel install` writes it. */
export function envKernelSpec(e: Pick<PythonEnv, 'executable' | 'version' | 'name'>): KernelJson {
  return {
    argv: [e.executable, '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
    display_name: envLabel(e),
    language: 'python',
    metadata: { debugger: true },
  };
}
