// The kernelspecs of the environments a dialog may run in, in a folder of ours that the local Jupyter
// Server has on its JUPYTER_PATH: one Jupyter Server runs kernels of any environment that has ipykernel.
// Jupyter reads kernel folders on each request, so a spec written after the server started is found.
// Node only, no vscode import.

import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PythonEnv, envLabel } from './environment';

/** The kernelspec name of an environment on our server: stable for its interpreter, never `python3`. */
export function envKernelName(e: Pick<PythonEnv, 'executable'>): string {
  return `dialog-env-${createHash('sha256').update(e.executable).digest('hex').slice(0, 12)}`;
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

export class KernelSpecFolder {
  /** A JUPYTER_PATH entry: Jupyter looks for `kernels/<name>/kernel.json` under it. */
  readonly dir = mkdtempSync(join(tmpdir(), 'dialog-kernels-'));

  /** Writes (or refreshes) the environment's kernelspec; its name. */
  ensure(e: PythonEnv): string {
    const name = envKernelName(e);
    const folder = join(this.dir, 'kernels', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'kernel.json'), JSON.stringify(envKernelSpec(e), null, 1));
    return name;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
