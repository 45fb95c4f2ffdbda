// What an answer does again and what it skips (issue 33): images scaled once per dialog across answers
// (found again cheaply in a dialog converted anew, scaled again when they change), no resizer for a
// dialog without images, the kernel asked only for what the request carries, the request planned once.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Dialog, Message, dlg2chat, readIpynb } from '../../src/core';
import { contextPlan, planFits } from '../../src/core/answer';
import { ImageResizer, PreparedImages, prepareMedia } from '../../src/core/hist';
import { kernelAsks } from '../../src/extension/answer/kernelRefs';
import { SHARED } from './corpus';

const IMAGES = 'drscotthawley__midi-rae__main_chat';
const read = (stem: string) => readFileSync(join(SHARED, 'corpus', 'public', `${stem}.ipynb`), 'utf8');

/** A resizer that halves each image's bytes and counts its calls. */
function counting(): ImageResizer & { calls: number } {
  const r = {
    calls: 0,
    async resize(bytes: Uint8Array) {
      r.calls++;
      return bytes.slice(0, bytes.length >> 1);
    },
  };
  return r;
}

describe('answer speed: images scaled once per dialog', () => {
  it('the second answer, on the dialog converted again (new byte arrays), resizes nothing and sends the same', async () => {
    const text = read(IMAGES);
    const images = new PreparedImages({ byContent: true });
    const r = counting();
    const first = readIpynb(text);
    await prepareMedia(first.messages, r, { into: images });
    const resized = r.calls;
    assert.ok(resized > 0, 'the dialog has images to scale');
    const second = readIpynb(text);
    await prepareMedia(second.messages, r, { into: images });
    assert.equal(r.calls, resized, 'the cache is hit on the second answer');
    assert.deepEqual(dlg2chat(second, null, { images }), dlg2chat(first, null, { images }));
  });

  it('an image that changed, even to one of the same length, is scaled again', async () => {
    const d = readIpynb(read(IMAGES));
    const att = d.messages.flatMap((m) => m.attachments)[0];
    assert.ok(att, 'the dialog has an attachment');
    const images = new PreparedImages({ byContent: true });
    const r = counting();
    const note = (data: Uint8Array) => new Message({ msgType: 'note', content: `![](attachment:${att.id})`, attachments: [{ ...att, data } as typeof att] });
    await prepareMedia([note(att.data)], r, { into: images });
    const changed = att.data.slice();
    changed[100] ^= 1;
    await prepareMedia([note(changed)], r, { into: images });
    assert.equal(r.calls, 2);
    assert.notDeepEqual(images.get(changed), images.get(att.data));
    await prepareMedia([note(att.data.slice())], r, { into: images });
    assert.equal(r.calls, 2, 'the first one is still known');
  });

  it('a dialog without images never asks for a resizer', async () => {
    const d = readIpynb(read('AnswerDotAI__fastllm__03_acomplete'));
    const never: ImageResizer = {
      resize: () => {
        throw new Error('the resizer was loaded');
      },
    };
    await prepareMedia(d.messages, never, { into: new PreparedImages({ byContent: true }) });
  });
});

describe('answer speed: the kernel only for what the request carries', () => {
  const prompt = (id: string, content: string) => new Message({ id, msgType: 'prompt', content });
  const note = (id: string, content: string) => new Message({ id, msgType: 'note', content });

  it('a prompt without references, in a history without, never asks the kernel, running or not', () => {
    const sent = [note('n1', 'Some $`notes` are not prompts.'), prompt('p1', 'What is 1+1?'), prompt('p2', 'And 2+2?')];
    assert.equal(kernelAsks(sent, true), undefined);
    assert.equal(kernelAsks(sent, false), undefined);
  });

  it("an earlier prompt's references are asked from a running kernel, but start none", () => {
    const sent = [prompt('p1', 'Use &`add` on $`x`.'), prompt('p2', 'Again, please.')];
    assert.deepEqual(kernelAsks(sent, true), { exprs: ['x'], tools: ['add'] });
    assert.equal(kernelAsks(sent, false), undefined);
  });

  it("the prompt's own references start the kernel, and the history's come along", () => {
    const sent = [prompt('p1', 'Use &`add`.'), prompt('p2', 'What is $`y`?')];
    assert.deepEqual(kernelAsks(sent, false), { exprs: ['y'], tools: ['add'] });
  });
});

describe('answer speed: the request planned once', () => {
  const limits = (tokens: number) => ({ maxInputTokens: tokens, replyTokens: 1000, safetyTokens: 0 });
  const dialog = () => {
    const d = new Dialog([new Message({ id: 'c1', msgType: 'code', content: 'x = 1' }), new Message({ id: 'p1', msgType: 'prompt', content: 'What is $`x`?' })]);
    return d;
  };

  it('the values turn fits the room left: planning in the smaller window gives the same plan', () => {
    const plan = contextPlan(dialog(), 'p1', limits(100_000));
    assert.ok(planFits(plan, 500));
    assert.deepEqual(contextPlan(dialog(), 'p1', limits(100_000 - 500)).chat, plan.chat);
  });

  it('it does not fit when the plan is full, or already left something out', () => {
    const plan = contextPlan(dialog(), 'p1', limits(100_000));
    assert.equal(planFits(plan, plan.budget - plan.total + 1), false);
    const tight = contextPlan(dialog(), 'p1', limits(1000 + plan.total - 3));
    assert.ok(tight.verdicts.some((v) => v.verdict !== 'kept'));
    assert.equal(planFits(tight, 0), false);
  });
});
