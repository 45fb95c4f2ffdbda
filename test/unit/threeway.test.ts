// The three-way merge of dialogs by message id (issue 46), on the corpus and on small built dialogs.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { Dialog, Message } from '../../src/core/model';
import { CONFLICT_KEY, conflictOf, describeMerge, fingerprint, mergeDialogs, resolveConflict } from '../../src/core/threeway';
import { corpusFiles } from './corpus';

const files = corpusFiles();
/** The readable dialogs of the corpus (it also holds files built not to read). */
const texts = new Map(
  files.flatMap((f) => {
    const text = readFileSync(f.path, 'utf8');
    try {
      readIpynb(text);
      return [[f.stem, text] as const];
    } catch {
      return [];
    }
  }),
);
/** The messages' contents (an id-less cell's id is made up at each read, and an edited one writes it). */
const looks = (d: Dialog) => d.messages.map(fingerprint);
const readAll = (text: string) => [readIpynb(text), readIpynb(text), readIpynb(text)] as const;

describe('three-way merge: on the corpus', function () {
  this.timeout(300000);

  it('merging a dialog with itself changes nothing, byte for byte', () => {
    for (const [stem, text] of texts) {
      const [b, o, t] = readAll(text);
      const { dialog, report } = mergeDialogs(b, o, t);
      assert.equal(writeIpynb(dialog), text, stem);
      assert.equal(describeMerge(report), '', stem);
      // Told the three are as read, it compares messages by their text alone, to the same end.
      const told = mergeDialogs(b, o, t, { asRead: [b, o, t] });
      assert.equal(writeIpynb(told.dialog), text, stem);
      assert.equal(describeMerge(told.report), '', stem);
    }
  });

  it('when only theirs changed, the result is their file byte for byte', () => {
    for (const [stem, text] of texts) {
      const [b, o, t] = readAll(text);
      if (!t.messages.length) continue;
      t.messages[0].content += '\nedited on their side';
      const theirs = writeIpynb(t);
      const { dialog } = mergeDialogs(b, o, readIpynb(theirs));
      assert.equal(writeIpynb(dialog), theirs, stem);
    }
  });

  type Op = { kind: 'edit' | 'delete' | 'insert'; at: number };
  /** Applies ops (by base position) to a dialog read from the base text; inserts go after their anchor. */
  function apply(d: Dialog, ops: Op[], tag: string): void {
    const anchors = d.messages.slice();
    for (const op of ops) {
      const m = anchors[op.at];
      if (op.kind === 'edit') m.content += `\n${tag} edit`;
      else if (op.kind === 'delete') d.messages.splice(d.messages.indexOf(m), 1); // not removeMsgs: it takes every holder of a repeated id
      else m.insertAfter([new Message({ id: tag + String(op.at).padStart(7, '0'), msgType: 'note', content: `${tag} added after ${op.at}` })]);
    }
  }

  it('disjoint edits, deletes and inserts of both sides merge cleanly into what both did', () => {
    const some = files.filter((f) => f.set === 'synthetic' || /dialoghelper|z2h/.test(f.stem)).slice(0, 40);
    for (const f of some) {
      const text = texts.get(f.stem);
      if (text === undefined) continue;
      const read = readIpynb(text);
      const n = read.messages.length;
      const exact = new Set(read.messages.map((m) => m.id)).size === n && read.messages.every((m) => m.origin?.genId === undefined);
      if (n < 2) continue;
      const op = fc.record({ kind: fc.constantFrom<Op['kind']>('edit', 'delete', 'insert'), at: fc.nat(n - 1) });
      fc.assert(
        fc.property(fc.uniqueArray(op, { selector: (o) => o.at, maxLength: 8 }), fc.nat(), (ops, cut) => {
          // Each position belongs to one side; an insert's anchor is its own position, so sides never touch.
          const mine = ops.filter((_, i) => (i + cut) % 2 === 0);
          const theirsOps = ops.filter((_, i) => (i + cut) % 2 === 1);
          const [b, o, t] = readAll(text);
          apply(o, mine, 'x');
          apply(t, theirsOps, 'x');
          const expected = readIpynb(text);
          apply(expected, [...mine, ...theirsOps], 'x');
          const [o2, t2] = [readIpynb(writeIpynb(o)), readIpynb(writeIpynb(t))];
          const { dialog, report } = mergeDialogs(b, o2, t2);
          assert.equal(report.conflicts, 0, f.stem);
          const told = mergeDialogs(b, o2, t2, { asRead: [b, o2, t2] });
          assert.deepEqual(told.report, report, 'told the sides are as read: the same merge');
          assert.equal(writeIpynb(told.dialog), writeIpynb(dialog), f.stem);
          // Id-less cells and repeated ids match by content and place, so an edit beside an insert may read
          // as a delete and an add: the same messages, maybe in another order among the neighbours.
          if (exact) assert.deepEqual(looks(dialog), looks(expected), f.stem);
          else assert.deepEqual(looks(dialog).sort(), looks(expected).sort(), f.stem);
          const written = writeIpynb(dialog);
          assert.equal(writeIpynb(readIpynb(written)), written, 'the result is a valid dialog');
        }),
        { numRuns: 15 },
      );
    }
  });
});

