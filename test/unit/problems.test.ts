// dialogProblems (core/ipynb/problems.ts): every problem of a dialog, the one list `dlg validate` and
// the Validate command format.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { DialogProblem, dialogProblems, readIpynb, readIpynbReport } from '../../src/core/ipynb';
import { JsonObject } from '../../src/core/base';
import { Dialog, Message } from '../../src/core/model';
import { EXPLODED_KEY, explodedFrom, planExplodeReply } from '../../src/core/reply';
import { applyEdit } from '../../src/core/surgery';
import { SHARED } from './corpus';

const text = (name: string) => readFileSync(`${SHARED}/corpus/synthetic/${name}`, 'utf8');
const note = (id: string, more: Partial<ConstructorParameters<typeof Message>[0]> = {}) => new Message({ id, content: id, msgType: 'note', ...more });

describe('dialogProblems', () => {
  it('a sound dialog has none', () => {
    assert.deepEqual(dialogProblems(readIpynb(text('basic.ipynb'))), []);
    assert.deepEqual(dialogProblems(new Dialog()), []);
  });

  it('each repeat of an id is a problem on its message, naming the first', () => {
    const { dialog, repairs } = readIpynbReport(text('edge_duplicate_ids.ipynb'));
    assert.ok(repairs.some((r) => /duplicate id/.test(r)), 'reading reports the duplicates');
    const want: DialogProblem[] = [1, 2].map((index) => ({ index, message: 'duplicate message id dup1 (also cell 1)', duplicate: 'dup1' }));
    assert.deepEqual(dialogProblems(dialog, repairs), want, 'duplicate ids are not repeated as repairs');
  });

  it('every check, in order: repairs, duplicates, messages, dialog meta, exploded parts', () => {
    const bad = note('b', { msgType: 'heading' });
    const carries = note('c', { output: 'x' });
    const orphan = note('o');
    orphan.extra[EXPLODED_KEY] = 'gone';
    const d = new Dialog([note('a'), bad, note('a'), carries, orphan], 'd', { f: (() => 1) as unknown as JsonObject });
    assert.deepEqual(dialogProblems(d, ['added notebook nbformat', "cell 'a': duplicate id, kept"]), [
      { index: -1, message: 'repaired on read: added notebook nbformat' },
      { index: 2, message: 'duplicate message id a (also cell 1)', duplicate: 'a' },
      { index: 1, message: "b: unknown msg_type 'heading'" },
      { index: 3, message: 'c: note message must not carry output' },
      { index: -1, message: 'dialog meta not JSON-serializable: Object of type function is not JSON serializable' },
      { index: -1, message: '1 exploded part(s) of the missing prompt gone are kept as messages' },
    ]);
  });

  it('all messages are checked, not only up to the first bad one', () => {
    const d = new Dialog([note('x', { output: 'o' }), note('y', { output: 'o' })]);
    assert.deepEqual(dialogProblems(d).map((p) => p.index), [0, 1]);
  });

  it('checks exploded parts on a copy: the dialog keeps them', () => {
    const d = readIpynb(text('tools.ipynb'));
    const parts = applyEdit(d, planExplodeReply(d, 't0000001'));
    assert.deepEqual(dialogProblems(d), [], 'unchanged parts implode');
    parts.find((m) => m.msgType === 'code')!.content = 'python(code=open("x"))';
    const n = d.messages.length;
    const problems = dialogProblems(d);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].index, -1);
    assert.match(problems[0].message, /cannot implode the reply of t0000001/);
    assert.equal(d.messages.length, n);
    assert.ok(parts.every((m) => explodedFrom(m) === 't0000001'));
  });
});
