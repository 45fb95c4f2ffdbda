// Surgery vectors V211–V241 (test-vectors.md "Surgery (dlgskill)").
import assert from 'node:assert/strict';
import { codeOutput, Dialog, Message, promptOutput } from '../../src/core/model';
import { findMsgs } from '../../src/core/surgery';
import { mergeMsgs, splitMsg } from '../../src/core/surgery';
import { moveMsgs } from '../../src/core/surgery';
import { strDiff } from '../../src/core/surgery';
import { applyEdit } from '../../src/core/surgery';
import { delLines, insertLine, planTextEdit, strReplace } from '../../src/core/surgery';
import { lnhash, planUpdateMsg, summaryDlg, viewDlg, viewMsg } from '../../src/core/surgery';

function findDialog(): Dialog {
  const mk = (id: string, msgType: string, content: string, reply?: string) =>
    new Message({ id, msgType, content, output: reply ? promptOutput(reply) : undefined });
  return new Dialog([
    mk('h1', 'note', '# H1'),
    mk('c1', 'code', 'alpha'),
    mk('h2', 'note', '## H2'),
    mk('n1', 'note', 'beta'),
    mk('p1', 'prompt', 'Q', 'ALPHA reply'),
    mk('h3', 'note', '# H3'),
    mk('c2', 'code', 'gamma'),
  ]);
}

describe('surgery vectors: findMsgs', () => {
  const d = findDialog();
  it('V211 pattern, context 0 (reply text is searched)', () => {
    assert.deepEqual(findMsgs(d, { pattern: 'alpha', context: 0 }).ids, ['c1', 'p1']);
  });
  it('V212 use_case', () => {
    assert.deepEqual(findMsgs(d, { pattern: 'alpha', context: 0, useCase: true }).ids, ['c1']);
  });
  it('V213 default context 1 widens matches', () => {
    const r = findMsgs(d, { pattern: 'alpha' });
    assert.deepEqual([r.ids, [...r.matched]], [['h1', 'c1', 'h2', 'n1', 'p1', 'h3'], ['c1', 'p1']]);
  });
  it('V214 headers_only', () => {
    assert.deepEqual(findMsgs(d, { headersOnly: true }).ids, ['h1', 'h2', 'h3']);
  });
  it('V215 header_section by bare title', () => {
    assert.deepEqual(findMsgs(d, { headerSection: 'H2', context: 0 }).ids, ['h2', 'n1', 'p1']);
  });
  it('V216 header_section with # must match the first line exactly', () => {
    assert.deepEqual(findMsgs(d, { headerSection: '# H2', context: 0 }).ids, []);
  });
  it('V217 ids come back in dialog order', () => {
    assert.deepEqual(findMsgs(d, { ids: 'c2,h1', context: 0 }).ids, ['h1', 'c2']);
  });
  it('V218 limit', () => {
    assert.deepEqual(findMsgs(d, { pattern: 'a', limit: 2, context: 0 }).ids, ['c1', 'n1']);
  });
  it('V219 an invalid regex is a literal', () => {
    assert.deepEqual(findMsgs(d, { pattern: '(', context: 0 }).ids, []);
  });
  it('V220 preview marks context rows with -', () => {
    assert.equal(findMsgs(d, { pattern: 'beta' }).show(), 'h2:n-## H2\nn1:n:beta\np1:p-Q\n> ALPHA reply');
  });
  it('refuses positions, resolves ids among the rows', () => {
    const r = findMsgs(d, { pattern: 'beta' });
    assert.throws(() => r.msg(0), /index by message id .*res\['n1'\]/);
    assert.equal(r.msg('n').id, 'n1');
    assert.throws(() => r.msg('c1'), /no message id: 'c1'/);
  });
  it('before/after apply only with context 0', () => {
    assert.deepEqual(findMsgs(d, { pattern: 'beta', context: 0, before: 2 }).ids, ['c1', 'h2', 'n1']);
    assert.deepEqual(findMsgs(d, { pattern: 'beta', context: 0, after: 1 }).ids, ['n1', 'p1']);
  });
  it('type, only_exp, pred filters', () => {
    assert.deepEqual(findMsgs(d, { msgType: 'code', context: 0 }).ids, ['c1', 'c2']);
    assert.deepEqual(findMsgs(d, { onlyExp: true, context: 0 }).ids, []);
    assert.deepEqual(findMsgs(d, { pred: (m) => m.id.endsWith('3'), context: 0 }).ids, ['h3']);
  });
});

describe('surgery vectors: Dialog.msg', () => {
  it('V221 exact, prefix, ambiguous, missing', () => {
    const d = new Dialog(['aa112233', 'aa445566', 'bb000000'].map((id) => new Message({ id })));
    const look = (k: string) => {
      try {
        return d.msg(k).id;
      } catch (e) {
        return `KeyError: ${(e as Error).message}`;
      }
    };
    assert.deepEqual(['aa1', 'aa', 'zz', 'aa445566'].map(look), [
      'aa112233',
      "KeyError: ambiguous message id: 'aa'",
      "KeyError: no message id: 'zz'",
      'aa445566',
    ]);
  });
});

