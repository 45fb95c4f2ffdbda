import { strict as assert } from 'node:assert';
import { Attachment, Message } from '../../src/core/model';
import { base32, md5, toHex } from '../../src/core/base';
import { b64decode, b64encode } from '../../src/core/base';
import {
  ImageResizer, MediaLoadError, PreparedImages, attachmentMedia, detectMime, fileRefs, fileTag, fileText, imgId, mediaItem, mediaTag, mediaTagMime, outputImageMedia,
  prepareMedia, staticRefMedia, toMedia, unavailableTag, urlMime, utf8Text,
} from '../../src/core/hist';
import { sharpResizer } from '../../src/node/sharpResizer';

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==';
const png = b64decode(PNG_B64);
const vision = { supports_vision: true };
const UNAV = 'The user included this media, but it was not available to the AI. Tell the user that you cannot see it.';
const withBytes = (parts: unknown[]) => parts.map((p) => (p instanceof Uint8Array ? '<bytes>' : p));

describe('media: ids and hashes', () => {
  it('V122 _img_id of the 1x1 PNG', () => assert.equal(imgId(png), '4P52II3F'));
  it('V123 _img_id of "hello"', () => assert.equal(imgId(new TextEncoder().encode('hello')), 'LVAUAKV4'));
  it('V124 _img_id of empty bytes', () => assert.equal(imgId(new Uint8Array()), '2QOYZWMP'));
  it('md5 across block boundaries (RFC 1321 suite)', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    assert.equal(toHex(md5(enc('abc'))), '900150983cd24fb0d6963f7d28e17f72');
    assert.equal(toHex(md5(enc('1234567890'.repeat(8)))), '57edf4a22be3c955ac49da2e2107b67a');
  });
  it('base32 is RFC 4648 with padding', () => assert.equal(base32(new TextEncoder().encode('foob')), 'MZXW6YQ='));
  it('base64 decodes like Python b64decode (non-strict) and reports binascii errors', () => {
    assert.equal(b64encode(b64decode(PNG_B64)), PNG_B64);
    assert.equal(new TextDecoder().decode(b64decode('aGVs\nbG8=')), 'hello');
    assert.throws(() => b64decode('not-base64'), /number of data characters \(9\) cannot be 1 more than a multiple of 4/);
    assert.throws(() => b64decode('aGVsbG'), /Incorrect padding/);
  });
});

describe('media: mime detection', () => {
  it('mediaTagMime reads the mime a media tag declares, nothing else', () => {
    assert.equal(mediaTagMime(mediaTag('output', 'ab', 'image/png')), 'image/png');
    assert.equal(mediaTagMime(mediaTag('output', 'ab')), undefined);
    assert.equal(mediaTagMime(unavailableTag('output', 'ab', 'gone', 'image/png')), undefined);
    assert.equal(mediaTagMime(png), undefined);
    assert.equal(mediaTagMime(undefined), undefined);
  });
  const sig = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  it('sniffs the spec table', () => {
    assert.equal(detectMime(png), 'image/png');
    assert.equal(detectMime(sig('%PDF-1.4')), 'application/pdf');
    assert.equal(detectMime(sig('RIFF\0\0\0\0WAVE')), 'audio/wav');
    assert.equal(detectMime(sig('RIFF\0\0\0\0WEBPVP8')), null); // WebP deliberately undetected
    assert.equal(detectMime(sig('\xff\xd8\xff\xe0\0\x10JFIF')), 'image/jpeg');
    assert.equal(detectMime(sig('GIF89a')), 'image/gif');
    assert.equal(detectMime(sig('II*\0')), 'image/tiff');
    assert.equal(detectMime(sig('\0\0\0\x18ftypmp42')), 'video/mp4');
    assert.equal(detectMime(sig('P6 ')), 'image/x-portable-pixmap');
    assert.equal(detectMime(sig('not media')), null);
  });
  it('guesses URL mimes by extension (mime package)', () => {
    assert.equal(urlMime('https://x.org/a.PNG?s=1'), 'image/png');
    assert.equal(urlMime('https://www.youtube.com/watch?v=1'), 'video/mp4');
    assert.equal(urlMime('https://x.org/a.exe'), null);
  });
});

