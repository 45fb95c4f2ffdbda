// Every prompt reply of the golden corpus through reply2dlg / dlg2reply, compared with the Python reference.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Message, promptOutput } from '../../src/core/model';
import { untagNumbers } from '../../src/core/base';
import { pyToJson } from '../../src/core/python';
import { dlg2reply, reply2dlg, toolCall } from '../../src/core/reply';
import { legacyToolBlocks } from '../../src/core/reply';

import { SHARED } from './corpus';
const GOLDEN = join(SHARED, 'golden');

interface GoldenRow {
  msg_type: string;
  content: string;
  output: unknown;
  meta: unknown;
}
interface GoldenReply {
  id: string;
  reply2dlg: GoldenRow[] | { __error__: { type: string; message: string } };
  dlg2reply_equals_ai_res?: boolean;
  dlg2reply?: string;
}

function goldenFiles(): string[] {
  const out: string[] = [];
  for (const set of ['public', 'synthetic']) {
    const dir = join(GOLDEN, set);
    if (existsSync(dir)) for (const f of readdirSync(dir).sort()) if (f.endsWith('.json')) out.push(join(dir, f));
  }
  return out;
}

const files = goldenFiles();

describe('reply corpus: reply2dlg / dlg2reply against the reference', function () {
  if (!files.length) {
    it.skip('golden corpus not present');
    return;
  }
  const stats = { replies: 0, identical: 0, referenceIdentical: 0, legacy: 0, legacyIdentical: 0 };

  for (const file of files) {
    const g = JSON.parse(readFileSync(file, 'utf8'));
    const replies: GoldenReply[] = Array.isArray(g.replies) ? g.replies : [];
    if (!replies.length) continue;
    const byId = new Map<string, { ai_res: string }>((g.messages ?? []).map((m: { id: string; ai_res: string }) => [m.id, m]));
    it(file.slice(GOLDEN.length + 1), () => {
      for (const r of replies) {
        const reply = byId.get(r.id)?.ai_res ?? '';
        const pm = new Message({ id: r.id, content: '', msgType: 'prompt', output: promptOutput(reply) });
        stats.replies++;
        if (r.dlg2reply_equals_ai_res) stats.referenceIdentical++;
        if (!Array.isArray(r.reply2dlg)) {
          assert.throws(() => reply2dlg(pm), { message: r.reply2dlg.__error__.message }, r.id);
          continue;
        }
        const sub = reply2dlg(pm);
        const got = sub.messages.map((m) => ({ msg_type: m.msgType, content: m.content, output: m.output, meta: m.meta }));
        // Token-usage envelopes stay note text, as in the reference; tool envelopes are where we differ.
        const legacy = legacyToolBlocks(reply).length > 0;
        if (!legacy) assert.deepEqual(got, r.reply2dlg, `reply2dlg of ${r.id}`);
        else {
          // DECISIONS "reply wire format" (and reply-format §10 port decision): legacy envelopes are
          // parsed, where the reference keeps them as note text. Each usable envelope is one code message.
          stats.legacy++;
          const calls = legacyToolBlocks(reply).filter((b) => b.fenced.includes('"id"') && !b.fenced.includes('"server": true'));
          assert.equal(got.filter((m) => m.msg_type === 'code').length, calls.filter((b) => b.id !== null).length, `calls of ${r.id}`);
        }
        const back = dlg2reply(sub);
        const same = back === reply;
        // A reply in normal form (what dlg2reply writes) always comes back byte-identical.
        const normal = new Message({ id: r.id, content: '', msgType: 'prompt', output: promptOutput(back) });
        assert.equal(dlg2reply(reply2dlg(normal)), back, `normal form of ${r.id} is a fixed point`);
        if (same) stats.identical++;
        if (legacy && same) stats.legacyIdentical++;
        // Never worse than the reference: a legacy reply it gives back unchanged, we give back unchanged.
        if (legacy && r.dlg2reply_equals_ai_res) assert.ok(same, `legacy reply ${r.id} changed by an unedited explode/implode`);
        if (!legacy) {
          // Outside legacy replies the implode is the reference's, byte for byte.
          assert.equal(back, r.dlg2reply ?? reply, `dlg2reply of ${r.id}`);
          assert.equal(same, !!r.dlg2reply_equals_ai_res, `normal form of ${r.id}`);
        }
      }
    });
  }

  it('tool_call of every golden message', () => {
    let n = 0;
    for (const file of files) {
      const g = JSON.parse(readFileSync(file, 'utf8'));
      for (const gm of g.messages ?? []) {
        const m = new Message({ content: gm.content, msgType: gm.msg_type });
        const call = toolCall(m);
        const got = call && { name: call.name, arguments: untagNumbers(pyToJson(call.arguments)) };
        // reply-format §12 port decision: where the reference raises (non-literal values), tool_call is null.
        const want = gm.tool_call && gm.tool_call.__error__ ? null : gm.tool_call;
        assert.deepEqual(got, want, `${file}: ${gm.id}`);
        if (got) n++;
      }
    }
    assert.ok(n > 0);
  });

  after(() => {
    console.log(
      `      reply corpus: ${stats.identical}/${stats.replies} replies byte-identical through dlg2reply(reply2dlg(m)) ` +
        `(reference: ${stats.referenceIdentical}); ${stats.legacy} legacy <details> replies, ${stats.legacyIdentical} of them identical`,
    );
  });
});
