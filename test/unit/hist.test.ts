import { strict as assert } from 'node:assert';
import { ENV, PENDING, v134 } from './fixtures';
import { Attachment, Dialog, DialogError, Message, codeOutput, promptOutput } from '../../src/core/model';
import { b64decode } from '../../src/core/base';
import { dlg2hist } from '../../src/core/hist';
import { getExprs, getRefs, varsHist } from '../../src/core/hist';


describe('hist: dlg2hist', () => {
  it('V134 with the envelope option', () => {
    assert.deepEqual(dlg2hist(v134(), {}, { envelope: true }), [
      ['<markdown id="n0">intro</markdown>', `${ENV}<prompt sid="p1">q1</prompt>`], 'a1',
      ['<code id="c1">x=1<out>s</out></code>', `${ENV}<prompt sid="p2">q2</prompt>`], PENDING,
    ]);
  });
  it('V135 bare prompts (our default, DECISIONS "prompt text in history")', () => {
    assert.deepEqual(dlg2hist(v134(), {}), [
      ['<markdown id="n0">intro</markdown>', 'q1'], 'a1', ['<code id="c1">x=1<out>s</out></code>', 'q2'], PENDING,
    ]);
  });
  it('V139 a dialog ending in a note gives the history up to its last prompt (brief; the reference raises)', () => {
    const d = v134();
    d.messages.push(new Message({ id: 'tail', msgType: 'note', content: 'after' }));
    assert.deepEqual(dlg2hist(d, {}), dlg2hist(v134(), {}));
  });
  it('no prompt at all is a DialogError; so is an unknown upto id', () => {
    assert.throws(() => dlg2hist([new Message({ msgType: 'note', content: 'n' })], {}), (e: Error) => e instanceof DialogError && /requires a prompt/.test(e.message));
    assert.throws(() => dlg2hist([], {}), DialogError);
    assert.throws(() => dlg2hist(v134(), {}, { upto: 'zz' }), /no message id: 'zz'/);
  });
  it('upto cuts at a message, back to the last prompt at or before it', () => {
    assert.deepEqual(dlg2hist(v134(), {}, { upto: 'c1' }), [['<markdown id="n0">intro</markdown>', 'q1'], 'a1']);
    assert.deepEqual(dlg2hist(v134(), {}, { upto: 'p1' }), [['<markdown id="n0">intro</markdown>', 'q1'], 'a1']);
  });
  it('seed: the final prompt renders with last; a host prompt hook sees it (and wins over the envelope)', () => {
    const seen: [string, boolean][] = [];
    const h = dlg2hist(v134(), {}, { envelope: true, promptText: (m, last) => (seen.push([m.id, last]), last ? `LIVE ${m.content}` : m.content) });
    assert.deepEqual(seen, [['p1', false], ['p2', true]]);
    assert.deepEqual(h, [['<markdown id="n0">intro</markdown>', 'q1'], 'a1', ['<code id="c1">x=1<out>s</out></code>', 'LIVE q2'], PENDING]);
    // With upto, the last prompt before the cut is the live one.
    seen.length = 0;
    dlg2hist(v134(), {}, { upto: 'c1', promptText: (m, last) => (seen.push([m.id, last]), m.content) });
    assert.deepEqual(seen, [['p1', true]]);
  });
  it('seed: skipped messages and rec_kind raws never reach the history', () => {
    const d = v134();
    const h = dlg2hist(d, {});
    d.messages.splice(1, 0, new Message({ msgType: 'raw', content: 'book', meta: { rec_kind: 'system', rec: { type: 'system' } } }));
    d.messages.splice(1, 0, new Message({ msgType: 'code', content: 'hidden', skipped: true }));
    assert.deepEqual(dlg2hist(d, {}), h);
    assert.ok(!JSON.stringify(h).includes('skipped'));
    // A raw without rec_kind is conversation content.
    d.messages.splice(1, 0, new Message({ id: 'r', msgType: 'raw', content: 'plain raw' }));
    assert.deepEqual(dlg2hist(d, {})[0], ['<markdown id="n0">intro</markdown>', '<raw id="r">plain raw</raw>', 'q1']);
  });
  it('a skipped final prompt does not count', () => {
    const d = v134();
    d.messages[5].skipped = true;
    assert.deepEqual(dlg2hist(d, {}), [['<markdown id="n0">intro</markdown>', 'q1'], 'a1']);
  });
  it('seed: turn structure of a realistic mix (lengths, placeholder, a Dialog equals its message list)', () => {
    const p = (c: string, r = '') => new Message({ msgType: 'prompt', content: c, output: promptOutput(r) });
    const n = (c: string) => new Message({ msgType: 'note', content: c });
    const c = (c: string, o?: string) => new Message({ msgType: 'code', content: c, output: o === undefined ? [] : codeOutput(o) });
    const raw = [p('hello there', 'Hello!'), n('a note'), c("'src'", 'aaa'), p('add', 'They sum to 4.'), n('x'), n('y'), c('z', '333'),
      p('empty'), p('summarize', 'We greeted.'), n('img below'), c('img=...'), p('see?', 'I can see...'), n('image note'), p('2 images?', 'puppies'),
      p('And one final question.')];
    const h = dlg2hist(raw, { supports_vision: true });
    assert.equal(h.length, 14);
    assert.deepEqual([0, 2, 4, 6, 8, 10].map((k) => h[k].length), [1, 3, 4, 1, 3, 2]);
    assert.equal(h[5], PENDING);
    assert.deepEqual(h[12], ['And one final question.']);
    assert.deepEqual(dlg2hist(new Dialog(raw.slice(0, 4)), {}), dlg2hist(raw.slice(0, 4), {}));
  });
  it('media parts precede the item they belong to', () => {
    const png = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');
    const a = new Attachment(png, 'image/png');
    const m = new Message({ id: 'p', msgType: 'prompt', content: `What is in ![](attachment:${a.id})?`, attachments: [a] });
    const h = dlg2hist([m], { supports_vision: true });
    assert.deepEqual(h[0], [`<media id="${a.id}" type="content" mime="image/png"></media>`, png, `What is in ![](attachment:${a.id})?`]);
  });
  it('groups 20,000 cells into one turn pair per prompt (its speed is measured by npm run bench)', () => {
    const msgs: Message[] = [];
    for (let k = 0; k < 5000; k++) {
      msgs.push(new Message({ msgType: 'note', content: `note ${k}` }), new Message({ msgType: 'code', content: `x=${k}`, output: codeOutput(String(k)) }),
        new Message({ msgType: 'raw', content: 'r' }), new Message({ msgType: 'prompt', content: `q${k}`, output: promptOutput(`a${k}`) }));
    }
    const h = dlg2hist(msgs, {});
    assert.equal(h.length, 10000);
  });
});

describe('hist: host helpers (§11)', () => {
  it('get_refs: sorted unique tool names, null when none', () => {
    assert.deepEqual(getRefs('use &`b` and &`[a, c.d]` and &`b`'), ['a', 'b', 'c.d']);
    assert.equal(getRefs('nothing'), null);
  });
  it('get_exprs scans prompts only', () => {
    const msgs = [new Message({ msgType: 'prompt', content: 'see $`y` and $`x`' }), new Message({ msgType: 'note', content: '$`z`' })];
    assert.deepEqual(getExprs(msgs), ['x', 'y']);
  });
  it('vars_hist: values as typed children, bytes as variable media', () => {
    const [u, a] = varsHist({}, { x: 4, '!`ls`': 'f' });
    assert.equal(a, 'Understood, I will use these variable values.');
    assert.equal(u[0], "<variables>The 'variables' section provides values of: $`x`, !`ls`<variable name=\"x\" type=\"int\">4</variable><variable name=\"!`ls`\" type=\"str\">f</variable></variables>");
    const [u2] = varsHist({}, { img: new Uint8Array([1]) });
    assert.match(u2[1] as string, /^<media-unavailable id="img" type="variable"/);
  });
});