describe('three-way merge: conflicts, moves, id-less cells', () => {
  const dlg = (...msgs: [string, string][]) => new Dialog(msgs.map(([id, content]) => new Message({ id, content, msgType: id.startsWith('p') ? 'prompt' : 'code' })));
  const three = (d: Dialog) => {
    const text = writeIpynb(d);
    return readAll(text);
  };

  it('the same message changed on both sides keeps both, marked, and the file stays a valid dialog', () => {
    const [b, o, t] = three(dlg(['a1', 'x = 1'], ['b1', 'y = 2'], ['c1', 'z = 3']));
    o.messages[1].content = 'y = 20';
    t.messages[1].content = 'y = 200';
    t.messages[2].content = 'z = 30';
    const { dialog, report } = mergeDialogs(b, o, t);
    assert.equal(describeMerge(report), '1 message edited, 1 conflict');
    assert.deepEqual(dialog.messages.map((m) => m.content), ['x = 1', 'y = 20', 'y = 200', 'z = 30']);
    const copy = dialog.messages[2];
    assert.deepEqual(conflictOf(copy), { side: 'theirs', of: 'b1' });
    assert.notEqual(copy.id, 'b1');
    const back = readIpynb(writeIpynb(dialog));
    assert.deepEqual(back.messages[2].meta[CONFLICT_KEY], { side: 'theirs', of: 'b1' });
    // Resolving: theirs takes the message's place and id.
    const reread = () => readIpynb(writeIpynb(dialog)).messages;
    const msgs = reread();
    assert.ok(resolveConflict(msgs, msgs[1], 'theirs'));
    assert.deepEqual(msgs.map((m) => [m.id, m.content, conflictOf(m)]), [['a1', 'x = 1', undefined], ['b1', 'y = 200', undefined], ['c1', 'z = 30', undefined]]);
    const mine = reread();
    resolveConflict(mine, mine[2], 'mine');
    assert.deepEqual(mine.map((m) => m.content), ['x = 1', 'y = 20', 'z = 30']);
    const both = reread();
    resolveConflict(both, both[2], 'both');
    assert.deepEqual(both.map((m) => [m.content, conflictOf(m)]), [['x = 1', undefined], ['y = 20', undefined], ['y = 200', undefined], ['z = 30', undefined]]);
  });

  it('an edit on one side and a delete on the other keeps the edit, marked', () => {
    const [b, o, t] = three(dlg(['a1', 'x = 1'], ['b1', 'y = 2']));
    o.messages[1].content = 'y = 20';
    t.removeMsgs(['b1']);
    const r1 = mergeDialogs(b, o, t);
    assert.deepEqual(r1.dialog.messages.map((m) => [m.content, conflictOf(m)]), [['x = 1', undefined], ['y = 20', { side: 'ours', of: null }]]);
    const [b2, o2, t2] = three(dlg(['a1', 'x = 1'], ['b1', 'y = 2']));
    o2.removeMsgs(['b1']);
    t2.messages[1].content = 'y = 200';
    const r2 = mergeDialogs(b2, o2, t2);
    assert.deepEqual(r2.dialog.messages.map((m) => [m.content, conflictOf(m)]), [['x = 1', undefined], ['y = 200', { side: 'theirs', of: null }]]);
    assert.equal(r2.report.conflicts, 1);
  });

  it('a move on one side and an edit of the moved message on the other both land', () => {
    const [b, o, t] = three(dlg(['a1', 'A'], ['b1', 'B'], ['c1', 'C'], ['d1', 'D']));
    o.messages[0].content = 'A edited';
    const [a] = t.removeMsgs(['a1']) as string[];
    t.msg('c1').insertAfter([b.msg(a).clone()]);
    const { dialog, report } = mergeDialogs(b, o, readIpynb(writeIpynb(t)));
    assert.equal(report.conflicts, 0);
    assert.deepEqual(dialog.messages.map((m) => m.content), ['B', 'C', 'A edited', 'D']);
  });

  it('messages busy on our side are left as they are and where they are; what theirs did to them waits', () => {
    const [b, o, t] = three(dlg(['a1', 'A'], ['p1', 'ask']));
    t.messages[1].content = 'ask again';
    t.removeMsgs(['a1']);
    const { dialog, report } = mergeDialogs(b, o, t, { keep: (m) => m.id === 'p1' || m.id === 'a1' });
    assert.deepEqual(dialog.messages.map((m) => [m.content, conflictOf(m)?.side]), [['A', undefined], ['ask', undefined]]);
    assert.equal(dialog.messages[1], o.messages[1]);
    assert.equal(report.conflicts, 0);
    assert.deepEqual(report.waiting.sort(), ['a1', 'p1']);
  });

  it('id-less cells match by content, and an edited one by its place', () => {
    const cell = (s: string) => `{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ${JSON.stringify(s)}}`;
    const nb = (...src: string[]) => `{"cells": [${src.map(cell).join(', ')}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}\n`;
    const base = nb('a', 'b', 'c', 'd');
    const { dialog, report } = mergeDialogs(readIpynb(base), readIpynb(nb('a', 'b!', 'c', 'd')), readIpynb(nb('a', 'b', 'c', 'new', 'd!')));
    assert.equal(report.conflicts, 0);
    assert.deepEqual(dialog.messages.map((m) => m.content), ['a', 'b!', 'c', 'new', 'd!']);
    const written = writeIpynb(dialog);
    assert.ok(written.includes(cell('a')) && !written.includes('"id"'), 'untouched id-less cells keep their bytes, and the file stays id-less');
  });
});
