// Which version another writer started from (core/threeway/nearest.ts): a read-modify-write that read
// before our save and wrote after it is merged from the version it read, so what we saved stays.
import { strict as assert } from 'node:assert';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { Dialog, Message } from '../../src/core/model';
import { mergeDialogs, messageDistance, nearestVersion, waitingSides, writtenFrom } from '../../src/core/threeway';

const dialog = (...msgs: [string, string][]) => {
  const d = new Dialog();
  d.messages.push(...msgs.map(([id, content]) => new Message({ id, msgType: 'note', content })));
  return readIpynb(writeIpynb(d));
};
const reread = (d: Dialog) => readIpynb(writeIpynb(d));

describe('three-way merge: the version another writer started from', () => {
  const v1 = dialog(['a', 'A'], ['b', 'B']);
  const v2 = dialog(['a', 'A'], ['b', 'B'], ['u', 'saved by the user']);

  it('counts messages added, removed and changed', () => {
    assert.equal(messageDistance(v1, reread(v1)), 0);
    assert.equal(messageDistance(v1, v2), 1);
    assert.equal(messageDistance(v2, dialog(['a', 'A changed'], ['b', 'B'])), 2);
  });

  it('a writer that read v1 and wrote after our save of v2 started from v1; merged from it, the user’s save stays', () => {
    const theirs = dialog(['a', 'A'], ['b', 'B'], ['t', 'theirs']);
    const at = nearestVersion([v1, v2], theirs);
    assert.equal(at, 0);
    const ours = reread(v2);
    const { dialog: merged } = mergeDialogs([v1, v2][at], ours, theirs);
    assert.deepEqual(merged.messages.map((m) => m.id), ['a', 'b', 't', 'u']);
    // Merged from our save instead, their file looks like a delete of the user's message.
    const wrong = mergeDialogs(v2, reread(v2), theirs).dialog;
    assert.deepEqual(wrong.messages.map((m) => m.id), ['a', 'b', 't']);
  });

  it('a writer that read our save started from it; ties go to the newest', () => {
    assert.equal(nearestVersion([v1, v2], dialog(['a', 'A'], ['b', 'B'], ['u', 'saved by the user'], ['t', 'x'])), 1);
    assert.equal(nearestVersion([v1, reread(v1)], reread(v1)), 1);
    assert.equal(nearestVersion([], v1), -1);
  });

  it('a version a later write replaced: carried on by a write made from it, not by a checkout of an older one', () => {
    const program = dialog(['a', 'A'], ['b', 'B'], ['u', 'saved by the user'], ['p', 'the program’s']);
    const again = dialog(['a', 'A'], ['b', 'B'], ['u', 'saved by the user'], ['p', 'the program’s, edited'], ['q', 'more']);
    assert.equal(writtenFrom([v1, v2], program, again), true);
    assert.equal(writtenFrom([v1, v2], program, reread(v1)), false); // git checkout: v1 again
    assert.equal(writtenFrom([v1, v2], program, reread(v2)), false);
  });
});

describe('three-way merge: busy messages wait', () => {
  it('what theirs did to a kept message that ours left alone waits, then merges alone from waitingSides', () => {
    const base = dialog(['a', 'A'], ['b', 'B'], ['c', 'C']);
    const ours = reread(base);
    const theirs = dialog(['a', 'A'], ['b', 'B by them'], ['n', 'new']);
    const busy = ours.msg('b');
    const { dialog: first, report } = mergeDialogs(base, ours, theirs, { keep: (m) => m === busy });
    assert.deepEqual(report.waiting, ['b']);
    assert.equal(report.conflicts, 0);
    assert.deepEqual(first.messages.map((m) => [m.id, m.content]), [['a', 'A'], ['b', 'B'], ['n', 'new']]);
    // Once free: only b comes in.
    const sides = waitingSides(first, base, theirs, report.waiting);
    const later = mergeDialogs(sides.base, first, sides.theirs);
    assert.deepEqual(later.dialog.messages.map((m) => [m.id, m.content]), [['a', 'A'], ['b', 'B by them'], ['n', 'new']]);
    assert.equal(later.report.edited, 1);
  });

  it('a busy message ours changed meanwhile and theirs changed too: both kept, once free', () => {
    const base = dialog(['a', 'A'], ['b', 'B']);
    const theirs = dialog(['a', 'A'], ['b', 'B by them']);
    const now = dialog(['a', 'A'], ['b', 'B by the reply']);
    const sides = waitingSides(now, base, theirs, ['b']);
    const { dialog: merged, report } = mergeDialogs(sides.base, now, sides.theirs);
    assert.equal(report.conflicts, 1);
    assert.deepEqual(merged.messages.map((m) => m.content), ['A', 'B by the reply', 'B by them']);
  });
});
