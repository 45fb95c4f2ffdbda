// `dlg`: the command line over the core library.
import { writeIpynb } from '../core/ipynb';
import { stringifyCanonical } from '../core/base';
import { validateMessage } from '../core/model';
import { fileRefReader, goldenReport } from './golden';
import { histOutput } from './hist';
import { outlineLines } from './outline';
import { CliError, loadDialog } from './readFile';

const USAGE = `usage: dlg <command> FILE
  roundtrip FILE   print writeIpynb(readIpynb(FILE)): the exact bytes a save would write
  golden FILE      the model as JSON in the schema of shared/golden/README.md
  outline FILE     the section tree, one line per message
  hist FILE [--upto ID] [--json] [--max-pixels N]
                   what a model would be sent for the last prompt (or the one at/before ID);
                   images above N pixels (default 768x768) are scaled down first
  validate FILE    list the dialog's problems (exit 1 when there are any)`;

function duplicateIds(ids: string[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const id of ids) (seen.has(id) ? dups : seen).add(id);
  return [...dups].sort();
}

async function run(argv: string[]): Promise<number> {
  const [cmd, file, ...opts] = argv;
  if (!cmd || cmd === '-h' || cmd === '--help') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 2;
  }
  if (!file) throw new CliError(`dlg ${cmd}: missing FILE\n${USAGE}`);
  const loaded = loadDialog(file);
  const d = loaded.dialog;
  switch (cmd) {
    case 'roundtrip':
      process.stdout.write(writeIpynb(d));
      return 0;
    case 'golden':
      process.stdout.write(stringifyCanonical(goldenReport(loaded)) + '\n');
      return 0;
    case 'outline':
      process.stdout.write(outlineLines(d).map((l) => l + '\n').join(''));
      return 0;
    case 'hist': {
      const upto = option(opts, '--upto');
      const max = option(opts, '--max-pixels');
      if (max !== undefined && !(Number(max) > 0)) throw new CliError('dlg hist: --max-pixels needs a positive number');
      try {
        const args = { upto, json: opts.includes('--json'), readFile: fileRefReader(file), maxPixels: max === undefined ? undefined : Number(max) };
        process.stdout.write(await histOutput(d, args));
      } catch (e) {
        throw new CliError(`${file}: ${(e as Error).message}`, 1);
      }
      return 0;
    }
    case 'validate': {
      // Duplicate ids are kept on read (DECISIONS), so they are reported once, below, not as repairs.
      const problems = loaded.repairs.filter((r) => !/duplicate id/.test(r)).map((r) => `repaired on read: ${r}`);
      const dups = duplicateIds(d.messages.map((m) => m.id));
      if (dups.length) problems.push(`duplicate message id(s): ${dups.join(', ')}`);
      for (const m of d.messages) {
        try {
          validateMessage(m);
        } catch (e) {
          problems.push((e as Error).message);
        }
      }
      for (const p of problems) process.stdout.write(`${file}: ${p}\n`);
      return problems.length ? 1 : 0;
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
    if (!(e instanceof CliError)) throw e;
    process.stderr.write(e.message + '\n');
    process.exitCode = e.exitCode;
  },
);
