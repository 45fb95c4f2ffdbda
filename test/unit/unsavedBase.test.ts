// What an open dialog held that was never in its file (core/threeway/unsaved.ts): the edits VS Code's
// reload replaced come back; nothing the file holds is taken back or deleted.
import { strict as assert } from 'node:assert';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { Dialog, Message } from '../../src/core/model';
import { mergeDialogs, unsavedBase } from '../../src/core/threeway';

const dialog = (...msgs: [string, string][]) => readIpynb(writeIpynb(new Dialog(msgs.map(([id, content]) => new Message({ id, msgType: 'note', content })))));
const contents = (d: Dialog) => d.messages.map((m) => `${m.id}:${m.content}`);
/** `held` put back into `now`, as the outside-change merge does it. */
const putBack = (held: Dialog, now: Dialog, onDisk: Dialog[]) => contents(mergeDialogs(unsavedBase(held, now, onDisk), now, held).dialog);

describe('three-way merge: what a reload replaced', () => {
  const saved = dialog(['a', 'A'], ['b', 'B'], ['c', 'C']);

  it('an insert and an edit made while VS Code reloaded come back over the new file', () => {
    const held = dialog(['a', 'A'], ['u', 'inserted meanwhile'], ['b', 'B edited meanwhile'], ['c', 'C']);
    const file = dialog(['a', 'A'], ['b', 'B'], ['c', 'C'], ['p', 'added by a program']);
    assert.deepEqual(putBack(held, file, [saved, file]), ['a:A', 'u:inserted meanwhile', 'b:B edited meanwhile', 'c:C', 'p:added by a program']);
  });

  it('nothing the file holds is taken back: an older version of a message, a message it added or removed', () => {
    // The dialog before the reload held b as an earlier version of the file did, and no p; the file edits b,
    // adds p and removes c: all of that stays.
    const older = dialog(['a', 'A'], ['b', 'B v0'], ['c', 'C']);
    const held = dialog(['a', 'A'], ['b', 'B v0'], ['c', 'C']);
    const file = dialog(['a', 'A'], ['b', 'B v1'], ['p', 'added by a program']);
    assert.deepEqual(putBack(held, file, [older, saved, file]), ['a:A', 'b:B v1', 'p:added by a program']);
  });

  it('a message the file holds under another id does not come back twice', () => {
    const held = dialog(['a', 'A'], ['x', 'the same note'], ['b', 'B'], ['c', 'C']);
    const file = dialog(['a', 'A'], ['b', 'B'], ['c', 'C'], ['p', 'the same note']);
    assert.deepEqual(putBack(held, file, [saved, file]), ['a:A', 'b:B', 'c:C', 'p:the same note']);
  });

  it('nothing to put back when the dialog held only what the file once did', () => {
    const file = dialog(['a', 'A'], ['b', 'B'], ['c', 'C'], ['p', 'P']);
    const base = unsavedBase(saved, file, [saved, file]);
    assert.deepEqual(contents(base), contents(saved));
  });
});
