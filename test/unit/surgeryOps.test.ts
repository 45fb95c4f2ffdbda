// Surgery operations beyond the vectors: edit shapes, check-before-mutate, sections, clipboard,
// type conversion, flags, text edits, the %%add_msg grammar.
import assert from 'node:assert/strict';
import { Attachment, Dialog, DialogError, Message, promptOutput } from '../../src/core/model';
import { aiRes } from '../../src/core/model';
import { applyEdit, spliceEdits } from '../../src/core/surgery';
import { addMsg, delMsgs, moveMsgs, moveSection, planMoveMsgs } from '../../src/core/surgery';
import { mergeMsgs, planSplitMsg, splitMsg, splitMsgAt } from '../../src/core/surgery';
import { copyMsgs, cutMsgs, pasteMsgs } from '../../src/core/surgery';
import { convertMsg, setFlag } from '../../src/core/surgery';
import { delLines, insertLine, planTextEdit, replaceLines, strReplace, strsReplace } from '../../src/core/surgery';
import { parseAddMsgMagic, shellSplit } from '../../src/core/surgery';

const ids = (d: Dialog) => d.messages.map((m) => m.id);
const mk = (spec: string) =>
  new Dialog(
    spec.split(' ').map((s) => {
      const [id, body] = s.split('=');
      return new Message({ id, msgType: body ? 'note' : 'code', content: body ? body.replace(/_/g, ' ') : id });
    }),
  );

/** Runs `op`, expects a DialogError matching `re`, and checks that `d` is exactly as before. */
function failsCleanly(d: Dialog, op: () => unknown, re: RegExp): void {
  const before = d.messages.map((m) => [m, m.id, m.content, m.msgType, JSON.stringify(m.output), JSON.stringify(m.meta)]);
  assert.throws(op, (e: unknown) => e instanceof DialogError && re.test(e.message));
  assert.deepEqual(
    d.messages.map((m) => [m, m.id, m.content, m.msgType, JSON.stringify(m.output), JSON.stringify(m.meta)]),
    before,
  );
}

