import { strict as assert } from 'node:assert';
import { Attachment, Dialog, Message, attachmentMarkdown, fileRefMarkdown, imageAttachment, imageMimeOfName, isRefusal } from '../../src/core/model';
import { attachmentMedia } from '../../src/core/hist';
import { b64decode } from '../../src/core/base';
import { readIpynb, withoutUnreferencedAttachments, writeIpynb } from '../../src/core/ipynb';

const png = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');

describe('attach: pasted and dropped files', () => {
  it('names an image by a fresh UUID-4 without extension, its mime kept (DECISIONS "name of a pasted or dropped image attachment")', () => {
    const a = imageAttachment(png, 'image/png', 'image.png', 1000);
    assert.ok(a instanceof Attachment);
    assert.match(a.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(a.contentType, 'image/png');
    assert.deepEqual(a.data, png);
    assert.notEqual((imageAttachment(png, 'image/png', 'x', 1000) as Attachment).id, a.id);
  });

  it('the reference it inserts is one the history sends', () => {
    const a = imageAttachment(png, 'image/png', 'image.png', 1000) as Attachment;
    const m = new Message({ content: `look ${attachmentMarkdown(a)}`, msgType: 'prompt', attachments: [a] });
    const parts = attachmentMedia(m, { supports_vision: true });
    assert.equal(parts.length, 2);
    assert.deepEqual(parts[1], png);
  });

  it('takes PNG, JPEG, GIF and WebP; refuses other types with one line', () => {
    for (const t of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) assert.ok(!isRefusal(imageAttachment(png, t, 'f', 1000)), t);
    const r = imageAttachment(png, 'image/bmp', 'shot.bmp', 1000);
    assert.ok(isRefusal(r));
    assert.equal(r.refused, 'Not attached: shot.bmp is image/bmp; a dialog takes PNG, JPEG, GIF or WebP images.');
    assert.ok(!r.refused.includes('\n'));
  });

  it('refuses an image over the size cap, naming the setting', () => {
    const r = imageAttachment(new Uint8Array(2500), 'image/png', 'big.png', 2000);
    assert.ok(isRefusal(r));
    assert.equal(r.refused, 'Not attached: big.png is 2.5kB, over dialogNotebook.history.maxFileBytes (2kB).');
    assert.ok(!isRefusal(imageAttachment(new Uint8Array(2000), 'image/png', 'ok.png', 2000)), 'the cap itself is allowed');
  });

  it('attaches bytes that do not decode (the history reports them)', () => {
    assert.ok(imageAttachment(new TextEncoder().encode('not a png'), 'image/png', 'x.png', 1000) instanceof Attachment);
  });

  it('image mime by file name', () => {
    assert.equal(imageMimeOfName('a/b/Shot.PNG'), 'image/png');
    assert.equal(imageMimeOfName('p.jpg'), 'image/jpeg');
    assert.equal(imageMimeOfName('p.webp'), 'image/webp');
    assert.equal(imageMimeOfName('p.bmp'), 'image/bmp');
    assert.equal(imageMimeOfName('notes.py'), undefined);
    assert.equal(imageMimeOfName('README'), undefined);
  });

  it('writes #ai file references as Solveit does, refusing paths the syntax cannot hold', () => {
    assert.equal(fileRefMarkdown('src/main.py'), '![](src/main.py#ai)');
    assert.equal(fileRefMarkdown('../data/my notes.txt'), '![](../data/my notes.txt#ai)');
    assert.ok(isRefusal(fileRefMarkdown('a(1).txt')));
    assert.ok(isRefusal(fileRefMarkdown('c#.txt')));
  });
});

describe('attach: WebP attachments are sent', () => {
  it('an attachment stored as image/webp with WebP bytes goes out as image/webp (detectMime leaves WebP undetected)', () => {
    const webp = Uint8Array.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00', (c) => c.charCodeAt(0));
    const a = new Attachment(webp, 'image/webp');
    const m = new Message({ content: attachmentMarkdown(a), msgType: 'prompt', attachments: [a] });
    const parts = attachmentMedia(m, { supports_vision: true });
    assert.match(parts[0] as string, /^<media id="[^"]+" type="content" mime="image\/webp"><\/media>$/);
    assert.deepEqual(parts[1], webp);
    const wrong = new Attachment(new TextEncoder().encode('RIFFxxxxWAVE'), 'image/webp');
    const m2 = new Message({ content: attachmentMarkdown(wrong), msgType: 'prompt', attachments: [wrong] });
    assert.doesNotMatch(attachmentMedia(m2, { supports_vision: true })[0] as string, /mime="image\/webp"/, 'bytes that are not WebP are not called WebP');
  });
});

// Issue 29.3: an image pasted and undone leaves its attachment in the cell; a save does not write it.
describe('attach: what a save writes of the attachments', () => {
  const png = () => new Attachment(b64decode('iVBORw0KGgo='), 'image/png');

  it('drops an attachment no text refers to; keeps those the text or the reply refers to', () => {
    const used = png();
    const reply = png();
    const undone = png();
    const m = new Message({ msgType: 'prompt', content: `See ${attachmentMarkdown(used)}`, attachments: [used, undone, reply] });
    m.output = `The reply shows ${attachmentMarkdown(reply)}`;
    const d = withoutUnreferencedAttachments(new Dialog([m]));
    assert.deepEqual(d.messages[0].attachments.map((a) => a.id), [used.id, reply.id]);
    assert.equal(m.attachments.length, 3, 'the dialog given is not changed');
  });

  it('keeps one the file had when read, unreferenced or not, and the file reads back byte for byte', () => {
    const text = writeIpynb(new Dialog([new Message({ msgType: 'note', content: 'no reference', attachments: [new Attachment(b64decode('iVBORw0KGgo='), 'image/png', 'old.png')] })]));
    const read = readIpynb(text);
    read.messages[0].attachments.push(png()); // pasted, then the reference undone
    const saved = withoutUnreferencedAttachments(read);
    assert.deepEqual(saved.messages[0].attachments.map((a) => a.id), ['old.png']);
    assert.equal(writeIpynb(saved), text);
  });

  it('returns the same dialog when nothing is dropped', () => {
    const d = new Dialog([new Message({ msgType: 'note', content: 'plain' })]);
    assert.equal(withoutUnreferencedAttachments(d), d);
  });
});
