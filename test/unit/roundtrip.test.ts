// The corpus round trip (DECISIONS "unmodified round trip"): every real and synthetic dialog reads and
// writes back byte for byte, reads like the Python reference where DECISIONS does not say otherwise, and
// stays valid and stable under edits.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DialogReadError, cellOfMessage, readIpynbReport, writeIpynb } from '../../src/core/ipynb';
import { Json, untagNumbers } from '../../src/core/base';
import { Message, promptOutput } from '../../src/core/model';
import { aiRes } from '../../src/core/model';
import { corpusFiles } from './corpus';

const plain = (v: unknown) => untagNumbers(v as Json);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Our reading of one message, in the golden file's terms. */
function asGolden(m: Message) {
  return {
    id: m.id,
    msg_type: m.msgType,
    content: m.content,
    output: plain(m.output),
    meta: plain(m.meta),
    skipped: plain(m.skipped),
    pinned: plain(m.pinned),
    attachments: m.attachments.map((a) => ({ id: a.id, content_type: a.contentType, sha256: sha256(a.data), len: a.data.length })),
    ai_res: aiRes(m),
  };
}

describe('roundtrip: every corpus file', () => {
  for (const f of corpusFiles(['public', 'synthetic', 'perf'])) {
    const text = readFileSync(f.path, 'utf8');
    const g = f.golden;

    it(`${f.set}/${f.stem}: byte-identical round trip or a clear read error`, () => {
      let read: ReturnType<typeof readIpynbReport>;
      try {
        read = readIpynbReport(text, f.stem);
      } catch (e) {
        assert.ok(e instanceof DialogReadError && /^not JSON: .+ at line \d+ column \d+$/.test(e.message), String(e));
        assert.ok(g === undefined || g.read.returned === null);
        return;
      }
      assert.equal(writeIpynb(read.dialog), text);
    });

    if (!g || g.read.returned === null) continue;

    it(`${f.set}/${f.stem}: reads like the reference (golden), except where DECISIONS says otherwise`, () => {
      const { dialog: d, repairs } = readIpynbReport(text, f.stem);
      const rawCells = JSON.parse(text.replace(/^\ufeff/, '')).cells;
      // DECISIONS "missing or duplicate cell ids": duplicates are kept, so the report says so.
      const want = (g.repairs as string[]).map((r) =>
        r.startsWith('cell None: ') ? r.replace(/regenerated as \w+$/, 'regenerated as *') : r.replace(/: duplicate id, regenerated as \w+$/, ': duplicate id, kept'),
      );
      assert.deepEqual(repairs.map((r) => r.replace(/^(cell None: duplicate id, regenerated as )\w+$/, '$1*')), want);
      assert.equal(d.name, g.read.name);
      assert.equal(d.messages.length, g.read.n_messages);
      assert.deepEqual(plain(d.meta), g.dialog_meta);
      g.messages.forEach((gm: any, i: number) => {
        const o = asGolden(d.messages[i]) as Record<string, unknown>;
        const exp: Record<string, unknown> = {};
        for (const k of Object.keys(o)) exp[k] = gm[k];
        // The reference regenerates missing and duplicate ids at random; DECISIONS "missing or duplicate
        // cell ids" keeps a duplicate id as read (a missing one gets a random in-memory id).
        if (gm.id_generated) exp.id = rawCells[i].id ? String(rawCells[i].id) : o.id;
        if (gm.msg_type === 'note' && o.msg_type === 'prompt') {
          // DECISIONS "a markdown cell with the reply separator but no solveit_ai": a prompt, not a note
          // (the reference reads a note of the text before the separator and drops the reply).
          const m = d.messages[i];
          assert.equal(m.content, gm.content);
          assert.ok(aiRes(m) !== '' || m.origin?.emptySep === true);
          Object.assign(exp, { msg_type: 'prompt', content: m.content, output: plain(promptOutput(aiRes(m))), ai_res: aiRes(m) });
        }
        if (gm.msg_type !== 'prompt' && o.msg_type !== 'prompt' && o.content !== gm.content) {
          // The reference cuts every cell at a reply separator; a non-prompt keeps its whole text here.
          assert.ok((o.content as string).startsWith(gm.content as string) && (o.content as string).includes('SOLVEIT_SEPARATOR'));
          exp.content = o.content;
        }
        assert.deepEqual(o, exp, `message ${i} (${gm.id})`);
      });
    });

    it(`${f.set}/${f.stem}: edited, it stays valid, canonical and a fixed point`, () => {
      const { dialog: d } = readIpynbReport(text, f.stem);
      const before = d.messages.map((m) => cellOfMessage(m));
      if (d.messages.length) d.messages[0].content += ' (edited)';
      d.mkMessage({ msgType: 'note', content: 'added\nlines' });
      const w = writeIpynb(d);
      const parsed = JSON.parse(w.replace(/^\ufeff/, ''));
      assert.equal(parsed.cells.length, d.messages.length);
      const again = readIpynbReport(w, f.stem).dialog;
      assert.equal(writeIpynb(again), w);
      // Nothing but the edit changed what the messages write.
      again.messages.slice(1, -1).forEach((m, i) => {
        // An unedited id-less cell stays id-less on disk, so it reads with a new in-memory id.
        const cell = cellOfMessage(m);
        if (m.origin?.genId !== undefined) cell.id = before[i + 1].id;
        assert.deepEqual(cell, before[i + 1]);
      });
      assert.equal(again.messages.at(-1)!.content, 'added\nlines');
    });
  }
});