describe('surgery edits: shape', () => {
  it('spliceEdits merges adjacent deletions and insertions into sorted, disjoint ranges', () => {
    const x = new Message({ id: 'x' });
    const e = spliceEdits(5, [1, 2, 4], new Map([[1, [x]], [5, []]]));
    assert.deepEqual(
      e.map((r) => [r.start, r.deleteCount, r.insert.map((m) => m.id)]),
      [
        [1, 2, ['x']],
        [4, 1, []],
      ],
    );
  });
  it('a move plan refers to pre-edit indices and does not touch the dialog', () => {
    const d = mk('a b c d e');
    const plan = planMoveMsgs(d, ['d', 'b'], { before: 'a' });
    assert.deepEqual(ids(d), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(
      plan.edits.map((r) => (r.kind === 'replace' ? [r.start, r.deleteCount, r.insert.map((m) => m.id)] : null)),
      [
        [0, 0, ['d', 'b']],
        [1, 1, []],
        [3, 1, []],
      ],
    );
    applyEdit(d, plan);
    assert.deepEqual(ids(d), ['d', 'b', 'a', 'c', 'e']);
  });
  it('a split plan is one in-place update plus one insertion', () => {
    const d = new Dialog([new Message({ id: 'n', msgType: 'note', content: 'a\n\nb\n\nc' })]);
    const plan = planSplitMsg(d, 'n', [3, 5]);
    assert.deepEqual(plan.edits.map((e) => e.kind), ['update', 'replace']);
    assert.equal(d.messages.length, 1);
    applyEdit(d, plan);
    assert.deepEqual(d.messages.map((m) => m.content), ['a', 'b', 'c']);
    assert.ok(d.messages.every((m) => m.dlg === d));
  });
});

describe('surgery: failing operations change nothing', () => {
  it('move: anchor among the moved, unknown ids, both or neither placement', () => {
    const d = mk('a b c');
    failsCleanly(d, () => moveMsgs(d, ['a', 'b'], { before: 'b' }), /relative to itself/);
    failsCleanly(d, () => moveMsgs(d, ['a', 'zz'], { after: 'c' }), /no message id: 'zz'/);
    failsCleanly(d, () => moveMsgs(d, ['a'], { before: 'zz' }), /no message id: 'zz'/);
    failsCleanly(d, () => moveMsgs(d, ['a'], {}), /Exactly one of before\/after required/);
    failsCleanly(d, () => moveMsgs(d, ['a', 'a'], { after: 'c' }), /given twice/);
  });
  it('split: line numbers are checked', () => {
    const d = new Dialog([new Message({ id: 'n', msgType: 'note', content: 'a\nb\nc' })]);
    failsCleanly(d, () => splitMsg(d, 'n', [1]), /Valid range: 2-3/);
    failsCleanly(d, () => splitMsg(d, 'n', [4]), /Valid range: 2-3/);
    failsCleanly(d, () => splitMsg(d, 'n', [3, 2]), /strictly increasing/);
    failsCleanly(d, () => splitMsgAt(d, 'n', 0), /Invalid split position/);
  });
  it('merge, delete, convert, paste, add', () => {
    const d = mk('a b c');
    failsCleanly(d, () => mergeMsgs(d, ['a']), /at least two/);
    failsCleanly(d, () => mergeMsgs(d, ['a', 'q']), /no message id: 'q'/);
    failsCleanly(d, () => delMsgs(d, ['a', 'q']), /no message id/);
    failsCleanly(d, () => convertMsg(d, 'a', 'markdown'), /unknown msg_type/);
    failsCleanly(d, () => pasteMsgs(d, { nope: 1 }), /no dialog messages/);
    failsCleanly(d, () => addMsg(d, 'x', { after: 'q' }), /no message id: 'q'/);
    failsCleanly(d, () => moveSection(d, 'a', 'up'), /already first/);
    failsCleanly(d, () => moveSection(d, 'c', 'down'), /already last/);
  });
  it('text edits: per-message errors are results, unknown ids throw first', () => {
    const d = mk('a b');
    failsCleanly(d, () => planTextEdit(d, ['a', 'zz'], (t) => t + '!'), /no message id: 'zz'/);
    const plan = planTextEdit(d, 'all', (t) => strReplace(t, 'a', 'A'));
    assert.deepEqual(plan.result, [
      ['a', '@@ -1 +1 @@\n-a\n+A'],
      ['b', "error: Failed to find 'a' in: 'b'"],
    ]);
    applyEdit(d, plan);
    assert.deepEqual(d.messages.map((m) => m.content), ['A', 'b']);
  });
});

describe('surgery: add, delete, move sections', () => {
  it('add after the current message, else append; export sets meta', () => {
    const d = mk('a b');
    const m = addMsg(d, 'x = 1', { current: 'a', export: true });
    assert.deepEqual(ids(d), ['a', m.id, 'b']);
    assert.deepEqual(m.meta, { nbdev: { export: 'true' } });
    const n = addMsg(d, 'y', { current: 'gone', msgType: 'note' });
    assert.equal(d.messages[3], n);
    assert.deepEqual(delMsgs(d, [m.id, n.id]), [m, n]);
    assert.deepEqual(ids(d), ['a', 'b']);
  });
  it('a heading moves with its section past the previous same-level section', () => {
    const d = mk('A=#_A a1 B=##_B b1 C=##_C c1 D=#_D');
    assert.deepEqual(moveSection(d, 'C', 'up').map((m) => m.id), ['C', 'c1']);
    assert.deepEqual(ids(d), ['A', 'a1', 'C', 'c1', 'B', 'b1', 'D']);
    moveSection(d, 'C', 'up'); // over the parent's intro, never out of the parent
    assert.deepEqual(ids(d), ['A', 'C', 'c1', 'a1', 'B', 'b1', 'D']);
    assert.throws(() => moveSection(d, 'C', 'up'), /already first in its section/);
    moveSection(d, 'A', 'down');
    assert.deepEqual(ids(d), ['D', 'A', 'C', 'c1', 'a1', 'B', 'b1']);
    assert.throws(() => moveSection(d, 'B', 'down'), /already last/);
    moveSection(d, 'c1', 'down'); // a plain message swaps with its neighbour
    assert.deepEqual(ids(d), ['D', 'A', 'C', 'a1', 'c1', 'B', 'b1']);
  });
});

describe('surgery: split at a position', () => {
  it('at a line start it is the line split; inside a line a plain cut', () => {
    const d = new Dialog([new Message({ id: 'n', msgType: 'note', content: 'ab\n\ncd' })]);
    assert.deepEqual(splitMsgAt(d, 'n', 4).map((m) => m.content), ['ab', 'cd']);
    assert.equal(mergeMsgs(d, d.messages).content, 'ab\n\ncd');
    assert.deepEqual(splitMsgAt(d, 'n', 1).map((m) => m.content), ['a', 'b\n\ncd']);
  });
  it('keeps a trailing newline and CRLF line ends (never lose what a user wrote)', () => {
    const d = new Dialog([new Message({ id: 'n', msgType: 'note', content: 'a\r\n\r\nb\r\n' })]);
    assert.deepEqual(splitMsg(d, 'n', [3]).map((m) => m.content), ['a', 'b\r\n']);
  });
  it('attachments follow the piece that references them', () => {
    const a1 = new Attachment(new Uint8Array([1]), 'image/png', 'att-one');
    const a2 = new Attachment(new Uint8Array([2]), 'image/png', 'att-two');
    const a3 = new Attachment(new Uint8Array([3]), 'image/png', 'att-free');
    const d = new Dialog([
      new Message({ id: 'n', msgType: 'note', content: '![](attachment:att-one)\n\n![](attachment:att-two)', attachments: [a1, a2, a3] }),
    ]);
    const [p, q] = splitMsg(d, 'n', [3]);
    assert.deepEqual(p.attachments.map((a) => a.id), ['att-one', 'att-free']);
    assert.deepEqual(q.attachments.map((a) => a.id), ['att-two']);
  });
});

describe('surgery: clipboard', () => {
  it('copy is JSON-able; paste gives fresh ids and carries attachments', () => {
    const src = new Dialog([
      new Message({ id: 'p1', msgType: 'prompt', content: 'see ![](attachment:u1)', output: promptOutput('ok'), pinned: true }),
      new Message({ id: 'c1', msgType: 'code', content: 'x', meta: { k: [1] } }),
    ]);
    src.messages[0].attachments.push(new Attachment(new Uint8Array([0, 255, 7]), 'image/png', 'u1'));
    const payload = JSON.parse(JSON.stringify(copyMsgs(src, 'c1,p1')));
    const dst = mk('a b');
    const pasted = pasteMsgs(dst, payload, { after: 'a' });
    assert.deepEqual(ids(dst), ['a', pasted[0].id, pasted[1].id, 'b']);
    assert.deepEqual(pasted.map((m) => m.content), ['x', 'see ![](attachment:u1)']);
    for (const m of pasted) assert.match(m.id, /^[0-9a-f]{8}$/);
    assert.deepEqual(pasted[0].meta, { k: [1] });
    assert.equal(aiRes(pasted[1]), 'ok');
    assert.equal(pasted[1].pinned, true);
    assert.deepEqual([...pasted[1].attachments[0].data], [0, 255, 7]);
    assert.equal(pasted[1].attachments[0].id, 'u1');
    const again = pasteMsgs(dst, payload);
    assert.notEqual(again[0].id, pasted[0].id);
    assert.equal(dst.messages[dst.messages.length - 1], again[1]);
  });
  it('cut removes and returns the payload', () => {
    const d = mk('a b c');
    const p = cutMsgs(d, ['c', 'a']);
    assert.deepEqual(ids(d), ['b']);
    assert.deepEqual(p.messages.map((m) => m.content), ['c', 'a']);
  });
});

describe('surgery: convert and flags', () => {
  it('a prompt with a reply becomes a note that keeps both, and converts back', () => {
    const d = new Dialog([new Message({ id: 'p', msgType: 'prompt', content: 'Q', output: promptOutput('A\nmore') })]);
    const m = convertMsg(d, 'p', 'note');
    assert.deepEqual([m.msgType, m.content, m.output], ['note', '## AI Prompt\nQ\n## AI Response\nA\nmore', '']);
    convertMsg(d, 'p', 'prompt');
    assert.deepEqual([m.msgType, m.content, aiRes(m)], ['prompt', 'Q', 'A\nmore']);
  });
  it('a prompt with a reply does not become code unless the reply may go', () => {
    const d = new Dialog([new Message({ id: 'p', msgType: 'prompt', content: 'Q', output: promptOutput('A') })]);
    failsCleanly(d, () => convertMsg(d, 'p', 'code'), /would lose the reply/);
    assert.deepEqual([convertMsg(d, 'p', 'code', { dropReply: true }).content, d.messages[0].output], ['Q', []]);
  });
  it('code → raw keeps the text and drops outputs', () => {
    const d = new Dialog([new Message({ id: 'c', content: 'x', output: [{ output_type: 'stream', name: 'stdout', text: '1' }] })]);
    const m = convertMsg(d, 'c', 'raw');
    assert.deepEqual([m.msgType, m.content, m.output], ['raw', 'x', '']);
  });
  it('toggle sets all unless the first is set; explicit values', () => {
    const d = mk('a b');
    setFlag(d, ['a', 'b'], 'pinned');
    assert.deepEqual(d.messages.map((m) => m.pinned), [true, true]);
    setFlag(d, ['a'], 'pinned');
    assert.deepEqual(d.messages.map((m) => m.pinned), [0, true]);
    setFlag(d, 'a,b', 'skipped', true);
    assert.deepEqual(d.messages.map((m) => m.skipped), [true, true]);
  });
});

describe('surgery: text operations', () => {
  it('str_replace: n_matches, line range, filter, regex templates', () => {
    assert.equal(strReplace('a a a', 'a', 'b', { nMatches: 2 }), 'b b a');
    assert.equal(strReplace('x\nx\nx', 'x', 'y', { startLine: 2, endLine: 3 }), 'x\ny\ny');
    assert.equal(strReplace('ax\nbx\nax', 'x', 'y', { reFilter: '^a' }), 'ay\nbx\nay');
    assert.equal(strReplace('ax\nbx', 'x', 'y', { reFilter: '^a', invertFilter: true }), 'ax\nby');
    assert.equal(strReplace('ax', 'x', 'y', { reFilter: '^z' }), 'ax');
    assert.equal(strReplace('f(1, 2)', 'f\\((\\d), (?<b>\\d)\\)', 'g(\\g<b>, \\1)', { useRegex: true }), 'g(2, 1)');
    assert.throws(() => strReplace('a\nb', 'z', 'y', { startLine: 2, endLine: 2 }), /Failed to find 'z' in: 'b' on line 2/);
    assert.throws(() => strReplace('a\nb', 'z', 'y', { startLine: 1, endLine: 2 }), /in lines 1-2$/);
    assert.throws(() => strReplace('x'.repeat(300), 'z', 'y'), new RegExp(`in: '${'x'.repeat(200)}'\\.\\.\\.$`));
  });
  it('strs_replace checks its lists', () => {
    assert.equal(strsReplace('ab', ['a', 'b'], ['b', 'c']), 'cc');
    assert.throws(() => strsReplace('ab', 'a', ['b']), /`old_strs` should be a list\[str\]/);
    assert.throws(() => strsReplace('ab', ['a'], ['b', 'c']), /Length mismatch: 1 old_strs vs 2 new_strs/);
  });
  it('insert_line, replace_lines, del_lines ranges and errors', () => {
    assert.equal(insertLine('a\nb', 2, 'c'), 'a\nb\nc');
    assert.throws(() => insertLine('a\nb', 3, 'c'), /Invalid line 3\. Valid range: 0-2/);
    assert.equal(replaceLines('a\nb\nc', 2, 2, 'X'), 'a\nX\nc');
    assert.equal(replaceLines('a\nb\nc', 2, -1, ''), 'a\n');
    assert.equal(replaceLines('', null, null, 'new'), 'new');
    assert.equal(delLines('a\nb\nc', 2, 2), 'a\nc');
    assert.equal(delLines('a\nxb\nxc', 1, -1, { reFilter: '^x' }), 'a\n');
    assert.throws(() => delLines('a', null, 1), /del_lines requires explicit start_line and end_line/);
    assert.throws(() => delLines('a\nb', 3, 3), /Invalid start line 3\. Valid range: 1-2/);
    assert.throws(() => delLines('a\nb', 2, 1), /Invalid end line 1\. Valid range: 2-2/);
  });
  it('out=True edits a prompt reply and is an error for other types', () => {
    const d = new Dialog([
      new Message({ id: 'p', msgType: 'prompt', content: 'Q', output: promptOutput('old') }),
      new Message({ id: 'c', content: 'x' }),
      new Message({ id: 'e', content: '' }),
    ]);
    const plan = planTextEdit(d, ['p', 'c'], (t) => strReplace(t, 'old', 'new'), { out: true });
    assert.deepEqual(plan.result, [
      ['p', '@@ -1 +1 @@\n-old\n+new'],
      ['c', "error: c: out=True edits a prompt's reply; assign `msg.output` directly for other types"],
    ]);
    applyEdit(d, plan);
    assert.equal(aiRes(d.messages[0]), 'new');
    assert.equal(planTextEdit(d, 'e', (t) => t).result, 'error: Message has no source');
  });
});

describe('surgery: %%add_msg grammar', () => {
  it('shell-splits; keywords win over bare tokens; body verbatim without trailing newlines', () => {
    assert.deepEqual(shellSplit(`a 'b c' "d \\"e\\"" f\\ g`), ['a', 'b c', 'd "e"', 'f g']);
    assert.deepEqual(parseAddMsgMagic('%%add_msg my.ipynb note export after=ab12\n# Title\n\n  body\n\n'), {
      dlg: 'my.ipynb',
      msgType: 'note',
      export: true,
      before: null,
      after: 'ab12',
      source: '# Title\n\n  body',
    });
    const k = parseAddMsgMagic('%%add_msg prompt "a b.ipynb" msg_type=raw dlg=x.ipynb\nhi');
    assert.deepEqual([k.msgType, k.dlg, k.export], ['raw', 'x.ipynb', false]);
    assert.equal(parseAddMsgMagic('%%add_msg').msgType, 'code');
  });
  it('rejects unknown keywords, types and conflicting placement', () => {
    assert.throws(() => parseAddMsgMagic('%%add_msg foo=1\nx'), /unknown %%add_msg keyword 'foo'/);
    assert.throws(() => parseAddMsgMagic('%%add_msg msg_type=cell\nx'), /unknown msg_type 'cell'/);
    assert.throws(() => parseAddMsgMagic('%%add_msg before=a after=b\nx'), /at most one/);
    assert.throws(() => parseAddMsgMagic("%%add_msg 'open\nx"), /No closing quotation/);
  });
});
