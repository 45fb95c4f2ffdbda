// `dlg golden` against the Python reference's golden vectors, field by field, for every corpus file.
// Where DECISIONS.md overrides the reference, the override is asserted instead, next to its row.
import { strict as assert } from 'node:assert';
import { goldenReport } from '../../src/cli/golden';
import { loadDialog, CliError } from '../../src/cli/readFile';
import { untagNumbers, Json } from '../../src/core/base';
import { corpusFiles } from './corpus';
import { Message } from '../../src/core/model';
import { aiOutput, renderOutputsAi } from '../../src/core/hist';
import { histXml } from '../../src/core/hist';

const plain = (v: unknown) => untagNumbers(v as Json);
const FILE_FIELDS = ['dialog_meta', 'dlg2py', 'validate'] as const;
const MESSAGE_FIELDS = ['id', 'msg_type', 'cell_type', 'content', 'output', 'meta', 'skipped', 'pinned', 'attachments', 'ai_res',
  'ai_output', 'render_outputs_ai', 'header_level', 'header_info', 'section', 'exported', 'directives', 'has_error', 'preview',
  'to_xml', 'hist_xml', 'tool_call'] as const;
// File-level projections (hist, hist_plain, chat, replies) are compared in histCorpus.test.ts and
// replyCorpus.test.ts, which count each deliberate difference by its DECISIONS row.

/**
 * Deliberate differences from the reference, each named by its DECISIONS.md row. Each returns the row
 * when our value is the decided one for that message (golden `g`, ours `o`, our Message `m`), else null.
 */
const OVERRIDES: ((field: string, g: any, o: any, m: Message) => string | null)[] = [
  // "a markdown cell with the reply separator but no solveit_ai": a prompt for us, a note for the reference.
  (_f, g, o) => (g.msg_type === 'note' && o.msg_type === 'prompt' ? 'separator without solveit_ai' : null),
  // "missing or duplicate cell ids": the reference regenerated this id at random; we keep the cell id-less.
  (f, g, o) => (g.id_generated && JSON.stringify(o[f]).split(o.id).join(g.id) === JSON.stringify(g[f]) ? 'ids kept as read' : null),
  // reply-format §12 port decision: a call that is not all literals (`*args`, names) is no tool call
  // (null) instead of the reference's ValueError.
  (f, g, o) => (f === 'tool_call' && o[f] === null && /^malformed node/.test(g[f]?.__error__?.message) ? 'non-literal calls' : null),
  // "Never lose what a user wrote": a non-prompt cell keeps the text after a separator as content.
  // Fields that embed the content are compared with the reference's shorter content put back.
  (f, g, o) => {
    if (o.msg_type !== 'note' || o.content === g.content || !o.content.startsWith(g.content) || !/SOLVEIT_SEPARATOR/.test(o.content)) return null;
    const inner = (s: string) => JSON.stringify(s).slice(1, -1);
    const put = JSON.stringify(o[f]).split(inner(o.content)).join(inner(g.content));
    return ['content', 'preview'].includes(f) || put === JSON.stringify(g[f]) ? 'never lose what a user wrote' : null;
  },
  // "LaTeX outputs for the model": verbatim by default; the reference's re-delimiting is our option.
  (f, g, _o, m) =>
    (f === 'ai_output' && jsonEq(aiOutput(m, { latex: 'delimit' }), g[f])) ||
    (f === 'render_outputs_ai' && jsonEq(renderOutputsAi(m.outputs, undefined, { latex: 'delimit' }), g[f])) ||
    (f === 'hist_xml' && jsonEq(histXml(m, { latex: 'delimit' }), g[f]))
      ? 'LaTeX verbatim by default'
      : null,
];
const jsonEq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe('golden: dlg golden matches the Python reference on the corpus', () => {
  for (const f of corpusFiles()) {
    it(`${f.set}/${f.stem}`, () => {
      const g = f.golden!;
      if (g.read.returned === null) {
        // Files the reference cannot read: not JSON gives our clear error; a BOM is stripped
        // (ipynb-storage §10 port decision) and the file reads.
        if (f.stem === 'edge_bom') return void assert.equal(loadDialog(f.path).dialog.messages.length >= 0, true);
        return void assert.throws(() => loadDialog(f.path), CliError);
      }
      const loaded = loadDialog(f.path);
      const o = goldenReport(loaded) as any;
      // DECISIONS "unmodified round trip": byte-identical for every corpus file.
      assert.equal(o.roundtrip_equals_input, true, 'round trip is byte-identical');
      assert.deepEqual(o.read.n_messages, g.read.n_messages);
      for (const k of FILE_FIELDS) {
        // DECISIONS "missing or duplicate cell ids": ids are kept, so validate names the duplicates the
        // reference silently regenerated.
        if (k === 'validate' && g.repairs.some((r: string) => /duplicate id, regenerated as/.test(r)) && o.validate !== true) {
          assert.match(o.validate.__error__.message, /^duplicate message id\(s\): /);
        } else assert.deepEqual(plain(o[k]), g[k], k);
      }
      const diffs: string[] = [];
      g.messages.forEach((gm: any, i: number) => {
        const om = o.messages[i];
        for (const k of MESSAGE_FIELDS) {
          if (!(k in gm) || (k === 'id' && gm.id_generated)) continue;
          const ov = plain(om[k]);
          try {
            assert.deepEqual(ov, gm[k]);
          } catch {
            if (!OVERRIDES.some((o) => o(k, gm, om, loaded.dialog.messages[i]))) diffs.push(`message ${i} (${gm.id}) ${k}: ours ${JSON.stringify(ov)?.slice(0, 200)} reference ${JSON.stringify(gm[k])?.slice(0, 200)}`);
          }
        }
      });
      assert.deepEqual(diffs, []);
    });
  }
});
