// Every problem of a dialog, not only the first (which is all validation reports): what reading
// repaired, repeated ids, messages and dialog meta that would not save, exploded parts that would not
// implode on save. `dlg validate` and the Validate command only format this list.

import { Dialog } from '../model/dialog';
import { validateDialogMeta, validateMessage } from '../model/validate';
import { savedDialog } from '../reply/explode';

export interface DialogProblem {
  /** The index of the message it is about, or -1 for the dialog as a whole. */
  index: number;
  message: string;
  /** On a message that repeats an earlier message's id: that id (a host may report them together). */
  duplicate?: string;
}

/** Why `check` throws, or null when it does not. */
function thrown(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The problems of `d`, in this order: the repairs reading made (`readIpynbReport`), repeated ids,
 * invalid messages, the dialog meta, exploded parts that do not implode.
 */
export function dialogProblems(d: Dialog, repairs: readonly string[] = []): DialogProblem[] {
  // Duplicate ids are kept on read (DECISIONS), so they are reported once, as duplicates, not as repairs.
  const out: DialogProblem[] = repairs.filter((r) => !/duplicate id/.test(r)).map((r) => ({ index: -1, message: `repaired on read: ${r}` }));
  const first = new Map<string, number>();
  d.messages.forEach((m, k) => {
    const at = first.get(m.id);
    if (at === undefined) first.set(m.id, k);
    else out.push({ index: k, message: `duplicate message id ${m.id} (also cell ${at + 1})`, duplicate: m.id });
  });
  d.messages.forEach((m, k) => {
    const p = thrown(() => validateMessage(m));
    if (p !== null) out.push({ index: k, message: p });
  });
  const meta = thrown(() => validateDialogMeta(d));
  if (meta !== null) out.push({ index: -1, message: meta });
  const unimploded: string[] = [];
  savedDialog(d, unimploded);
  for (const message of unimploded) out.push({ index: -1, message });
  return out;
}
