// What runs a dialog's code: the kernelspec the dialog names on the configured server (the "Dialog"
// controller), a Python environment on the local server, or a kernelspec of the remote server. And the
// kernelspec a choice writes into the dialog, as Jupyter writes it. No vscode import.

import { isJsonObject } from '../../core/base';
import { PythonEnv, envDisplayName, envIsNamed, envLabel } from '../environments/environment';

export type KernelTarget =
  | { kind: 'dialog' }
  | { kind: 'env'; env: PythonEnv }
  | { kind: 'spec'; name: string; displayName: string; language: string };

/** The same key for the same target: an environment by its interpreter. */
export function targetKey(t: KernelTarget): string {
  return t.kind === 'dialog' ? 'dialog' : t.kind === 'env' ? `env:${t.env.executable}` : `spec:${t.name}`;
}

export interface KernelspecMeta {
  display_name: string;
  language: string;
  name: string;
}

/**
 * The dialog's `metadata.kernelspec` for a target (none for "Dialog", which keeps the dialog's own). An
 * environment is written as Jupyter writes one: the portable name `python3` (any Jupyter runs it) and the
 * display name Jupyter gives its kind (`.venv`, "Python 3 (ipykernel)"), never a path of this machine.
 */
export function targetKernelspec(t: KernelTarget): KernelspecMeta | undefined {
  if (t.kind === 'env') return { display_name: envDisplayName(t.env), language: 'python', name: 'python3' };
  if (t.kind === 'spec') return { display_name: t.displayName, language: t.language, name: t.name };
  return undefined;
}

/** A missing `ipykernel`: the environment is offered, but runs nothing until it is installed. */
export class MissingIpykernelError extends Error {
  constructor(readonly env: PythonEnv) {
    super(`${envLabel(env)} has no ipykernel, so it cannot run a kernel (${env.executable}). Install it: \`${env.executable} -m pip install ipykernel\`.`);
    this.name = 'MissingIpykernelError';
  }
}

/** The kernelspec a dialog names (`metadata.kernelspec` of the notebook's `metadata.dialog.meta`), if any. */
export function dialogKernelspec(notebookMetadata: { [key: string]: unknown }): Partial<KernelspecMeta> {
  const meta = (notebookMetadata.dialog as { meta?: unknown } | undefined)?.meta;
  const spec = isJsonObject(meta) ? meta.kernelspec : undefined;
  if (!isJsonObject(spec)) return {};
  const text = (k: string) => (typeof spec[k] === 'string' && spec[k] ? (spec[k] as string) : undefined);
  return { name: text('name'), display_name: text('display_name'), language: text('language') };
}

/**
 * Whether a dialog's kernelspec display name names this environment: the venv's or conda env's own name
 * (what a pick writes), or our label of it (what a pick wrote before). A generic "Python 3 (ipykernel)"
 * names no environment: "Dialog" runs the server's python3 for it.
 */
export function namesEnv(displayName: string | undefined, env: PythonEnv): boolean {
  return !!displayName && (displayName === envLabel(env) || (envIsNamed(env) && displayName === envDisplayName(env)));
}
