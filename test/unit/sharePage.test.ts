// The shared page (core/share): golden Markdown for corpus dialogs, and over every corpus dialog what a
// reader must never get (separators, thinking, usage, pinned / skipped messages) and what they must
// (every tool call folded, the dialog's reading order).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { Attachment, Dialog, Message, codeOutput, promptOutput } from '../../src/core/model';
import { toolSpans, removeThink, thinkBlock } from '../../src/core/reply';
import { aiRes } from '../../src/core/model';
import { dlg2page, imageLeftOutText, SHARE_MAX_IMAGE_BYTES } from '../../src/core/share';
import { corpusFiles, SHARED } from './corpus';
import { shareCommand } from '../../src/cli/share';

const GOLDEN = join(__dirname, 'golden', 'share');
const read = (set: string, stem: string) => readIpynb(readFileSync(join(SHARED, 'corpus', set, `${stem}.ipynb`), 'utf8'), stem);

describe('share page: golden Markdown', () => {
  for (const [set, stem] of [
    ['synthetic', 'tools'],
    ['synthetic', 'replies'],
    ['public', 'AnswerDotAI__dialoghelper__01_experimental'],
    ['public', 'AnswerDotAI__fastllm__04_cost'],
  ]) {
    it(`${set}/${stem}`, () => {
      assert.equal(dlg2page(read(set, stem)).markdown, readFileSync(join(GOLDEN, `${stem}.md`), 'utf8'));
    });
  }
});

describe('share page: every corpus dialog', () => {
  for (const f of corpusFiles()) {
    let d: Dialog;
    try {
      d = readIpynb(readFileSync(f.path, 'utf8'), f.stem);
    } catch {
      continue; // a dialog that does not read has nothing to share
    }
    it(`${f.set}/${f.stem}`, () => {
      const page = dlg2page(d);
      const md = page.markdown;
      assert.ok(!md.includes('SOLVEIT_SEPARATOR'), 'the separator is never shown');
      assert.ok(!md.includes('<!--think_start-->'), 'thinking is left out');
      assert.ok(!/^`{3,}json \{\.usage\}/m.test(md), 'usage is left out');
      const left = new Set(page.left.map((l) => l.id));
      for (const m of d.messages) {
        const pinnedOrSkipped = !!m.pinned || !!m.skipped;
        assert.equal(left.has(m.id), pinnedOrSkipped, `message ${m.id} left out iff pinned or skipped`);
      }
      assert.deepEqual(page.dialog.messages.map((m) => m.id), d.messages.filter((m) => !left.has(m.id)).map((m) => m.id));
      const calls = page.dialog.messages.reduce((n, m) => n + toolSpans(removeThink(aiRes(m))).length, 0);
      assert.ok((md.match(/^<details>$/gm) ?? []).length >= calls, 'every tool call is folded');
      // The shared .ipynb reads back as the same messages.
      assert.equal(readIpynb(writeIpynb(page.dialog)).messages.length, page.dialog.messages.length);
    });
  }
});

describe('share page: choices and limits', () => {
  function dialog(): Dialog {
    const code = new Message({ id: 'c1', msgType: 'code', content: 'print(1)', output: codeOutput('1\n') });
    const pinned = new Message({ id: 'p1', msgType: 'note', content: 'pinned context', pinned: 1 });
    const skipped = new Message({ id: 's1', msgType: 'note', content: 'hidden note', skipped: 1 });
    const prompt = new Message({ id: 'q1', msgType: 'prompt', content: 'Why?\n\nTell me.', output: promptOutput(`${thinkBlock('secret thoughts')}\nBecause.`) });
    return new Dialog([new Message({ id: 'n1', msgType: 'note', content: '# Title' }), pinned, skipped, code, prompt], 'd');
  }

  it('quotes the question, puts the reply below, leaves thinking, pinned and skipped out', () => {
    const p = dlg2page(dialog());
    assert.equal(p.markdown, '# Title\n\n```python\nprint(1)\n```\n\n```text\n1\n```\n\n> Why?\n>\n> Tell me.\n\nBecause.\n');
    assert.deepEqual(p.left, [{ id: 'p1', index: 1, why: 'pinned' }, { id: 's1', index: 2, why: 'skipped' }]);
  });

  it('keeps pinned and skipped when asked, leaves out chosen messages and outputs', () => {
    const p = dlg2page(dialog(), { keepPinned: true, keepSkipped: true, keepOutputs: false, leaveOut: ['q1'] });
    assert.equal(p.markdown, '# Title\n\npinned context\n\nhidden note\n\n```python\nprint(1)\n```\n');
    assert.deepEqual(p.left, [{ id: 'q1', index: 4, why: 'chosen' }]);
    assert.equal(p.outputsDropped, 1);
    assert.deepEqual(p.dialog.messages.find((m) => m.id === 'c1')!.outputs, []);
  });

  it('leaves out an image over the limit from the page and the dialog, and says so', () => {
    const big = new Uint8Array(SHARE_MAX_IMAGE_BYTES + 1);
    const small = new Uint8Array([137, 80, 78, 71]);
    const a = new Attachment(big, 'image/png', 'big-one');
    const b = new Attachment(small, 'image/png', 'small-one');
    const note = new Message({ id: 'n1', msgType: 'note', content: '![x](attachment:big-one) ![y](attachment:small-one)', attachments: [a, b] });
    const p = dlg2page(new Dialog([note], 'd'));
    assert.equal(p.markdown, `${imageLeftOutText(big.length)} ![y](data:image/png;base64,iVBORw==)\n`);
    assert.deepEqual(p.images, [{ id: 'n1', index: 0, bytes: big.length }]);
    assert.deepEqual(p.dialog.messages[0].attachments.map((x) => x.id), ['small-one']);
  });
});

describe('dlg share --md', () => {
  async function run(args: string[]) {
    let out = '';
    let err = '';
    const code = await shareCommand(args, { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  }

  it('writes the page of a dialog, saying what was left out', async () => {
    const path = join(SHARED, 'corpus', 'public', 'AnswerDotAI__dialoghelper__01_experimental.ipynb');
    const r = await run(['--md', path]);
    assert.equal(r.code, 0);
    assert.equal(r.out, readFileSync(join(GOLDEN, 'AnswerDotAI__dialoghelper__01_experimental.md'), 'utf8'));
    assert.match(r.err, /^left out: message 11 \(679df0d0\): skipped$/m);
  });

  it('refuses a call without --md', async () => {
    await assert.rejects(run([join(SHARED, 'corpus', 'synthetic', 'tools.ipynb')]), /usage: dlg share --md FILE/);
  });
});
