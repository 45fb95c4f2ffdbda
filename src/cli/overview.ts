// `dlg overview`: the seed's condensed, numbered view of a dialog, one line per message.
import { dlg2overview } from '../core/fork';
import { CliIo, STDIO, commandArgs } from './io';
import { CliError, loadDialog } from './readFile';

export const OVERVIEW_USAGE = 'dlg overview FILE';

/** Exit 0 with the overview on stdout; 2 for usage and unreadable files. */
export async function overviewCommand(args: string[], io: CliIo = STDIO): Promise<number> {
  const { positionals } = commandArgs(OVERVIEW_USAGE, args, {});
  const [file, extra] = positionals;
  if (!file || extra !== undefined) throw new CliError(`usage: ${OVERVIEW_USAGE}`);
  const text = dlg2overview(loadDialog(file).dialog);
  if (text) io.out(text + '\n');
  return 0;
}