describe('media: media_item', () => {
  it('V125 valid media: tag then bytes', () => {
    const r = mediaItem('content', 'img', png, vision);
    assert.equal(r[0], '<media id="img" type="content" mime="image/png"></media>');
    assert.ok(r[1] instanceof Uint8Array);
  });
  it('V126 null data', () => {
    assert.deepEqual(mediaItem('content', 'x', null, {}), [
      `<media-unavailable id="x" type="content" reason="media data unavailable">${UNAV}</media-unavailable>`,
    ]);
  });
  it('V127 no vision', () => {
    assert.deepEqual(mediaItem('content', 'x', png, {}), [
      `<media-unavailable id="x" type="content" reason="An unsupported media type was included in the context: image/png. Please instruct the user to switch to a model that supports this media type." mime="image/png">${UNAV}</media-unavailable>`,
    ]);
  });
  it('V128 attribute escaping', () => {
    assert.equal(mediaItem('content', 'a"b<c', png, vision)[0], `<media id='a"b&lt;c' type="content" mime="image/png"></media>`);
  });
  it('seed: failures become media-unavailable; other loader errors propagate', () => {
    for (const d of [null, 'not bytes', new TextEncoder().encode('not media')]) {
      assert.match(mediaItem('content', 'x', d, {})[0] as string, /^<media-unavailable/);
    }
    assert.match(mediaItem('content', 'x', 'str', {})[0] as string, /reason="expected bytes or MediaUrl, got str"/);
    assert.match(mediaItem('output', 'bad', () => b64decode('x'), {})[0] as string, /^<media-unavailable/);
    assert.throws(() => mediaItem('content', 'x', () => { throw new Error('boom'); }, {}), /boom/);
  });
  it('URL references pass as references', () => {
    const r = mediaItem('content', 'https://x.org/a.png', { url: 'https://x.org/a.png' }, vision);
    assert.deepEqual(r, ['<media id="https://x.org/a.png" type="content" mime="image/png"></media>', { url: 'https://x.org/a.png', mime: 'image/png' }]);
  });
});

