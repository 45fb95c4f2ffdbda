// What the fork, tree and overview commands share: where they write (tests pass their own), how they
// read their options, and paths in the '/' form the core takes.
import { sep } from 'node:path';
import { ParseArgsConfig, parseArgs } from 'node:util';
import { CliError } from './readFile';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const STDIO: CliIo = {
  out: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
};

/** Options and positionals after the command name; an unknown or incomplete option is a usage error (exit 2). */
export function commandArgs<O extends NonNullable<ParseArgsConfig['options']>>(usage: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(`${(e as Error).message.replace(/\. .*$/s, '')}\nusage: ${usage}`);
  }
}

/** A whole number ≥ 0 given as `--name N`; undefined when the option is absent. */
export function countOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new CliError(`--${name} needs a whole number, got '${v}'`);
  return Number(v);
}

/** A host path in the core's '/'-separated form. */
export function corePath(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}
