// What the plan of an answer keeps from the previous one (issue 33): each message's history parts, each
// prompt's reply as chat messages, each image's data URL and each reply's usage, kept per message while
// it is unchanged, made again when it changes; and the request it gives is the one made from scratch.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Attachment, Dialog, Message, dlg2chat, readIpynb } from '../../src/core';
import { contextPlan, dialogCost, usageBlock } from '../../src/core/answer';
import { PreparedImages, messageParts, prepareMedia } from '../../src/core/hist';
import { SHARED } from './corpus';

const read = (stem: string) => readIpynb(readFileSync(join(SHARED, 'corpus', 'public', `${stem}.ipynb`), 'utf8'));
const VISION = { supports_vision: true };
/** A 1×1 PNG. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
const USAGE = (n: number) => `Hi.\n\n${usageBlock({ prompt_tokens: n, completion_tokens: 1, total_tokens: n + 1 })}`;
const ATT = '0b1e6d2a-3c4f-4a5b-9c8d-7e6f5a4b3c2d';

describe("plan cache: a message's parts", () => {
  const note = () => new Message({ id: 'n1', msgType: 'note', content: 'some notes' });

  it('is hit while the message and the options are unchanged', () => {
    const m = note();
    const a = messageParts(m, VISION, {});
    assert.equal(messageParts(m, VISION, {}), a, 'the same parts, not made again');
  });

  it('is made again when the message changes', () => {
    const m = note();
    const a = messageParts(m, VISION);
    m.content = 'other notes';
    const b = messageParts(m, VISION);
    assert.notEqual(b, a);
    assert.match(String(b.at(-1)), /other notes/);
    m.setMeta({ nbdev: { export: 'true' } });
    const c = messageParts(m, VISION);
    assert.notEqual(c, b);
    assert.match(String(c.at(-1)), /export/);
    m.extra.time_run = '2026-01-27T12:00:00+00:00';
    const d = messageParts(m, VISION);
    assert.notEqual(d, c);
    assert.match(String(d.at(-1)), /time=/);
    m.id = 'n2';
    assert.match(String(messageParts(m, VISION).at(-1)), /id="n2"/);
  });

  it("is made again when a code message's output changes (its version)", () => {
    const m = new Message({ id: 'c1', msgType: 'code', content: '1+1', output: [{ output_type: 'stream', name: 'stdout', text: 'two' }] });
    const a = messageParts(m, VISION);
    m.output = [{ output_type: 'stream', name: 'stdout', text: 'three' }];
    const b = messageParts(m, VISION);
    assert.notEqual(b, a);
    assert.match(String(b.at(-1)), /three/);
  });

  it('is made again for other options, another aim, an attachment changed or a newly scaled image', () => {
    const m = new Message({ id: 'n1', msgType: 'note', content: `![](attachment:${ATT})`, attachments: [new Attachment(PNG, 'image/png', ATT)] });
    const images = new PreparedImages();
    const a = messageParts(m, VISION, { images });
    assert.ok(a.some((p) => p instanceof Uint8Array), 'the image is sent');
    assert.equal(messageParts(m, VISION, { images }), a);
    assert.notEqual(messageParts(m, { supports_vision: false }, { images }), a);
    const b = messageParts(m, VISION, { images, envelope: true });
    assert.notEqual(b, a);
    const smaller = PNG.slice();
    images.set(PNG, smaller);
    const c = messageParts(m, VISION, { images });
    assert.ok(c.includes(smaller), 'the scaled image is sent once known');
    m.attachments = [new Attachment(PNG.slice(), 'image/png', ATT)];
    assert.notEqual(messageParts(m, VISION, { images }), c);
  });

  it('is never kept for the live prompt, nor for a message with #ai file refs (the files are read for each request)', () => {
    const p = new Message({ id: 'p1', msgType: 'prompt', content: 'q' });
    assert.notEqual(messageParts(p, VISION, { last: true }), messageParts(p, VISION, { last: true }));
    const f = new Message({ id: 'n1', msgType: 'note', content: '![](notes.txt#ai)' });
    const files = new Map([['notes.txt', new TextEncoder().encode('first')]]);
    assert.match(String(messageParts(f, VISION, { files })[0]), /first/);
    files.set('notes.txt', new TextEncoder().encode('second'));
    assert.match(String(messageParts(f, VISION, { files })[0]), /second/);
  });
});

describe('plan cache: the request', () => {
  const dialog = () =>
    new Dialog([
      new Message({ id: 'n1', msgType: 'note', content: 'context' }),
      new Message({ id: 'p1', msgType: 'prompt', content: 'first?', output: 'The first reply.' }),
      new Message({ id: 'p2', msgType: 'prompt', content: 'second?' }),
    ]);
  const limits = { maxInputTokens: 200_000, replyTokens: 8192 };

  it("reuses a prompt's reply as chat while it is the same, and sends a changed one", () => {
    const d = dialog();
    const a = dlg2chat(d);
    const b = dlg2chat(d);
    assert.deepEqual(b, a);
    assert.equal(b[1], a[1], "the first reply's chat message is reused");
    d.messages[1].output = 'Another reply.';
    const c = contextPlan(d, 'p2', limits).chat;
    assert.equal(c[1].content[0].type === 'text' && c[1].content[0].text, 'Another reply.');
  });

  it('gives the request made from scratch, for a text dialog and one with pasted images, answer after answer', async () => {
    for (const stem of ['AnswerDotAI__fastllm__03_acomplete', 'drscotthawley__midi-rae__main_chat']) {
      const d = read(stem);
      const prompt = d.messages.filter((m) => m.msgType === 'prompt').at(-1)!.id;
      const images = new PreparedImages({ byContent: true });
      const halve = { resize: async (b: Uint8Array) => b.slice(0, b.length >> 1) };
      await prepareMedia(d.messages, halve, { into: images });
      const first = contextPlan(d, prompt, limits, { hist: { images } });
      const again = contextPlan(d, prompt, limits, { hist: { images } });
      // A fresh copy of every message: nothing cached for them.
      const fresh = new Dialog(d.messages.map((m) => m.clone()), d.name);
      const scratch = contextPlan(fresh, prompt, limits, { hist: { images } });
      assert.deepEqual(again.chat, first.chat, stem);
      assert.deepEqual(scratch.chat, first.chat, stem);
      assert.deepEqual(scratch.verdicts, again.verdicts, stem);
    }
  });

  it("counts a reply's usage once, and again when the reply changes", () => {
    const p = new Message({ id: 'p1', msgType: 'prompt', content: 'q', output: USAGE(10) });
    assert.equal(dialogCost([p]).total.prompt_tokens, 10);
    assert.equal(dialogCost([p]).total.prompt_tokens, 10);
    p.output = USAGE(20);
    assert.equal(dialogCost([p]).total.prompt_tokens, 20);
  });
});
