// Every surgery command runs the same way: plan against a snapshot of the dialog, refuse with the
// core's reason when the plan is impossible (changing nothing), else apply it as one edit.

import { Message } from '../../core/model';
import { DialogEdit } from '../../core/surgery';
import { CommandResult, DONE, reason, refuse } from './feedback';
import { NO_TARGET, Target, selectCells } from './target';
import { named } from './named';
import { DialogSnapshot, applyDialogEdit, resultIndices, snapshotDialog } from '../editing/edits';

/** Plans with `make`, applies it as one edit and selects the resulting cells; refuses (changing nothing) when planning fails. */
export async function runPlan(
  t: Target | undefined,
  make: (snap: DialogSnapshot, t: Target) => DialogEdit<Message[] | Message>,
): Promise<CommandResult> {
  if (!t) return refuse(NO_TARGET);
  const snap = snapshotDialog(t.nb);
  let plan: DialogEdit<Message[] | Message>;
  try {
    plan = make(snap, t);
  } catch (e) {
    return refuse(named(reason(e), snap.d));
  }
  const why = await applyDialogEdit(snap, plan);
  if (why) return refuse(why);
  const at = resultIndices(snap, Array.isArray(plan.result) ? plan.result : [plan.result]);
  if (at.length) selectCells(t.nb, at[0], at[at.length - 1] + 1);
  return DONE;
}
