// Which messages of a dialog are not in another version of it as they are: dialoghelper's
// `find_msgs(only_chg=True)` ("changed vs git HEAD"). The same matching as the merge (match.ts): by id,
// id-less cells by content, then by position between matched neighbours.

import { Dialog, Message } from '../model/dialog';
import { matchKeys, sameMessage } from './match';

/**
 * The messages of `now` that are new since `base` or differ from their version there (content, type,
 * flags, metadata, outputs: everything the cell is written from). No base (the file has no committed
 * version yet): every message, as git counts an untracked file.
 */
export function changedMessages(base: Dialog | null, now: Dialog): Set<Message> {
  if (!base) return new Set(now.messages);
  const keys = matchKeys(base.messages, now.messages, 'now');
  const was = new Map(keys.base.map((k, j) => [k, base.messages[j]]));
  const out = new Set<Message>();
  now.messages.forEach((m, i) => {
    const b = was.get(keys.other[i]);
    if (!b || !sameMessage(b, m)) out.add(m);
  });
  return out;
}
