// `dlg tree`: the lineage tree of every dialog under a folder, as the seed's `tree_overview()` prints it.
import { Dirent, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildLineageTree, lineageEntry, LineageEntry, treeOverview } from '../core/fork';
import { CliIo, STDIO, commandArgs, corePath } from './io';
import { CliError, loadDialog } from './readFile';

export const TREE_USAGE = 'dlg tree DIR';

/** Every `.ipynb` under `dir`, in name order; hidden folders (`.ipynb_checkpoints`, `.git`) and node_modules skipped. */
function dialogFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let items: Dirent[];
    try {
      items = readdirSync(d, { withFileTypes: true });
    } catch {
      return; // an unreadable subfolder holds nothing we can show
    }
    for (const it of items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (it.name.startsWith('.') || it.name === 'node_modules') continue;
      const p = join(d, it.name);
      if (it.isDirectory()) walk(p);
      else if (it.isFile() && it.name.endsWith('.ipynb')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Exit 0 with the tree on stdout (files that cannot be read are named on stderr); 2 when DIR is no folder. */
export async function treeCommand(args: string[], io: CliIo = STDIO): Promise<number> {
  const { positionals } = commandArgs(TREE_USAGE, args, {});
  const [dir, extra] = positionals;
  if (!dir || extra !== undefined) throw new CliError(`usage: ${TREE_USAGE}`);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (e) {
    throw new CliError(`${dir}: cannot read folder (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!isDir) throw new CliError(`${dir}: not a folder`);
  const entries: LineageEntry[] = [];
  for (const file of dialogFiles(dir)) {
    try {
      entries.push(lineageEntry(corePath(relative(dir, file)), loadDialog(file).dialog));
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      io.err(`dlg tree: skipped ${e.message}\n`);
    }
  }
  const tree = buildLineageTree(entries);
  if (tree.roots.length) io.out(treeOverview(tree) + '\n');
  else io.err(`dlg tree: no dialog under ${dir} records lineage\n`);
  return 0;
}
