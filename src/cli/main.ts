// `dlg`: the command line over the core library.
import { DialogProblem, dialogProblems, writeIpynb } from '../core/ipynb';
import { stringifyCanonical } from '../core/base';
import { cpCompare } from '../core/python';
import { goldenReport } from './golden';
import { dialogFiles } from './fileRefs';
import { histOutput } from './hist';
import { outlineLines } from './outline';
import { CliError, loadDialog, oneLine } from './readFile';
import { forkCommand } from './fork';
import { treeCommand } from './tree';
import { overviewCommand } from './overview';
import { mergeCommand, showCommand } from './merge';
import { gitSetupCommand } from './gitSetup';
import { searchCommand } from './search';
import { shareCommand } from './share';

const USAGE = `usage: dlg <command> FILE|DIR
  roundtrip FILE   print writeIpynb(readIpynb(FILE)): the exact bytes a save would write
  golden FILE      the model as JSON in the schema of shared/golden/README.md
  outline FILE     the section tree, one line per message
  hist FILE [--upto ID] [--json] [--max-pixels N] [--root DIR]
                   what a model would be sent for the last prompt (or the one at/before ID);
                   images above N pixels (default 768x768) are scaled down first; #ai files are
                   read only inside DIR (default: the dialog's folder), regular files up to 20 MB
  validate FILE    list the dialog's problems (exit 1 when there are any)
  fork FILE --at ID [--first-k K --last-n N] [--clear-reply] -o OUT [--force]
                   a new dialog OUT holding FILE's messages up to ID (or the first K and last N of
                   them), its lineage in its metadata; an existing OUT only with --force
  tree DIR         the lineage tree of every dialog under DIR
  overview FILE    one numbered line per message: id, type, first 100 characters, reply size, flags
  merge BASE OURS THEIRS
                   three-way merge by message id into OURS (git's merge driver, %O %A %B); exit 1
                   when a message changed on both sides (OURS then holds both versions, marked)
  show FILE        the dialog as readable text, one block per message (git's diff textconv)
  git-setup [--global]
                   make git merge and diff *.ipynb with merge and show (this repository, or all)
  search QUERY [FOLDER] [--kind KIND] [--limit N] [--json]
                   the dialogs under FOLDER (default .) searched as Search All Dialogs does: one
                   line per hit (file, message id, kind, snippet), best first; exit 1 when none
  share --md FILE [-o OUT] [--no-outputs] [--keep-pinned] [--keep-skipped]
                   the readable page Dialog: Share… publishes (no network): pinned and skipped
                   messages left out unless kept, what was left out on stderr`;

/** Commands that parse their own arguments (tree takes a folder, not a FILE). */
const OWN_ARGS: Record<string, (args: string[]) => Promise<number>> = {
  fork: forkCommand,
  tree: treeCommand,
  overview: overviewCommand,
  merge: mergeCommand,
  show: showCommand,
  'git-setup': gitSetupCommand,
  search: searchCommand,
  share: shareCommand,
};

/** The problems as lines, the repeated ids together on one line where the first of them is. */
function problemLines(problems: readonly DialogProblem[]): string[] {
  const lines = problems.filter((p) => p.duplicate === undefined).map((p) => p.message);
  const dups = [...new Set(problems.flatMap((p) => (p.duplicate === undefined ? [] : [p.duplicate])))];
  if (dups.length) lines.splice(problems.findIndex((p) => p.duplicate !== undefined), 0, `duplicate message id(s): ${dups.sort(cpCompare).join(', ')}`);
  return lines;
}

async function run(argv: string[]): Promise<number> {
  const [cmd, file, ...opts] = argv;
  if (!cmd || cmd === '-h' || cmd === '--help') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 2;
  }
  if (Object.hasOwn(OWN_ARGS, cmd)) return OWN_ARGS[cmd](argv.slice(1));
  if (!file) throw new CliError(`dlg ${cmd}: missing FILE\n${USAGE}`);
  const loaded = loadDialog(file);
  const d = loaded.dialog;
  switch (cmd) {
    case 'roundtrip':
      process.stdout.write(writeIpynb(d));
      return 0;
    case 'golden':
      process.stdout.write(stringifyCanonical(goldenReport(loaded, await dialogFiles(file, d))) + '\n');
      return 0;
    case 'outline':
      process.stdout.write(outlineLines(d).map((l) => l + '\n').join(''));
      return 0;
    case 'hist': {
      const upto = option(opts, '--upto');
      const max = option(opts, '--max-pixels');
      if (max !== undefined && !(Number(max) > 0)) throw new CliError('dlg hist: --max-pixels needs a positive number');
      const files = await dialogFiles(file, d, option(opts, '--root'));
      try {
        const args = { upto, json: opts.includes('--json'), files, maxPixels: max === undefined ? undefined : Number(max) };
        process.stdout.write(await histOutput(d, args));
      } catch (e) {
        throw new CliError(`${file}: ${(e as Error).message}`, 1);
      }
      return 0;
    }
    case 'validate': {
      const lines = problemLines(dialogProblems(d, loaded.repairs));
      for (const l of lines) process.stdout.write(`${file}: ${l}\n`);
      return lines.length ? 1 : 0;
    }
    default:
      throw new CliError(`dlg: unknown command '${cmd}'\n${USAGE}`);
  }
}

/** The value after `--name`, undefined when absent; an error when the value is missing. */
function option(opts: string[], name: string): string | undefined {
  const k = opts.indexOf(name);
  if (k < 0) return undefined;
  const v = opts[k + 1];
  if (v === undefined || v.startsWith('--')) throw new CliError(`dlg: ${name} needs a value`);
  return v;
}

run(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e) => {
    // Anything unexpected is still one line (and exit 2), never a stack trace.
    const err = e instanceof CliError ? e : new CliError(`dlg ${process.argv.slice(2, 4).join(' ')}: unexpected error (${oneLine(e)}); please report it`);
    process.stderr.write(err.message + '\n');
    process.exitCode = err.exitCode;
  },
);
