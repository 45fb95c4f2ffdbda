// The kernelspecs of the environments a dialog may run in, in a folder of ours that the local Jupyter
// Server has on its JUPYTER_PATH: one Jupyter Server runs kernels of any environment that has ipykernel.
// Jupyter reads kernel folders on each request, so a spec written after the server started is found.
// Node only, no vscode import: the desktop's Platform makes it (src/node/platform.ts).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PythonEnv, envKernelName, envKernelSpec } from './environment';

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
