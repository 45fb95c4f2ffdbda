// Inputs that made a backtracking regex quadratic or worse on user text (reply markdown, cell
// content): long runs of whitespace, unclosed fences and envelopes. These tests check the results on
// such inputs, so the linear rewrites keep their meaning; speed itself is `npm run bench`'s business.
import { strict as assert } from 'node:assert';
import { contentDirectives } from '../../src/core/model';
import { attachmentMedia, staticRefMedia } from '../../src/core/hist';
import { Attachment, Dialog, Message } from '../../src/core/model';
import { delMsgs, moveMsgs } from '../../src/core/surgery';
import { legacyToolBlocks } from '../../src/core/reply';
import { fenced, removeThink } from '../../src/core/reply';
import { extractFenceCall, fmt2hist } from '../../src/core/reply';

describe('long runs in user text', () => {
  it('a directive value with a long inner whitespace run', () => {
    const d = (contentDirectives('#| a: ' + ' '.repeat(200_000) + 'b  \nx'));
    assert.equal(d.a, ' '.repeat(200_000) + 'b');
  });

  it('an unclosed legacy tool envelope followed by many blank lines', () => {
    const nl = '\n'.repeat(3000) + 'x';
    assert.deepEqual((legacyToolBlocks("<details class='tool-usage-details'>\n```json\n" + nl)), []);
    assert.deepEqual((legacyToolBlocks('::: {.details .tool-usage-details}\n```json\n' + nl)), []);
    // Closed after the run, it is still found, with its body.
    const ok = "<details class='tool-usage-details'>\n```json\n" + '{"id": "1", "call": {"function": "f", "arguments": {}}, "result": "r"}' + '\n'.repeat(3000) + '```\n</details>';
    assert.equal(legacyToolBlocks(ok).length, 1);
  });

  it('fenced() trims trailing newlines without rescanning inner runs', () => {
    assert.equal((fenced('a' + '\n'.repeat(200_000) + 'b\n\n', 'x')), '```x\na' + '\n'.repeat(200_000) + 'b\n```');
  });

  it('many unclosed result, call and think fences', () => {
    assert.equal((extractFenceCall('\n`````py\nx'.repeat(50_000) + 'y')), null);
    assert.deepEqual((extractFenceCall('\n`````py\nx'.repeat(50_000) + '\n`````\n')), ['py', 'x' + '\n`````py\nx'.repeat(49_999)]);
    assert.equal(fmt2hist('\n`````result\nx'.repeat(50_000) + 'y').length, 1);
    const think = '<!--think_start-->x'.repeat(50_000);
    assert.equal((removeThink(think)), think);
    assert.equal(removeThink('a<!--think_start-->t<!--think_end-->\nb<!--think_start-->'), 'ab<!--think_start-->');
  });

  it('media references after a long run of unclosed `![`', () => {
    const id = '0123abcd-0123-4123-8123-0123456789ab';
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]);
    const content = '![x'.repeat(50_000) + `](attachment:${id}) <!-- last_output:${id} --> ![](pic.png#ai)`;
    const att = (attachmentMedia(new Message({ msgType: 'note', content, attachments: [new Attachment(png, 'image/png', id)] }), { supports_vision: true }));
    assert.equal(att[0], `<media id="${id}" type="content" mime="image/png"></media>`);
    const refs = (staticRefMedia(new Message({ msgType: 'note', content }), { supports_vision: true }, { files: new Map([['pic.png', png]]) }));
    assert.equal(refs[0], '<media id="pic.png" type="content" mime="image/png"></media>');
  });

  it('moving and deleting many scattered messages of a big dialog', () => {
    const n = 60_000;
    const d = new Dialog(Array.from({ length: n }, (_, k) => new Message({ id: `m${k}`, msgType: 'note', content: String(k) })));
    const keep = d.messages;
    const odd = d.messages.filter((_, k) => k % 2 === 1);
    moveMsgs(d, odd, { before: 'm0' });
    assert.equal(d.messages, keep, 'edited in place');
    assert.deepEqual(d.messages.slice(0, 3).map((m) => m.id), ['m1', 'm3', 'm5']);
    assert.deepEqual(d.messages.slice(n / 2, n / 2 + 3).map((m) => m.id), ['m0', 'm2', 'm4']);
    const gone = delMsgs(d, odd.map((m) => m.id));
    assert.equal(d.messages.length, n / 2);
    assert.ok(gone.every((m) => m.dlg === null) && d.messages.every((m) => m.dlg === d));
  });
});
