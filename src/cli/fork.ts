// `dlg fork`: a new dialog file holding a dialog's history up to a message, its lineage in its metadata.
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DialogError, writeIpynb } from '../core';
import { dlg2lineage, forkDialog } from '../core/fork';
import { CliIo, STDIO, commandArgs, corePath, countOption } from './io';
import { CliError, loadDialog } from './readFile';

export const FORK_USAGE = 'dlg fork FILE --at ID [--first-k K --last-n N] [--clear-reply] -o OUT [--force]';

/** The same file, also through links; false while `b` does not exist. */
function sameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b) || (existsSync(b) && realpathSync(a) === realpathSync(b));
}

/** Exit 0 with one line on stdout; 1 when the fork is refused; 2 for usage and unreadable files. */
export async function forkCommand(args: string[], io: CliIo = STDIO): Promise<number> {
  const { values: v, positionals } = commandArgs(FORK_USAGE, args, {
    at: { type: 'string' },
    'first-k': { type: 'string' },
    'last-n': { type: 'string' },
    'clear-reply': { type: 'boolean' },
    output: { type: 'string', short: 'o' },
    force: { type: 'boolean' },
  });
  const [file, extra] = positionals;
  if (!file || extra !== undefined || !v.at || !v.output) throw new CliError(`usage: ${FORK_USAGE}`);
  const out = v.output;
  const firstK = countOption('first-k', v['first-k']);
  const lastN = countOption('last-n', v['last-n']);
  const parent = loadDialog(file).dialog;
  if (sameFile(file, out)) throw new CliError(`${out}: is the dialog being forked; a fork never overwrites its parent`, 1);
  if (existsSync(out) && !v.force) throw new CliError(`${out}: exists; pass --force to overwrite it`, 1);
  let text: string;
  let summary: string;
  try {
    const time = new Date().toISOString();
    const fork = forkDialog(parent, v.at, { parentPath: corePath(resolve(file)), forkPath: corePath(resolve(out)), time, firstK, lastN, clearReply: v['clear-reply'] });
    const l = dlg2lineage(fork)!;
    text = writeIpynb(fork);
    summary = `${out}: ${fork.messages.length} messages, forked from ${file} at ${l.parentMsg} (split@${l.split})\n`;
  } catch (e) {
    if (e instanceof DialogError) throw new CliError(`${file}: ${e.message}`, 1);
    throw e;
  }
  try {
    writeFileSync(out, text, { flag: v.force ? 'w' : 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`${out}: cannot write file${code ? ` (${code})` : ''}`);
  }
  io.out(summary);
  return 0;
}