describe('media: message sources', () => {
  it('seed: only UUID-referenced attachments, in attachment order; bad bytes unavailable', () => {
    const a1 = new Attachment(png, 'image/png');
    const a2 = new Attachment(new TextEncoder().encode('not an image'), 'text/plain');
    const a3 = new Attachment(png.slice(), 'image/png');
    const m = new Message({ msgType: 'note', content: `![](attachment:${a3.id}) and ![](attachment:${a1.id})`, attachments: [a1, a2, a3] });
    const r = attachmentMedia(m, vision);
    assert.equal(r.length, 4);
    assert.deepEqual([r[0], r[2]].map((t) => /id="([^"]*)"/.exec(t as string)![1]), [a1.id, a3.id]);
    const bad = new Attachment(new TextEncoder().encode('not an image'), 'image/png');
    const rb = attachmentMedia(new Message({ msgType: 'note', content: `![](attachment:${bad.id})`, attachments: [bad] }), vision);
    assert.match(rb[0] as string, /^<media-unavailable id="[^"]+" type="content" reason="unsupported or unknown media type">/);
  });
  it('non-UUID attachment ids are never sent; last_output comments count', () => {
    const a = new Attachment(png, 'image/png', 'image.png');
    assert.deepEqual(attachmentMedia(new Message({ msgType: 'note', content: '![](attachment:image.png)', attachments: [a] }), vision), []);
    const b = new Attachment(png, 'image/png');
    assert.equal(attachmentMedia(new Message({ msgType: 'prompt', content: `<!-- last_output:${b.id} -->`, attachments: [b] }), vision).length, 2);
  });
  it('an attachment whose stored base64 was invalid is unavailable with the decoder reason', () => {
    const a = new Attachment(new Uint8Array(), 'image/png', '11111111-2222-4333-8444-555555555555', 'abc');
    const r = attachmentMedia(new Message({ msgType: 'note', content: `![](attachment:${a.id})`, attachments: [a] }), vision);
    assert.match(r[0] as string, /reason="Incorrect padding"/);
  });
  it('#ai static refs: data URLs, web URLs, files as the host read them', () => {
    const m = new Message({ msgType: 'note', content: `![](data:image/png;base64,${PNG_B64}#ai) ![](https://x.org/p.jpg#ai) ![](pic.png#ai) ![](plain.png)` });
    assert.deepEqual(fileRefs([m, new Message({ msgType: 'prompt', content: '![](pic.png#ai) ![](../b.png#ai)' })]), ['pic.png', '../b.png']);
    const r = staticRefMedia(m, vision, { files: new Map([['pic.png', png]]) });
    assert.deepEqual(withBytes(r), [
      '<media id="iVBORw0KGg" type="content" mime="image/png"></media>', '<bytes>',
      '<media id="https://x.org/p.jpg" type="content" mime="image/jpeg"></media>', { url: 'https://x.org/p.jpg', mime: 'image/jpeg' },
      '<media id="pic.png" type="content" mime="image/png"></media>', '<bytes>',
    ]);
    const r2 = staticRefMedia(new Message({ msgType: 'note', content: '![](gone.png#ai) ![](unread.png#ai)' }), vision, { files: new Map([['gone.png', 'no such file']]) });
    assert.match(r2[0] as string, /^<media-unavailable id="gone.png" type="content" reason="no such file">/);
    assert.match(r2[1] as string, /^<media-unavailable id="unread.png" type="content" reason="file references are not readable here: unread.png">/);
  });
  it('#ai text files go as their text, in the item grammar; binary of no known type and unread files are unavailable with why', () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    const files = new Map<string, Uint8Array | string>([
      ['helper.py', enc('def f(a, b):\n    return a < b and "x" & 1\n')],
      ['notes.md', new Uint8Array([0xef, 0xbb, 0xbf, ...enc('# Ünïcode')])],
      ['blob.bin', new Uint8Array([1, 2, 0, 3])],
      ['latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9])],
      ['big.csv', 'larger than 20MB (25MB)'],
      ['pic.png', png],
      ['head.h', enc('#define N 3\n')],
      ['doc.pdf', enc('%PDF-1.4 all ascii')],
    ]);
    const m = new Message({ msgType: 'prompt', content: Array.from(files.keys(), (f) => `![](${f}#ai)`).join(' ') });
    assert.deepEqual(withBytes(staticRefMedia(m, { supports_vision: true, supports_pdf_input: true }, { files })), [
      '<file path="helper.py">def f(a, b):\n    return a < b and "x" & 1\n</file>',
      '<file path="notes.md"># Ünïcode</file>',
      unavailableTag('content', 'blob.bin', 'a binary file, neither UTF-8 text nor a known media type'),
      unavailableTag('content', 'latin1.txt', 'a binary file, neither UTF-8 text nor a known media type'),
      unavailableTag('content', 'big.csv', 'larger than 20MB (25MB)'),
      '<media id="pic.png" type="content" mime="image/png"></media>', '<bytes>',
      '<file path="head.h">#define N 3\n</file>', // text, though `#define ` is XBM's signature
      '<media id="doc.pdf" type="content" mime="application/pdf"></media>', '<bytes>',
    ]);
    assert.equal(utf8Text(new Uint8Array()), '');
    assert.deepEqual(fileTag(fileText('a "b".txt', 'x</file>y')), { path: 'a "b".txt', text: 'x</file>y' });
    assert.equal(fileTag('<note>x</note>'), undefined);
  });
  it('#ai text files keep the spec order: attachments, then #ai refs as written, then output images', () => {
    const a = new Attachment(png, 'image/png');
    const m = new Message({ msgType: 'code', content: `![](b.txt#ai) ![](attachment:${a.id}) ![](pic.png#ai) ![](a.txt#ai)`, attachments: [a], output: [
      { output_type: 'display_data', metadata: {}, data: { 'image/png': PNG_B64 } },
    ] });
    const files = new Map([['a.txt', new TextEncoder().encode('A')], ['b.txt', new TextEncoder().encode('B')], ['pic.png', png]]);
    assert.deepEqual(withBytes(toMedia(m, vision, { files })), [
      `<media id="${a.id}" type="content" mime="image/png"></media>`, '<bytes>',
      '<file path="b.txt">B</file>',
      '<media id="pic.png" type="content" mime="image/png"></media>', '<bytes>',
      '<file path="a.txt">A</file>',
      `<media id="${imgId(png)}" type="output" mime="image/png"></media>`, '<bytes>',
    ]);
  });
  it('output images: one per output (jpeg > png > webp), hashed ids, bad base64 unavailable as _img_id', () => {
    const m = new Message({ msgType: 'code', content: 'plot()', output: [
      { output_type: 'display_data', metadata: {}, data: { 'image/png': PNG_B64, 'image/svg+xml': '<svg/>', 'text/plain': '<Fig>' } },
      { output_type: 'display_data', metadata: {}, data: { 'image/png': 'not-base64' } },
      { output_type: 'display_data', metadata: {}, data: { 'image/svg+xml': '<svg/>' } },
    ] });
    const r = outputImageMedia(m, vision);
    assert.deepEqual(withBytes(r), [
      '<media id="4P52II3F" type="output" mime="image/png"></media>', '<bytes>',
      `<media-unavailable id="_img_id" type="output" reason="Invalid base64-encoded string: number of data characters (9) cannot be 1 more than a multiple of 4" mime="image/png">${UNAV}</media-unavailable>`,
    ]);
    assert.match(outputImageMedia(m, {})[0] as string, /^<media-unavailable id="_img_id" type="output" reason="An unsupported media type/);
    assert.deepEqual(toMedia(new Message({ msgType: 'note', content: 'hello' }), {}), []);
  });
});

describe('media: resizing pre-pass', () => {
  const fake: ImageResizer = {
    async resize(b) {
      if (b.length < 10) throw new Error('bad header');
      return b.slice(0, 8);
    },
  };
  it('prepared images replace the originals; undecodable ones become unavailable; ids stay those of the originals', async () => {
    const m = new Message({ msgType: 'code', content: 'c', output: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': PNG_B64 } }] });
    const images = await prepareMedia([m], fake);
    const r = outputImageMedia(m, vision, { images });
    assert.equal(r[0], '<media id="4P52II3F" type="output" mime="image/png"></media>');
    assert.equal((r[1] as Uint8Array).length, 8);
    const tiny = new PreparedImages();
    tiny.set(png, 'image could not be decoded: bad');
    const a = new Attachment(png, 'image/png');
    const ra = attachmentMedia(new Message({ msgType: 'note', content: `![](attachment:${a.id})`, attachments: [a] }), vision, { images: tiny });
    assert.match(ra[0] as string, /^<media-unavailable id="[^"]+" type="content" reason="image could not be decoded: bad" mime="image\/png">/);
    assert.throws(() => tiny.get(png), MediaLoadError);
  });
  it('sharp (when its binary loads) shrinks big images under the limit and rejects garbage', async function () {
    const r = sharpResizer();
    if (!r) return this.skip();
    const sharp = require('sharp');
    const big = new Uint8Array(await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#f00' } }).png().toBuffer());
    const out = await r.resize(big, 'image/png', 768 * 768);
    const meta = await sharp(out).metadata();
    assert.ok(meta.width * meta.height <= 768 * 768 && meta.width === Math.floor(1200 * Math.sqrt((768 * 768) / (1200 * 900))));
    assert.equal(meta.format, 'png');
    assert.equal(await r.resize(png, 'image/png', 768 * 768), png);
    await assert.rejects(r.resize(new TextEncoder().encode('garbage!'), 'image/png', 768 * 768));
  });
});
