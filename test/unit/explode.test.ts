// Exploded replies (core/explode.ts) and the panel's reply parts (core/replyParts.ts), over the corpus:
// exploding and imploding unchanged parts gives the file back byte for byte; edits implode through
// `dlg2reply`; nothing is lost when parts no longer implode.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { Dialog, DialogError, Message } from '../../src/core/model';
import { aiRes } from '../../src/core/model';
import { dlg2reply, reply2dlg } from '../../src/core/reply';
import { applyEdit } from '../../src/core/surgery';
import { EXPLODED_KEY, explodedFrom, explodedMsgs, implodeExploded, planExplodeReply, planImplodeReply, savedDialog } from '../../src/core/reply';
import { callSource, parts2reply, replyParts } from '../../src/core/reply';
import { corpusFiles, SHARED } from './corpus';

const read = (name: string) => readIpynb(readFileSync(`${SHARED}/corpus/synthetic/${name}`, 'utf8'));

/** Explodes every prompt that can be; returns how many were. */
function explodeAll(d: Dialog): number {
  let n = 0;
  for (const p of d.messages.filter((m) => m.msgType === 'prompt')) {
    try {
      applyEdit(d, planExplodeReply(d, p));
      n++;
    } catch (e) {
      assert.ok(e instanceof DialogError, String(e));
    }
  }
  return n;
}

describe('explode / implode replies', () => {
  for (const f of corpusFiles()) {
    it(`${f.set}/${f.stem}: explode everything, implode on save: the same bytes`, () => {
      const text = readFileSync(f.path, 'utf8');
      let d: Dialog;
      try {
        d = readIpynb(text);
      } catch {
        return; // unreadable files are the storage tests' business
      }
      const before = d.messages.length;
      const n = explodeAll(d);
      if (n) assert.ok(d.messages.length > before, 'parts were inserted');
      assert.deepEqual(implodeExploded(d), []);
      assert.equal(writeIpynb(d), text);
    });
  }

  it('tags each part with its prompt and empties the prompt', () => {
    const d = read('tools.ipynb');
    const p = d.messages[0];
    const reply = aiRes(p);
    const parts = applyEdit(d, planExplodeReply(d, p.id));
    assert.equal(aiRes(p), '');
    assert.deepEqual(parts.map((m) => d.indexOf(m)), parts.map((_, k) => k + 1), 'right after the prompt');
    assert.ok(parts.every((m) => explodedFrom(m) === p.id));
    assert.deepEqual(parts.map((m) => m.msgType), reply2dlg(readIpynb(writeIpynb(read('tools.ipynb'))).messages[0]).messages.map((m) => m.msgType));
    assert.equal(new Set(d.messages.map((m) => m.id)).size, d.messages.length, 'fresh unique ids');
    assert.throws(() => planExplodeReply(d, p.id), /already exploded/);
    applyEdit(d, planImplodeReply(d, parts[1]));
    assert.equal(aiRes(p), reply);
    assert.equal(explodedMsgs(d, p.id).length, 0);
  });

  it('an edited part implodes through dlg2reply in the reply’s own style', () => {
    const d = read('tools.ipynb');
    const p = d.messages[0];
    const parts = applyEdit(d, planExplodeReply(d, p));
    parts[0].content = 'Edited note.';
    const oracle = reply2dlg(read('tools.ipynb').messages[0]);
    oracle.messages[0].content = 'Edited note.';
    applyEdit(d, planImplodeReply(d, p));
    assert.equal(aiRes(p), dlg2reply(oracle));
    assert.ok(aiRes(p).startsWith('Edited note.'));
  });

  it('refuses non-prompts, empty replies and unparsable tool names', () => {
    const d = read('basic.ipynb');
    assert.throws(() => planExplodeReply(d, 'b0000002'), /not a prompt/);
    assert.throws(() => planExplodeReply(d, 'b0000006'), /no reply/);
    assert.throws(() => planImplodeReply(d, 'b0000003'), /not exploded/);
    const t = read('tools.ipynb');
    assert.throws(() => planExplodeReply(t, 't0000007'), (e: Error) => e instanceof DialogError && /foo-bar/.test(e.message));
  });

  it('on save, parts that no longer implode and orphans stay as plain messages', () => {
    const d = read('tools.ipynb');
    const parts = applyEdit(d, planExplodeReply(d, 't0000001'));
    const call = parts.find((m) => m.msgType === 'code')!;
    call.content = 'python(code=open("x"))';
    const orphans = applyEdit(d, planExplodeReply(d, 't0000002'));
    d.messages = d.messages.filter((m) => m.id !== 't0000002');
    const n = d.messages.length;
    const problems = implodeExploded(d);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0], /cannot implode the reply of t0000001/);
    assert.match(problems[1], /missing prompt t0000002/);
    assert.equal(d.messages.length, n, 'nothing dropped');
    assert.ok([...parts, ...orphans].every((m) => !(EXPLODED_KEY in m.extra)), 'tags removed');
  });

  it('savedDialog writes what an in-place implode writes and leaves the dialog exploded', () => {
    let n = 0;
    for (const f of corpusFiles(['synthetic'])) {
      const text = readFileSync(f.path, 'utf8');
      let d: Dialog;
      try {
        d = readIpynb(text);
      } catch {
        continue;
      }
      if (!explodeAll(d)) continue;
      const msgs = d.messages.slice();
      const outputs = JSON.stringify(msgs.map((m) => [m.output, m.extra]));
      const problems: string[] = [];
      assert.equal(writeIpynb(savedDialog(d, problems)), text, f.stem);
      assert.deepEqual(problems, []);
      assert.deepEqual(d.messages, msgs, `${f.stem}: the same messages`);
      assert.equal(JSON.stringify(msgs.map((m) => [m.output, m.extra])), outputs, `${f.stem}: unchanged`);
      n++;
    }
    assert.ok(n > 5, `${n} exploded dialogs saved`);
  });

  it('savedDialog reports parts that do not implode and keeps them, on the copy only', () => {
    const d = read('tools.ipynb');
    const parts = applyEdit(d, planExplodeReply(d, 't0000001'));
    parts.find((m) => m.msgType === 'code')!.content = 'python(code=open("x"))';
    const problems: string[] = [];
    const saved = savedDialog(d, problems);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /cannot implode the reply of t0000001/);
    assert.equal(saved.messages.length, d.messages.length, 'nothing dropped');
    assert.ok(saved.messages.every((m) => !(EXPLODED_KEY in m.extra)), 'tags removed from the copy');
    assert.ok(parts.every((m) => explodedFrom(m) === 't0000001'), 'the dialog keeps its tags');
  });
});

