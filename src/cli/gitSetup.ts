// `dlg git-setup [--global]`: git merges dialogs by message and diffs them as readable text, as
// `nbdime config-git --enable` does for notebooks: a merge driver and a diff textconv in the git config,
// and `*.ipynb` attributes naming them (the repository's .git/info/attributes, or the global attributes
// file), pointing at this very script with this node, so `dlg` need not be on the PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CliIo, STDIO, commandArgs } from './io';
import { CliError } from './readFile';

export const GIT_SETUP_USAGE = 'dlg git-setup [--global]';
export const ATTRIBUTES_LINE = '*.ipynb diff=dialog merge=dialog';

const quote = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (e) {
    const err = e as { stderr?: string; code?: string };
    if (err.code === 'ENOENT') throw new CliError('dlg git-setup: git is not installed (or not on the PATH)');
    throw new CliError(`dlg git-setup: git ${args.join(' ')}: ${(err.stderr ?? '').trim().split('\n', 1)[0] || 'failed'}`);
  }
}

/** The attributes file: the repository's info/attributes, or the global one (core.attributesFile, else XDG). */
function attributesFile(global: boolean, cwd: string): string {
  if (!global) {
    const dir = git(['rev-parse', '--git-common-dir'], cwd);
    return join(isAbsolute(dir) ? dir : resolve(cwd, dir), 'info', 'attributes');
  }
  let configured = '';
  try {
    configured = execFileSync('git', ['config', '--global', '--path', 'core.attributesFile'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // unset
  }
  if (configured) return configured;
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'git', 'attributes');
}

export async function gitSetupCommand(args: string[], io: CliIo = STDIO, cwd = process.cwd()): Promise<number> {
  const { values, positionals } = commandArgs(GIT_SETUP_USAGE, args, { global: { type: 'boolean' } });
  if (positionals.length) throw new CliError(`usage: ${GIT_SETUP_USAGE}`);
  const global = values.global === true;
  const scope = global ? '--global' : '--local';
  if (!global) git(['rev-parse', '--git-dir'], cwd); // not a repository: git says so
  // The script node runs now (dist/cli.js, through any `dlg` link), with this node.
  const dlg = `${quote(process.execPath)} ${quote(realpathSync(process.argv[1]))}`;
  git(['config', scope, 'merge.dialog.name', 'Dialog Notebooks: merge dialogs by message id'], cwd);
  git(['config', scope, 'merge.dialog.driver', `${dlg} merge %O %A %B`], cwd);
  git(['config', scope, 'diff.dialog.textconv', `${dlg} show`], cwd);
  const file = attributesFile(global, cwd);
  const had = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (!had.split(/\r?\n/).includes(ATTRIBUTES_LINE)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, had + (had && !had.endsWith('\n') ? '\n' : '') + ATTRIBUTES_LINE + '\n');
  }
  io.out(`git ${global ? 'global' : 'repository'} config: merge.dialog and diff.dialog run ${dlg}\n${file}: ${ATTRIBUTES_LINE}\n`);
  return 0;
}
