// The conflict marker: a message changed differently on both sides keeps both versions, the other side's
// as a cell of its own whose metadata says whose version it is and of which message. The marker is plain
// cell metadata, so a merged file is a valid dialog that any reader opens and that the editor resolves.

import { Json, JsonObject, isJsonObject } from '../base/json';
import { Message } from '../model/dialog';

/** The cell metadata key of the marker. */
export const CONFLICT_KEY = 'dialog_conflict';

/**
 * `side: 'theirs'` – this cell is the other side's version of message `of` (null: this side deleted it).
 * `side: 'ours'` with `of: null` – this side's version of a message the other side deleted.
 */
export interface ConflictMark {
  side: 'ours' | 'theirs';
  of: string | null;
}

export function conflictOf(m: Pick<Message, 'meta'>): ConflictMark | undefined {
  const v = m.meta[CONFLICT_KEY];
  if (!isJsonObject(v) || (v.side !== 'ours' && v.side !== 'theirs')) return undefined;
  return { side: v.side, of: typeof v.of === 'string' ? v.of : null };
}

export function markConflict(m: Message, mark: ConflictMark): void {
  m.meta = { ...m.meta, [CONFLICT_KEY]: mark as unknown as Json };
}

export function unmarkConflict(m: Message): void {
  const { [CONFLICT_KEY]: _gone, ...rest } = m.meta;
  m.meta = rest as JsonObject;
}

export type Resolution = 'mine' | 'theirs' | 'both';

/**
 * Resolves the conflict `m` belongs to (the marked cell, or the message a marked cell is the other version
 * of) in `msgs`, in place: mine keeps this side's version, theirs puts the other side's in the message's
 * place (its id stays), both keeps each as a message of its own. Returns false when `m` is in no conflict.
 */
export function resolveConflict(msgs: Message[], m: Message, how: Resolution): boolean {
  const mark = conflictOf(m);
  const copy = mark ? m : msgs.find((x) => conflictOf(x)?.of === m.id && conflictOf(x)?.side === 'theirs');
  if (!copy) return false;
  const { side, of } = conflictOf(copy)!;
  const at = (x: Message) => msgs.indexOf(x);
  const drop = (x: Message) => msgs.splice(at(x), 1);
  if (side === 'ours') {
    // The other side deleted it.
    if (how === 'theirs') drop(copy);
    else unmarkConflict(copy);
    return true;
  }
  const mine = of === null ? undefined : msgs.find((x) => x.id === of);
  if (how === 'mine') drop(copy);
  else if (how === 'both' || !mine) unmarkConflict(copy);
  else {
    unmarkConflict(copy);
    drop(copy);
    copy.id = mine.id;
    msgs[at(mine)] = copy;
  }
  return true;
}
