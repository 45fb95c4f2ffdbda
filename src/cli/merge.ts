// `dlg merge` and `dlg show`: git's merge driver and diff textconv for dialogs (issue 46), over the same
// three-way merge the editor uses for outside changes.
import { writeFileSync } from 'node:fs';
import { dlg2show } from '../core/export';
import { readIpynb, writeIpynb } from '../core/ipynb';
import { Dialog } from '../core/model';
import { describeMerge, mergeDialogs } from '../core/threeway';
import { CliIo, STDIO, commandArgs } from './io';
import { CliError, loadDialog, readText, stemOf } from './readFile';

export const MERGE_USAGE = 'dlg merge BASE OURS THEIRS';
export const SHOW_USAGE = 'dlg show FILE';

/**
 * Merges into OURS (git's `%O %A %B`): exit 0 merged cleanly, 1 with conflicts (OURS is still a valid
 * dialog, holding both versions of each conflicting message), 2 when a file cannot be read (OURS untouched).
 */
export async function mergeCommand(args: string[], io: CliIo = STDIO): Promise<number> {
  const { positionals } = commandArgs(MERGE_USAGE, args, {});
  if (positionals.length !== 3) throw new CliError(`usage: ${MERGE_USAGE}`);
  const [base, ours, theirs] = positionals;
  // An empty base is git's "added on both sides".
  const read = (p: string) => (readText(p).trim() ? loadDialog(p).dialog : new Dialog([], stemOf(p)));
  const [b, o, t] = [read(base), read(ours), read(theirs)];
  const { dialog, report } = mergeDialogs(b, o, t, { asRead: [b, o, t] });
  writeFileSync(ours, writeIpynb(dialog));
  const said = describeMerge(report);
  if (report.conflicts) io.err(`${ours}: ${said}; each conflict keeps both versions (Dialog: Keep Mine / Keep Theirs / Keep Both in the editor)\n`);
  return report.conflicts ? 1 : 0;
}

/** The readable text of a dialog on stdout; a file that does not read as one is shown as it is. */
export async function showCommand(args: string[], io: CliIo = STDIO): Promise<number> {
  const { positionals } = commandArgs(SHOW_USAGE, args, {});
  if (positionals.length !== 1) throw new CliError(`usage: ${SHOW_USAGE}`);
  const text = readText(positionals[0]);
  if (!text.trim()) return 0;
  let shown: string;
  try {
    shown = dlg2show(readIpynb(text));
  } catch (e) {
    // git diff runs this on every version: an unreadable one still diffs, as text.
    shown = `(not readable as a dialog: ${(e as Error).message.split('\n', 1)[0]})\n${text}`;
  }
  io.out(shown);
  return 0;
}
