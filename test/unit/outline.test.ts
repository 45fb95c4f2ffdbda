// The section outline (core/outline.ts) against `sectionMsgs`, the history preview (core/histPreview.ts)
// against `dlg2hist` / `dlg2chat`, and the panel protocol's schemas (core/panelProtocol.ts).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { readIpynb } from '../../src/core/ipynb';
import sharp from 'sharp';
import { Attachment, Dialog, Message } from '../../src/core/model';
import { headerLevel, sectionMsgs } from '../../src/core/model';
import { OutlineNode, buildOutline, dlgOutline, outlineItem, outlinePath } from '../../src/core/outline';
import { histPreview } from '../../src/core/hist';
import { dlg2hist } from '../../src/core/hist';
import { dlg2chat } from '../../src/core/hist';
import { tokenEstimate } from '../../src/core/hist';
import { DEFAULT_PANEL_STATE, hostMessageSchema, parseHostMessage, parsePanelMessage, parsePanelState, previewPartSchema } from '../../src/shared/panelProtocol';
import { replyParts } from '../../src/core/reply';
import { corpusFiles, SHARED } from './corpus';

const read = (name: string) => readIpynb(readFileSync(`${SHARED}/corpus/synthetic/${name}`, 'utf8'));

function walk(ns: OutlineNode[], f: (n: OutlineNode, parent?: OutlineNode) => void, parent?: OutlineNode): void {
  for (const n of ns) {
    f(n, parent);
    walk(n.children, f, n);
  }
}

describe('section outline', () => {
  for (const f of corpusFiles(['synthetic', 'public'])) {
    it(`${f.set}/${f.stem}: each heading counts exactly its sectionMsgs; leaves sit under the nearest open heading`, () => {
      let d: Dialog;
      try {
        d = readIpynb(readFileSync(f.path, 'utf8'));
      } catch {
        return;
      }
      const tree = dlgOutline(d);
      const seen = new Set<number>();
      walk(tree, (n, parent) => {
        seen.add(n.index);
        const m = d.messages[n.index];
        assert.equal(n.id, m.id);
        if (n.level) {
          assert.equal(n.level, headerLevel(m));
          const sec = sectionMsgs(d.messages, m);
          assert.equal(n.count, sec.length, `section of ${m.id}`);
        } else assert.ok(m.msgType === 'prompt' || m.msgType === 'code');
        if (parent) assert.ok(sectionMsgs(d.messages, d.messages[parent.index]).includes(m), `${m.id} inside ${parent.id}`);
      });
      d.messages.forEach((m, k) => {
        if (headerLevel(m) || m.msgType === 'prompt' || m.msgType === 'code') assert.ok(seen.has(k), `${m.id} is in the tree`);
      });
    });
  }

  it('sections.ipynb: nesting, labels and token sums', () => {
    const d = read('sections.ipynb');
    const tree = dlgOutline(d);
    assert.equal(tree[0].label, 'Part 1');
    assert.deepEqual(tree[0].children.map((n) => n.label), ['1.1 Sub']);
    assert.deepEqual(outlinePath(tree, 's0000005').map((n) => n.id), ['s0000000', 's0000002', 's0000004', 's0000005']);
    const part1 = sectionMsgs(d.messages, d.messages[0]);
    const sum = part1.reduce((n, m) => n + outlineItem(m, 0).tokens, 0);
    assert.ok(tree[0].sectionTokens >= sum, 'content tokens at least');
    // the label of a heading with a lone CR shows a space, not a line break
    const cr = tree.find((n) => n.id === 's0000013')!;
    assert.equal(cr.label, 'Title after a lone CR');
  });

  it('labels: first non-blank line, cut to 80 code points; empty messages say so', () => {
    const long = '😀'.repeat(100);
    const items = [new Message({ msgType: 'prompt', content: `\n  \n${long}\nmore` }), new Message({ msgType: 'code', content: '' })].map((m, k) => outlineItem(m, k));
    assert.equal(Array.from(items[0].label).length, 80);
    assert.ok(items[0].label.endsWith('…'));
    assert.equal(items[1].label, '(empty code)');
    assert.equal(items[0].tokens, tokenEstimate(`\n  \n${long}\nmore`));
    assert.deepEqual(buildOutline(items).map((n) => n.index), [0, 1]);
  });
  it('labels: a code cell by its first line that is not a directive, its directives when it has nothing else (issue 12)', () => {
    const label = (content: string, msgType = 'code') => outlineItem(new Message({ msgType, content }), 0).label;
    assert.equal(label('#| export\n#| hide\n\ndef f(x):\n    return x'), 'def f(x):');
    assert.equal(label('%%time\n#| export\nx = 1'), 'x = 1');
    assert.equal(label('#| export'), '#| export');
    assert.equal(label('#| a note line', 'note'), '#| a note line');
  });
});

