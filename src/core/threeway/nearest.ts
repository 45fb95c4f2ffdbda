// Which version of a dialog another writer started from. A program that reads the file, changes it and
// writes it back may have read it before our last save and written after it: its file then lacks what we
// saved, and merged against our save as the base it would delete all of that. Its own change is small, so
// the version it read is the one of ours it differs from least; that is the base its change is taken from.

import { Dialog, Message } from '../model/dialog';
import { matchKeys, sameMessage } from './match';

/** How many messages differ between `a` and `b`: in one and not the other, or changed. */
export function messageDistance(a: Dialog, b: Dialog, asRead?: ReadonlySet<Message>): number {
  const { base, other } = matchKeys(a.messages, b.messages, 'b');
  const at = new Map<string, Message>();
  base.forEach((k, i) => at.set(k, a.messages[i]));
  let d = 0;
  other.forEach((k, i) => {
    const m = at.get(k);
    if (!m) d++;
    else {
      at.delete(k);
      if (!sameMessage(m, b.messages[i], asRead)) d++;
    }
  });
  return d + at.size;
}

/**
 * The index of the version in `versions` (oldest first) that `theirs` differs from least; the newest of
 * those that tie. -1 when there is none.
 */
export function nearestVersion(versions: readonly Dialog[], theirs: Dialog): number {
  const asRead = new Set([theirs, ...versions].flatMap((d) => d.messages));
  let best = -1;
  let least = Infinity;
  versions.forEach((v, i) => {
    const d = messageDistance(v, theirs, asRead);
    if (d <= least) [best, least] = [i, d];
  });
  return best;
}

/**
 * Whether `next` was written from `version` (a file another write replaced before anyone looked): nearer
 * to it than to any of the `known` ones. Then `next` carries on its changes; else (a `git checkout` of an
 * older version after a program's write) `version`'s changes are only in `version`.
 */
export function writtenFrom(known: readonly Dialog[], version: Dialog, next: Dialog): boolean {
  return nearestVersion([...known, version], next) === known.length;
}
