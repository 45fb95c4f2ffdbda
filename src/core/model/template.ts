// TEMPLATE.ipynb files (solveit-features): a new dialog in a folder starts with the messages of every
// template of the folder and its parents, root-most first, copied with fresh ids, and carries Solveit's
// notebook metadata (`metadata.solveit`, the newer single dict) with its mode.

import { Dialog } from './dialog';

/** A new dialog from `templates` (root-most first); with none, one empty prompt to type into. */
export function dialogFromTemplates(templates: readonly Dialog[], mode: string): Dialog {
  const d = new Dialog([], '', { solveit: { mode, ver: 2 } });
  const msgs = templates.flatMap((t) => t.messages);
  if (msgs.length) d.mkMessages(msgs);
  else d.mkMessage({ msgType: 'prompt' });
  return d;
}
