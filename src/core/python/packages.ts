// Dialogs written in Solveit import what Solveit's own environment has (dialoghelper, fastcore, …). Run
// anywhere else they stop at `ModuleNotFoundError`; the package that provides such a module is what to
// offer to install. Only these: an unknown module's package name is not ours to guess.

/** The pip package of each top-level module a Solveit dialog may expect. */
const SOLVEIT_PACKAGES: Readonly<Record<string, string>> = {
  dialoghelper: 'dialoghelper',
  fastcore: 'fastcore',
  toolslm: 'toolslm',
  msglm: 'msglm',
  claudette: 'claudette',
  fasthtml: 'python-fasthtml',
};

/** The module and pip package of the first `ModuleNotFoundError` among a cell's outputs for a module Solveit provides, else undefined. */
export function missingSolveitPackage(outputs: readonly unknown[]): { module: string; pkg: string } | undefined {
  for (const o of outputs) {
    const e = o as { output_type?: unknown; ename?: unknown; evalue?: unknown } | null;
    if (e?.output_type !== 'error' || e.ename !== 'ModuleNotFoundError' || typeof e.evalue !== 'string') continue;
    const module = /No module named '([\w.]+)'/.exec(e.evalue)?.[1].split('.')[0];
    if (module && Object.hasOwn(SOLVEIT_PACKAGES, module)) return { module, pkg: SOLVEIT_PACKAGES[module] };
  }
  return undefined;
}
