// Pure parts of navigation: the in-place outline patch the sections tree refreshes with
// (sameShape / patchOutline), image sizes from headers, and how the history preview describes media
// (mime, pixel size, bytes) in both modes, including images scaled by prepareMedia.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { readIpynb } from '../../src/core/ipynb';
import { Attachment, Dialog, Message } from '../../src/core/model';
import { OutlineNode, dlgOutline, firstLine, firstLineOffset, patchOutline, sameShape } from '../../src/core/outline';
import { histPreview, mediaText } from '../../src/core/hist';
import { imageSize } from '../../src/core/base';
import { PreparedImages, prepareMedia } from '../../src/core/hist';
import { sharpResizer } from '../../src/node/sharpResizer';
import { TYPE_ICONS, typeIcon } from '../../src/shared/outlineView';
import { SHARED } from './corpus';

const read = (name: string) => readIpynb(readFileSync(`${SHARED}/corpus/synthetic/${name}`, 'utf8'));

function flat(ns: readonly OutlineNode[], out: OutlineNode[] = []): OutlineNode[] {
  for (const n of ns) {
    out.push(n);
    flat(n.children, out);
  }
  return out;
}

const png = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer();

describe('outline patch (sections tree refresh)', () => {
  it('an edit inside a prompt keeps the shape and patches only that prompt and its headings', () => {
    const d = read('sections.ipynb');
    const old = dlgOutline(d);
    const nodes = flat(old);
    const leaf = nodes.find((n) => n.level === 0 && n.msgType === 'prompt')!;
    const k = d.messages.findIndex((m) => m.id === leaf.id);
    d.messages[k].content += '\nmore words to count in the section totals';
    const fresh = dlgOutline(d);
    assert.ok(sameShape(old, fresh));
    const changed = patchOutline(old, fresh);
    assert.ok(changed.includes(leaf), 'the edited prompt');
    // every other changed node is a heading above it (its counts moved), nothing else
    for (const n of changed) if (n !== leaf) assert.ok(n.level > 0 && n.index < leaf.index, `${n.id} ${n.label}`);
    assert.deepEqual(old, fresh, 'after the patch the old tree equals a fresh build');
    assert.deepEqual(flat(old), nodes, 'and keeps its node objects');
    assert.deepEqual(patchOutline(old, dlgOutline(d)), [], 'an unchanged dialog patches nothing');
  });

  it('pinning or skipping patches the node; a new heading or a removed prompt changes the shape', () => {
    const d = read('sections.ipynb');
    const old = dlgOutline(d);
    const code = d.messages.findIndex((m) => m.msgType === 'code');
    d.messages[code].pinned = true;
    const changed = patchOutline(old, dlgOutline(d));
    assert.equal(changed.find((n) => n.id === d.messages[code].id)?.pinned, true);
    d.messages.splice(1, 0, new Message({ msgType: 'note', content: '## A new heading' }));
    assert.equal(sameShape(old, dlgOutline(d)), false);
    const e = read('sections.ipynb');
    const before = dlgOutline(e);
    e.messages.splice(code, 1);
    assert.equal(sameShape(before, dlgOutline(e)), false);
  });

  it('a heading level change is a shape change even when nesting looks alike', () => {
    const mk = (lvl: number) => new Dialog([new Message({ id: 'h1', msgType: 'note', content: `${'#'.repeat(lvl)} Title` }), new Message({ id: 'p1', msgType: 'prompt', content: 'q' })]);
    assert.equal(sameShape(dlgOutline(mk(1)), dlgOutline(mk(2))), false);
  });
});

describe('image sizes and media descriptions', () => {
  it('reads PNG, JPEG, GIF and WebP headers', async () => {
    const base = sharp({ create: { width: 37, height: 21, channels: 3, background: '#123456' } });
    for (const enc of ['png', 'jpeg', 'gif', 'webp'] as const) {
      const b = new Uint8Array(await base.clone()[enc]().toBuffer());
      assert.deepEqual(imageSize(b), { width: 37, height: 21 }, enc);
    }
    const lossless = new Uint8Array(await base.clone().webp({ lossless: true }).toBuffer());
    assert.deepEqual(imageSize(lossless), { width: 37, height: 21 }, 'webp lossless');
    assert.equal(imageSize(new TextEncoder().encode('not an image')), null);
    assert.equal(imageSize((await png(3, 3)).subarray(0, 20)), null, 'a truncated header');
  });

  it('media parts show their mime, pixel size and bytes in both modes (media.ipynb)', () => {
    const d = read('media.ipynb');
    for (const mode of ['hist', 'chat'] as const) {
      const media = histPreview(d, 'm0000007', mode).turns.flatMap((t) => t.parts).filter((p) => p.kind === 'media');
      assert.ok(media.length >= 4, mode);
      for (const p of media) assert.match(p.text, /^image\/(png|jpeg) · 1×1 px · \d+B$/, `${mode}: ${p.text}`);
    }
    assert.equal(mediaText(null, new Uint8Array([1, 2, 3])), 'media · 3B');
  });

  it('a large attachment is previewed scaled, as the model would get it', async () => {
    const big = new Uint8Array(await png(1600, 1200));
    const att = new Attachment(big, 'image/png', '11111111-2222-4333-8444-555555555555');
    const d = new Dialog([new Message({ id: 'p1', msgType: 'prompt', content: `see ![](attachment:${att.id})`, attachments: [att] })]);
    const unscaled = histPreview(d, 'p1').turns[0].parts.find((p) => p.kind === 'media')!;
    assert.match(unscaled.text, /^image\/png · 1600×1200 px · /);
    const images = await prepareMedia(d.messages, sharpResizer()!, { maxPixels: 768 * 768, into: new PreparedImages({ byContent: true }) });
    for (const mode of ['hist', 'chat'] as const) {
      const scaled = histPreview(d, 'p1', mode, { images }).turns[0].parts.find((p) => p.kind === 'media')!;
      assert.match(scaled.text, /^image\/png · 886×665 px · /, mode);
    }
  });
});

describe('outline icons', () => {
  it('known types have their codicon; unknown types (dialog data) a neutral one, never their own name', () => {
    assert.equal(typeIcon('prompt'), TYPE_ICONS.prompt);
    assert.equal(typeIcon('constructor'), 'circle-small');
    assert.equal(typeIcon('x onerror=alert(1)'), 'circle-small');
  });
});

describe('labels', () => {
  it('markdown images in a label are shortened to their alt text', () => {
    const px = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    assert.equal(firstLine(`Look at ![sq](${px}#ai) and ![](attachment:11111111-2222-4333-8444-555555555555)?`), 'Look at [image sq] and [image]?');
    assert.equal(firstLine('a [link](http://x) stays'), 'a [link](http://x) stays');
  });
  it('firstLineOffset points at the line firstLine labels', () => {
    for (const [text, at] of [['', 0], [' \n\t', 0], ['ask', 0], ['\n\r\n  ask\nmore', 3], [' \u2028x', 2], ['\r\ry', 2]] as const) {
      assert.equal(firstLineOffset(text), at, JSON.stringify(text));
      if (at) assert.equal(firstLine(text.slice(at)), firstLine(text));
    }
  });
});
