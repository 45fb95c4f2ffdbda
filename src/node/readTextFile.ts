// A file's text as the search worker reads it (node/searchWorkerMain.ts): in the worker's own thread,
// decoded once there, so the extension host's thread never holds or copies it.

import { readFileSync } from 'node:fs';

/** The file's text as UTF-8; undefined when it cannot be read (gone, a folder, no permission). */
export function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
