// What an open dialog held that was never in its file: the edits VS Code's reload of the file replaced.
// VS Code checks the notebook's version before it turns the file into cells and replaces the notebook's
// cells after, so an edit that reaches the notebook in between goes with no trace; only what no version of
// the file ever held comes back, and nothing the file holds is taken back or deleted.

import { Dialog } from '../model/dialog';
import { fingerprint } from './match';

/**
 * The base to merge `held` (the dialog before the reload) from, into `now` (after it), so that only
 * what was never on disk comes back: a message no version of the file had (inserted meanwhile; not when
 * `now` holds the same message under another id) and a content of a message no version had (edited
 * meanwhile, merged over what `now` holds). Every other
 * message of `held` is its own base: whatever `now` holds of it stays, and a message `held` lacks is not
 * deleted. `onDisk`: the versions of the file known.
 */
export function unsavedBase(held: Dialog, now: Dialog, onDisk: readonly Dialog[]): Dialog {
  const prints = new Map<string, Set<string>>();
  for (const d of onDisk) {
    for (const m of d.messages) {
      let s = prints.get(m.id);
      if (!s) prints.set(m.id, (s = new Set()));
      s.add(fingerprint(m));
    }
  }
  const current = new Map(now.messages.map((m) => [m.id, m]));
  const shown = new Set(now.messages.map(fingerprint));
  const messages = held.messages.flatMap((m) => {
    const seen = prints.get(m.id);
    // None: inserted meanwhile, unless the dialog holds it already (under another id: never twice).
    if (!seen) return current.has(m.id) || shown.has(fingerprint(m)) ? [m] : [];
    if (seen.has(fingerprint(m))) return [m];
    return [current.get(m.id) ?? m]; // edited meanwhile
  });
  return new Dialog(messages, held.name, held.meta);
}