describe('history preview', () => {
  it('hist mode: the user and assistant turns are exactly dlg2hist’s', () => {
    const d = read('basic.ipynb');
    const pv = histPreview(d, 'b0000009');
    const hist = dlg2hist(d, { supports_vision: true }, { upto: 'b0000009' });
    assert.equal(pv.turns.length, hist.length);
    pv.turns.forEach((t, k) => {
      assert.equal(t.role, k % 2 ? 'assistant' : 'user');
      const texts = t.parts.filter((p) => p.kind === 'text').map((p) => p.text);
      assert.deepEqual(texts, k % 2 ? [hist[k]] : (hist[k] as unknown[]).filter((p) => typeof p === 'string'));
    });
    assert.equal(pv.total, pv.turns.reduce((n, t) => n + t.tokens, 0));
  });

  it('skipped messages are listed in the turn they would have joined, and cost nothing', () => {
    const d = read('basic.ipynb');
    d.msg('b0000002').skipped = 1;
    const pv = histPreview(d, 'b0000003');
    const skipped = pv.turns[0].parts.filter((p) => p.kind === 'skipped');
    assert.deepEqual(skipped.map((p) => p.text), ['code: x = 21']);
    assert.ok(!pv.turns[0].parts.some((p) => p.kind === 'text' && p.text.includes('x = 21')));
    const unskipped = histPreview(read('basic.ipynb'), 'b0000003');
    assert.ok(unskipped.turns[0].tokens > pv.turns[0].tokens);
  });

  it('an image costs tokens by its pixels (w·h / 750), in both modes', async () => {
    const png = new Uint8Array(await sharp({ create: { width: 300, height: 250, channels: 3, background: 'blue' } }).png().toBuffer());
    const att = new Attachment(png, 'image/png');
    const d = new Dialog([new Message({ id: 'p1', msgType: 'prompt', content: `What is ![](attachment:${att.id})?`, attachments: [att] })]);
    for (const mode of ['hist', 'chat'] as const) {
      const media = histPreview(d, 'p1', mode).turns[0].parts.filter((p) => p.kind === 'media');
      assert.equal(media.length, 1, mode);
      assert.match(media[0].text, /^image\/png · 300×250 px/);
      assert.equal(media[0].tokens, 100, mode);
    }
  });

  it('a #ai text file is a file part with its size, counted as the text it sends, in both modes', () => {
    const text = 'def helper():\n    return 42\n'.repeat(10);
    const d = new Dialog([new Message({ id: 'p1', msgType: 'prompt', content: 'Explain ![](helper.py#ai)' })]);
    const files = new Map([['helper.py', new TextEncoder().encode(text)]]);
    const sent = `<file path="helper.py">${text}</file>`;
    for (const mode of ['hist', 'chat'] as const) {
      const pv = histPreview(d, 'p1', mode, { files });
      const file = pv.turns[0].parts.filter((p) => p.kind === 'file');
      assert.equal(file.length, 1, mode);
      assert.equal(file[0].text, `helper.py · text · ${text.length}B · ~${tokenEstimate(sent)} tok`, mode);
      assert.equal(pv.turns[0].tokens, tokenEstimate(sent) + tokenEstimate('Explain ![](helper.py#ai)'), mode);
    }
    assert.equal(previewPartSchema.parse(histPreview(d, 'p1', 'chat', { files }).turns[0].parts[0]).kind, 'file', 'the panel protocol lets it through');
  });

  it('chat mode follows dlg2chat, tool calls and results as their own parts', () => {
    const d = read('tools.ipynb');
    const pv = histPreview(d, 't0000001', 'chat');
    const chat = dlg2chat(d, null, { upto: 't0000001' });
    assert.deepEqual(pv.turns.map((t) => t.role), chat.map((m) => m.role));
    assert.ok(pv.turns.some((t) => t.parts.some((p) => p.kind === 'tool_use' && p.text.startsWith('python('))));
    assert.ok(pv.turns.some((t) => t.role === 'tool' && t.parts[0].kind === 'tool_result'));
  });

  it('media parts are tagged, not inlined', () => {
    const d = read('media.ipynb');
    const pv = histPreview(d, 'm0000007');
    assert.ok(pv.turns[0].parts.some((p) => p.kind === 'media'));
    assert.ok(pv.turns.every((t) => t.parts.every((p) => p.kind !== 'media' || !p.text.includes('base64'))));
  });
});

describe('panel protocol', () => {
  it('a state built from the core parses; dialog text stays plain strings', () => {
    const d = read('tools.ipynb');
    const state = {
      type: 'state',
      dialog: 'tools.ipynb',
      sections: dlgOutline(d),
      selected: 't0000001',
      budget: 1000,
      history: histPreview(d, 't0000001'),
      historyError: null,
      reply: { promptId: 't0000001', parts: replyParts(d.messages[0]) },
      replyError: null,
    };
    assert.deepEqual(parseHostMessage(state), state);
  });

  it('rejects what does not fit, on both sides', () => {
    assert.equal(parsePanelMessage({ type: 'reveal' }), null);
    assert.equal(parsePanelMessage({ type: 'eval', code: '1' }), null);
    assert.equal(parsePanelMessage({ type: 'applyReply', promptId: 'x', parts: [{ kind: 'call', name: 'f' }] }), null);
    assert.equal(parsePanelMessage('ready'), null);
    assert.deepEqual(parsePanelMessage({ type: 'reveal', id: 'abc', extra: 1 }), { type: 'reveal', id: 'abc' });
    assert.equal(hostMessageSchema.safeParse({ type: 'state', dialog: null }).success, false);
    assert.equal(parseHostMessage({ type: 'applied', ok: 'yes', message: '' }), null);
  });

  it('panel state falls back to the default', () => {
    assert.deepEqual(parsePanelState({ tab: 'history', mode: 'chat' }), { tab: 'history', mode: 'chat' });
    assert.deepEqual(parsePanelState({ tab: 'javascript:alert(1)' }), DEFAULT_PANEL_STATE);
    assert.deepEqual(parsePanelState(undefined), DEFAULT_PANEL_STATE);
  });
});