describe('surgery vectors: split and merge', () => {
  it('V222/V223 split copies meta and the export line; merge restores', () => {
    const d = new Dialog([new Message({ id: 's1', msgType: 'code', content: '#| export\ndef f(): pass\ndef g(): pass', meta: { k: 1 } })]);
    const pieces = splitMsg(d, 's1', [3]);
    assert.deepEqual(
      pieces.map((m) => [m.content, m.meta]),
      [
        ['#| export\ndef f(): pass', { k: 1 }],
        ['#| export\ndef g(): pass', { k: 1 }],
      ],
    );
    assert.equal(pieces[0].id, 's1');
    assert.match(pieces[1].id, /^[0-9a-f]{8}$/);
    assert.deepEqual(d.messages, pieces);
    const merged = mergeMsgs(d, pieces.map((m) => m.id));
    assert.deepEqual([merged.content, merged.meta], ['#| export\ndef f(): pass\n\ndef g(): pass', { k: 1 }]);
    assert.deepEqual(d.messages.map((m) => m.id), ['s1']);
  });
  it('V224/V225 split before line 4 absorbs the blank line; merge restores', () => {
    const d = new Dialog([new Message({ id: 'n', msgType: 'note', content: 'a\n\n\nb' })]);
    const pieces = splitMsg(d, 'n', [4]);
    assert.deepEqual(pieces.map((m) => m.content), ['a\n', 'b']);
    assert.equal(mergeMsgs(d, pieces).content, 'a\n\n\nb');
  });
  it('V226 split before line 3', () => {
    const d = new Dialog([new Message({ id: 'n', msgType: 'note', content: 'a\n\n\nb' })]);
    assert.deepEqual(splitMsg(d, 'n', [3]).map((m) => m.content), ['a', '\nb']);
  });
  it('V227 merging an exported piece exports through meta', () => {
    const d = new Dialog([
      new Message({ id: 'a', msgType: 'code', content: 'def a(): pass' }),
      new Message({ id: 'b', msgType: 'code', content: '#| export\ndef b(): pass' }),
    ]);
    const m = mergeMsgs(d, ['a', 'b']);
    assert.deepEqual([m.content, m.meta, m.msgType === 'code'], ['def a(): pass\n\ndef b(): pass', { nbdev: { export: 'true' } }, true]);
  });
  it('V228 mixed types merge into a note', () => {
    const d = new Dialog([
      new Message({ id: 'p', msgType: 'prompt', content: 'Q', output: promptOutput('A') }),
      new Message({ id: 'c', msgType: 'code', content: 'x=1' }),
      new Message({ id: 'r', msgType: 'raw', content: 'raw' }),
      new Message({ id: 'n', msgType: 'note', content: 'note' }),
    ]);
    const m = mergeMsgs(d, ['p', 'c', 'r', 'n']);
    assert.deepEqual(
      [m.msgType, m.content, m.output],
      ['note', '## AI Prompt\nQ\n## AI Response\nA\n\n```python\nx=1\n```\n\n```plaintext\nraw\n```\n\nnote', ''],
    );
    assert.deepEqual(d.messages.map((x) => x.id), ['p']);
  });
});

describe('surgery vectors: move', () => {
  it('V229 moves in the order listed', () => {
    const d = new Dialog(['a', 'b', 'c', 'd', 'e'].map((id) => new Message({ id })));
    const moved = moveMsgs(d, ['d', 'b'], { before: 'a' });
    assert.deepEqual(moved.map((m) => m.id), ['d', 'b']);
    assert.deepEqual(d.messages.map((m) => m.id), ['d', 'b', 'a', 'c', 'e']);
  });
});

describe('surgery vectors: text edits and diffs', () => {
  const edit = (content: string, op: (t: string) => string, msgType = 'code') => {
    const d = new Dialog([new Message({ id: 'm', msgType, content })]);
    const plan = planTextEdit(d, 'm', op);
    applyEdit(d, plan);
    return [plan.result, d.messages[0].content];
  };
  it('V230 str_replace diff', () => {
    const [res, text] = edit('x = 21\nx*2', (t) => strReplace(t, 'x = 21', 'x = 40'));
    assert.equal(res, '@@ -1,2 +1,2 @@\n-x = 21\n+x = 40\n x*2');
    assert.equal(text, 'x = 40\nx*2');
  });
  it('V231 str_replace not found is an error result, nothing changes', () => {
    const [res, text] = edit('x = 21\nx*2', (t) => strReplace(t, 'nothere', 'y'));
    assert.equal(res, "error: Failed to find 'nothere' in: 'x = 21\\nx*2'");
    assert.equal(text, 'x = 21\nx*2');
  });
  it('V232 an identical replacement is no change', () => {
    assert.equal(edit('x = 21\nx*2', (t) => strReplace(t, 'x*2', 'x*2'))[0], 'none: No changes.');
  });
  it('V233 insert_line 0', () => {
    assert.equal(edit('a\nb\nc', (t) => insertLine(t, 0, 'top'), 'note')[0], '@@ -1 +1,2 @@\n+top\n a');
  });
  it('V234 del_lines 1..-1', () => {
    assert.deepEqual(edit('a\nb\nc', (t) => delLines(t, 1, -1), 'note'), ['@@ -1,3 +0,0 @@\n-a\n-b\n-c', '']);
  });
  it('strDiff splits hunks with one line of context', () => {
    const a = 'l1\nl2\nl3\nl4\nl5\nl6';
    assert.equal(strDiff(a, 'L1\nl2\nl3\nl4\nl5\nL6'), '@@ -1,2 +1,2 @@\n-l1\n+L1\n l2\n@@ -5,2 +5,2 @@\n l5\n-l6\n+L6');
    assert.equal(strDiff(a, a), '');
  });
});

