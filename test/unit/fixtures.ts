// Dialogs and strings several unit suites share.
import { Dialog, Message, codeOutput, promptOutput } from '../../src/core/model';

export const ENV = '<instructions>Respond to the request in the `prompt` below.</instructions>\n';
export const PENDING = '<output result="pending" reason="incomplete"/>';

/** The V134 dialog: a note, an answered prompt, code, a skipped note, a bookkeeping raw, a pending prompt. */
export function v134(): Dialog {
  return new Dialog([
    new Message({ id: 'n0', msgType: 'note', content: 'intro' }),
    new Message({ id: 'p1', msgType: 'prompt', content: 'q1', output: promptOutput('a1') }),
    new Message({ id: 'c1', msgType: 'code', content: 'x=1', output: codeOutput("'s'") }),
    new Message({ id: 'sk', msgType: 'note', content: 'skipped', skipped: 1 }),
    new Message({ id: 'rk', msgType: 'raw', content: '', meta: { rec_kind: 'system' } }),
    new Message({ id: 'p2', msgType: 'prompt', content: 'q2' }),
  ], 'v');
}