describe('reply parts for the panel', () => {
  it('unchanged parts give back every corpus reply byte for byte', () => {
    let n = 0;
    for (const f of corpusFiles()) {
      let d: Dialog;
      try {
        d = readIpynb(readFileSync(f.path, 'utf8'));
      } catch {
        continue;
      }
      for (const p of d.messages.filter((m) => m.msgType === 'prompt' && aiRes(m).trim())) {
        let parts;
        try {
          parts = replyParts(p);
        } catch {
          continue;
        }
        assert.equal(parts2reply(p, parts), aiRes(p), `${f.stem} ${p.id}`);
        n++;
      }
    }
    assert.ok(n > 50, `${n} replies checked`);
  });

  it('a call part is name plus keyword=literal arguments', () => {
    const p = read('tools.ipynb').messages[0];
    const parts = replyParts(p);
    assert.deepEqual(parts[1], { kind: 'call', name: 'python', args: "code='1+1'", result: '2', toolId: 'toolu_01', from: 1 });
    assert.equal(callSource({ kind: 'call', name: ' math.add ', args: 'a=1,\nb=[2, (3,)],', result: '', toolId: '' }), 'math.add(a=1, b=[2, (3,)])');
    assert.throws(() => callSource({ kind: 'call', name: 'foo-bar', args: '', result: '', toolId: '' }), /dotted Python name/);
    assert.throws(() => callSource({ kind: 'call', name: 'f', args: 'x', result: '', toolId: '' }), /keyword=literal/);
  });

  it('added and deleted calls are written in the reply’s wire style', () => {
    const p = read('tools.ipynb').messages[0];
    const parts = replyParts(p).filter((x) => !(x.kind === 'call' && x.toolId === 'toolu_02'));
    parts.push({ kind: 'call', name: 'python', args: "code='3*3'", result: '9', toolId: 'toolu_09' });
    const reply = parts2reply(p, parts);
    const oracle = reply2dlg(p);
    oracle.messages = oracle.messages.filter((m) => m.meta.tool_id !== 'toolu_02');
    oracle.messages.push(new Message({ msgType: 'code', content: "python(code='3*3')", output: [{ output_type: 'execute_result', metadata: {}, data: { 'text/plain': '9' }, execution_count: 1 }], meta: { tool_id: 'toolu_09' } }));
    assert.equal(reply, dlg2reply(oracle));
    assert.ok(!reply.includes('toolu_02') && reply.includes('toolu_09'));
  });
});
