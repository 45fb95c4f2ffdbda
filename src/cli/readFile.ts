// Reading a dialog file for the CLI: every failure becomes one clear line and exit code 2.
import { readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { basename } from 'node:path';
import { Dialog } from '../core/model';
import { readIpynbReport } from '../core/ipynb';

export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

/** An unexpected error as one line: its kind and the first line of its message. */
export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return msg.split('\n', 1)[0];
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
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`${path}: cannot read file${code ? ` (${code})` : ''}`);
  }
  // Refused, as the editor refuses it: decoding would turn the bad bytes into U+FFFD for good.
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) throw new CliError(`${path}: not UTF-8 text (invalid byte 0x${bytes[bad].toString(16).padStart(2, '0')} at offset ${bad})`);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** Offset of the first byte that does not belong to well-formed UTF-8, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  if (isUtf8(b)) return -1;
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points above U+10FFFF.
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
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
