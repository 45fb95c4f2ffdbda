// planSplices (core/surgery/edit.ts): a plan as the sorted, disjoint range replacements VS Code's
// notebook edits need; performing them gives what applyEdit gives.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Dialog, Message } from '../../src/core/model';
import { DialogEdit, MsgSplice, UpdateEdit, applyEdit, patchMessage, planSplices, spliceEdits } from '../../src/core/surgery';

const msgs = (n: number) => Array.from({ length: n }, (_, k) => new Message({ id: `m${k}`, content: `m${k}`, msgType: 'note' }));
const contents = (list: readonly Message[]) => list.map((m) => m.content);

/** Performs splices the way a host does: the last first, so earlier indices stay valid. */
function perform(list: Message[], splices: MsgSplice[]): Message[] {
  const out = list.slice();
  for (const s of [...splices].reverse()) out.splice(s.start, s.end - s.start, ...s.msgs);
  return out;
}

/** The update as a host makes it: a patched copy of the message at the update's index. */
const updatedIn = (list: readonly Message[]) => (e: UpdateEdit) => {
  const m = list[e.index].clone();
  patchMessage(m, e.set);
  return m;
};

describe('planSplices', () => {
  it('an update replaces its message; touching ranges merge; an insertion sorts before a replacement at its index', () => {
    const list = msgs(6);
    const [x, y] = [new Message({ content: 'x', msgType: 'note' }), new Message({ content: 'y', msgType: 'note' })];
    const plan: DialogEdit<unknown> = {
      edits: [
        { kind: 'replace', start: 4, deleteCount: 1, insert: [] },
        { kind: 'update', index: 3, id: 'm3', set: { content: 'm3!' } },
        { kind: 'replace', start: 0, deleteCount: 0, insert: [x] },
        { kind: 'update', index: 0, id: 'm0', set: { content: 'm0!' } },
        { kind: 'replace', start: 2, deleteCount: 0, insert: [y] },
      ],
      result: null,
    };
    const s = planSplices(plan, updatedIn(list));
    assert.deepEqual(
      s.map((p) => [p.start, p.end, contents(p.msgs)]),
      [
        [0, 1, ['x', 'm0!']],
        [2, 2, ['y']],
        [3, 5, ['m3!']],
      ],
    );
    assert.deepEqual(contents(perform(list, s)), ['x', 'm0!', 'm1', 'y', 'm2', 'm3!', 'm5']);
    assert.deepEqual(contents(list), ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'], 'the list itself is untouched');
  });

  it('performing the splices gives what applyEdit gives, for any plan', () => {
    const plans = fc.integer({ min: 0, max: 8 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        fate: fc.array(fc.constantFrom('keep', 'delete', 'update'), { minLength: n, maxLength: n }),
        inserts: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n + 1, maxLength: n + 1 }),
      }),
    );
    fc.assert(
      fc.property(plans, ({ n, fate, inserts }) => {
        let fresh = 0;
        const ins = new Map(inserts.map((c, p) => [p, Array.from({ length: c }, () => new Message({ content: `new${fresh++}`, msgType: 'note' }))]));
        const deletes = fate.flatMap((f, k) => (f === 'delete' ? [k] : []));
        const updates: UpdateEdit[] = fate.flatMap((f, k) => (f === 'update' ? [{ kind: 'update' as const, index: k, id: `m${k}`, set: { content: `m${k}!` } }] : []));
        const plan: DialogEdit<unknown> = { edits: [...updates, ...spliceEdits(n, deletes, ins)], result: null };
        const list = msgs(n);
        const splices = planSplices(plan, updatedIn(list));
        splices.forEach((s, k) => {
          assert.ok(s.start <= s.end);
          if (k) assert.ok(splices[k - 1].end < s.start, 'sorted and not touching');
        });
        const d = new Dialog(msgs(n));
        applyEdit(d, plan);
        assert.deepEqual(contents(perform(list, splices)), contents(d.messages));
      }),
      { numRuns: 300 },
    );
  });
});
