// Reading a dialog file for the CLI: every failure becomes one clear line and exit code 2.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Dialog } from '../core/model';
import { readIpynbReport } from '../core/ipynb';

export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

export interface LoadedDialog {
  path: string;
  stem: string;
  text: string;
  dialog: Dialog;
  repairs: string[];
}

export function stemOf(path: string): string {
  return basename(path).replace(/\.ipynb$/, '');
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`${path}: cannot read file${code ? ` (${code})` : ''}`);
  }
}

export function loadDialog(path: string): LoadedDialog {
  const text = readText(path);
  const stem = stemOf(path);
  try {
    const { dialog, repairs } = readIpynbReport(text, stem);
    return { path, stem, text, dialog, repairs };
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`);
  }
}
