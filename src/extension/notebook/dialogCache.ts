// One Dialog per notebook version: the panel (state and image pre-pass), find, export and validate all
// read the same one, so a keystroke costs one conversion, not one per view. Read-only by contract
// (`savedDialog(d)` shares its unchanged messages): whoever needs to change it works on a clone.

import * as vscode from 'vscode';
import { Dialog } from '../../core/model';
import { notebookDialog } from './cells';

const cache = new WeakMap<vscode.NotebookDocument, { version: number; d: Dialog }>();

export function dialogOf(nb: vscode.NotebookDocument): Dialog {
  const hit = cache.get(nb);
  if (hit && hit.version === nb.version) return hit.d;
  const d = notebookDialog(nb);
  cache.set(nb, { version: nb.version, d });
  return d;
}
