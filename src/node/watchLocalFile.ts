// A local file's changes straight from the OS. VS Code's file watcher hands an extension its event about
// 100 ms after a write (it batches them); this one calls back within a millisecond or two. The folder is
// watched, not the file: a file replaced by a rename (an editor's or an agent's atomic write: a temporary
// file renamed onto it) is a new file that a watch on the old one no longer sees.

import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';

export function watchLocalFile(path: string, changed: () => void): { dispose(): void } {
  const name = basename(path);
  try {
    // Not persistent: an open watch never keeps the extension host alive.
    const w = watch(dirname(path), { persistent: false }, (_event, file) => {
      // Some platforms do not say which file: then any change in the folder may be it.
      if (!file || file.toString() === name) changed();
    });
    w.on('error', () => w.close()); // the folder gone: VS Code's own watcher still reports what comes after
    return { dispose: () => w.close() };
  } catch {
    return { dispose: () => undefined }; // cannot watch (no such folder, no watches left): VS Code's watcher alone
  }
}
