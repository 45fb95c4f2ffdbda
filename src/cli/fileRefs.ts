// The `#ai` files a dialog refers to, for `dlg hist` and `dlg golden`: read by the guarded reader of
// src/node, inside the dialog's folder unless `--root DIR` names a wider (or another) folder.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Dialog } from '../core/model';
import { FileRefs, fileRefs } from '../core/hist';
import { readFileRefs } from '../node/fileRefReader';
import { CliError } from './readFile';

export async function dialogFiles(path: string, d: Dialog, root?: string): Promise<FileRefs> {
  const base = dirname(resolve(path));
  if (root !== undefined && !(await stat(root).then((s) => s.isDirectory(), () => false))) throw new CliError(`--root ${root}: not a folder`);
  const scope = root === undefined ? { base, root: base, rootName: "the dialog's folder" } : { base, root: resolve(root), rootName: 'the --root folder' };
  return readFileRefs(scope, fileRefs(d.messages));
}
