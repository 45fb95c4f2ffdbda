// `dlg share --md FILE`: the page Dialog: Share… publishes, written locally (no network): pinned and
// skipped messages left out unless kept, what was left out said on stderr.
import { writeFileSync } from 'node:fs';
import { dlg2page } from '../core/share';
import { CliIo, STDIO, commandArgs } from './io';
import { CliError, loadDialog } from './readFile';

export const SHARE_USAGE = 'dlg share --md FILE [-o OUT] [--no-outputs] [--keep-pinned] [--keep-skipped]';

/** Exit 0 with the page on stdout (or in OUT); 2 for usage and unreadable files. */
export async function shareCommand(args: string[], io: CliIo = STDIO): Promise<number> {
  const { values, positionals } = commandArgs(SHARE_USAGE, args, {
    md: { type: 'boolean' },
    o: { type: 'string', short: 'o' },
    'no-outputs': { type: 'boolean' },
    'keep-pinned': { type: 'boolean' },
    'keep-skipped': { type: 'boolean' },
  });
  const [file, extra] = positionals;
  if (!values.md || !file || extra !== undefined) throw new CliError(`usage: ${SHARE_USAGE}`);
  const page = dlg2page(loadDialog(file).dialog, { keepOutputs: !values['no-outputs'], keepPinned: !!values['keep-pinned'], keepSkipped: !!values['keep-skipped'] });
  if (values.o) writeFileSync(values.o, page.markdown);
  else io.out(page.markdown);
  for (const l of page.left) io.err(`left out: message ${l.index + 1} (${l.id}): ${l.why}\n`);
  for (const i of page.images) io.err(`left out: an image of ${i.bytes} bytes in message ${i.index + 1} (${i.id})\n`);
  return 0;
}
