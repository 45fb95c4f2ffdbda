// The dialogs' files as the search worker reads them (node/searchWorkerMain.ts): in the worker, never on
// the extension host's thread, which only hands over their paths. Read asynchronously as a batch arrives,
// so a batch's files load while the batch before it is being indexed.

import { readFile } from 'node:fs/promises';
import type { FileToIndex } from '../extension/search/indexCalls';

/** The batch with each path replaced by the file's text (undefined where it cannot be read: gone). */
export function withTexts(files: FileToIndex[]): Promise<FileToIndex[]> {
  return Promise.all(
    files.map(async ([file, stamp, from]): Promise<FileToIndex> => {
      if ('text' in from) return [file, stamp, from];
      return [file, stamp, { text: await readFile(from.path, 'utf8').catch(() => undefined) }];
    }),
  );
}