describe('surgery vectors: views and update', () => {
  it('V235 view_msg', () => {
    const m = new Message({ id: 'c', msgType: 'code', content: 'x = 21\nx*2', output: codeOutput('42') });
    assert.deepEqual(
      [viewMsg(m), viewMsg(m, { startLine: 2 }), viewMsg(m, { inclOut: true }), viewMsg(m, { nums: false })],
      ['1: x = 21\n2: x*2', '2: x*2', '1: x = 21\n2: x*2\n<out>\n42\n</out>', 'x = 21\nx*2'],
    );
  });
  it('V236 lnhash', () => {
    assert.deepEqual([lnhash(1, 'x = 21'), lnhash(2, ''), lnhash(3, 'é')], ['1|33dc|', '2|0000|', '3|8d3e|']);
    assert.equal(viewMsg(new Message({ content: 'x = 21' }), { lnhashs: true }), '1|33dc|x = 21');
  });
  const demo = () => {
    const b = new Message({
      id: 'b',
      msgType: 'code',
      content: '1/0',
      // the vector gives only the traceback; ename/evalue of 5 characters in all reproduce its out(79)
      output: [{ output_type: 'error', ename: 'Error', evalue: '', traceback: ['tb'] }],
      meta: { nbdev: { export: 'true' } },
    });
    return new Dialog(
      [
        new Message({ id: 's', msgType: 'note', content: '# Setup' }),
        new Message({ id: 'c', msgType: 'code', content: 'x = 21\nx*2', output: codeOutput('42') }),
        new Message({ id: 'p', msgType: 'prompt', content: 'Double it.', output: promptOutput('It is **42**.') }),
        b,
      ],
      'demo',
    );
  };
  it('V237 view_dlg', () => {
    assert.equal(
      viewDlg(demo()),
      '<dialog name="demo"><markdown id="s"># Setup</markdown><code id="c">x = 21\nx*2</code><prompt id="p">Double it.<out>It is **42**.</out></prompt><code id="b" export>1/0</code></dialog>',
    );
  });
  it('V238 view_dlg incl_out', () => {
    assert.equal(
      viewDlg(demo(), { inclOut: true }),
      '<dialog name="demo"><markdown id="s"># Setup</markdown><code id="c">x = 21\nx*2<out>42</out></code><prompt id="p">Double it.<out>It is **42**.</out></prompt><code id="b" export>1/0<out>tb</out></code></dialog>',
    );
  });
  it('V239 view_dlg only_errors', () => {
    assert.equal(viewDlg(demo(), { onlyErrors: true }), '<dialog name="demo"><code id="b" export>1/0<out>tb</out></code></dialog>');
  });
  it('V240 summary', () => {
    assert.equal(summaryDlg(demo()), 's:n:# Setup\nc:c:x = 21¶x*2 ⇒ out(103)\np:p:Double it.\n> It is **42**.\nb:c[export]:1/0 ⇒ out(79)');
  });
  it('V241 update_msg diff', () => {
    const d = new Dialog([new Message({ id: 'c1', msgType: 'code', content: 'w = 40\nw+2' })]);
    const plan = planUpdateMsg(d, 'c1', {}, { export: true });
    assert.equal(
      plan.result,
      '@@ -1,3 +1,3 @@\n-<code id="c1">w = 40\n+<code id="c1" export>w = 40\n w+2</code>\n-meta: {}\n+meta: {\'nbdev\': {\'export\': \'true\'}}',
    );
    assert.deepEqual(d.messages[0].meta, {}, 'planning changes nothing');
    applyEdit(d, plan);
    assert.deepEqual(d.messages[0].meta, { nbdev: { export: 'true' } });
    assert.equal(planUpdateMsg(d, 'c1', {}, { export: true }).result, 'none: No changes.');
  });
  it('update_msg rejects an undeclared field and changes nothing', () => {
    const d = new Dialog([new Message({ id: 'c1', content: 'x' })]);
    assert.throws(() => planUpdateMsg(d, 'c1', { content: 'y', bogus: 1 }), /'bogus' is not a declared Message field/);
    assert.equal(d.messages[0].content, 'x');
  });
});
