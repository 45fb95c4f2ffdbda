// Reading a dialog's `#ai` file refs (`![](pic.png#ai)`) for the history, in the CLI and the extension.
// A dialog is data from anywhere and its refs go to a model: a ref may point outside the folder
// (`../`, an absolute path, a symlink), at a device that never ends (/dev/zero) or a FIFO that blocks
// forever. So only regular files inside the root, after resolving symlinks, up to a size cap, are read,
// asynchronously; every other ref gets the reason it is unavailable (a `<media-unavailable>` tag).

import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DEFAULT_MAX_FILE_BYTES, type FileRefs } from '../core/hist';
import { humanize } from '../core/model';

export { DEFAULT_MAX_FILE_BYTES };

export interface FileRefScope {
  /** The folder refs are relative to: the dialog's. */
  base: string;
  /** Only files inside this folder, symlinks resolved, are read. */
  root: string;
  /** How reasons name the root. */
  rootName?: string;
  maxBytes?: number;
}

/** Whether absolute `path` is `root` itself or below it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}

/** Where a ref points (`base`-relative, `..` and absolute paths allowed) when that is inside the root, else why not. */
export function refTarget(scope: FileRefScope, ref: string): { path: string } | { reason: string } {
  const path = resolve(scope.base, ref);
  return isInside(resolve(scope.root), path) ? { path } : { reason: `not inside ${scope.rootName ?? 'the allowed folder'}` };
}

function kindOf(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'a special file';
}

const CHUNK = 1024 * 1024;
// O_NONBLOCK: a FIFO swapped in after the check opens at once instead of waiting for a writer;
// O_NOFOLLOW: a symlink swapped in for the checked real path is refused. Both absent on Windows.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** One ref: its bytes, or why it is unavailable. Never throws. */
export async function readFileRef(scope: FileRefScope, ref: string): Promise<Uint8Array | string> {
  const max = scope.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const where = scope.rootName ?? 'the allowed folder';
  const target = refTarget(scope, ref);
  if ('reason' in target) return target.reason;
  try {
    const real = await realpath(target.path);
    if (!isInside(await realpath(scope.root), real)) return `links to a file not inside ${where}`;
    // Checked before opening: opening a device or a FIFO can block or have effects of its own.
    const kind = kindOf(await stat(real));
    if (kind) return `${kind}, not a regular file`;
    const h = await open(real, OPEN_FLAGS);
    try {
      const st = await h.stat();
      const kind = kindOf(st);
      if (kind) return `${kind}, not a regular file`;
      if (st.size > max) return `larger than ${humanize(max)}B (${humanize(st.size)}B)`;
      // Read up to the cap, not to the size: a file can grow while it is read.
      const chunks: Uint8Array[] = [];
      let total = 0;
      for (;;) {
        const buf = new Uint8Array(Math.min(CHUNK, max + 1 - total));
        const { bytesRead } = await h.read(buf, 0, buf.length, null);
        if (!bytesRead) break;
        chunks.push(buf.subarray(0, bytesRead));
        total += bytesRead;
        if (total > max) return `larger than ${humanize(max)}B`;
      }
      const out = new Uint8Array(total);
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.length;
      }
      return out;
    } finally {
      await h.close();
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
    if (code === 'ELOOP') return 'a symlink, not a regular file';
    return `cannot read file (${code ?? (e as Error).message})`;
  }
}

/** The refs (from core's `fileRefs`) read one after another, so a dialog with many holds one open file at a time. */
export async function readFileRefs(scope: FileRefScope, refs: readonly string[]): Promise<FileRefs> {
  const files = new Map<string, Uint8Array | string>();
  for (const ref of refs) files.set(ref, await readFileRef(scope, ref));
  return files;
}
