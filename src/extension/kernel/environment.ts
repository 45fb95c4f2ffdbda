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
}

/** "Python 3.11 (.venv)": how environments are shown, and named in a dialog's kernelspec. */
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
