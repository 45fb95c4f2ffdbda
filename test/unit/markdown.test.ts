// msg2md / dlg2md against the reference's golden `msg2md` for every corpus dialog (ai-projections §12).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIpynb } from '../../src/core/ipynb';
import { dlg2md, msg2md } from '../../src/core/export';
import { Attachment, codeOutput, Dialog, Message, Output, promptOutput } from '../../src/core/model';
import { aiRes } from '../../src/core/model';

import { SHARED } from './corpus';

interface GoldenMsg {
  id: string;
  msg_type: string;
  content: string;
  output: Output[] | string;
  ai_res: unknown;
  msg2md: unknown;
}

/**
 * The message the reference rendered. Where our reader differs from the reference's by a DECISIONS.md
 * row (a markdown cell with the reply separator but no `solveit_ai` is a healed prompt here, the
 * reference reads a note and drops the reply), the golden message is rebuilt from its recorded fields,
 * so that msg2md itself is still compared with the reference.
 */
function asReferenceRead(read: Message, g: GoldenMsg): Message {
  if (read.msgType === g.msg_type && read.content === g.content && aiRes(read) === (g.ai_res ?? '')) return read;
  const m = new Message({ id: g.id, msgType: g.msg_type, content: g.content, attachments: read.attachments });
  m.output = g.output;
  return m;
}

describe('markdown: the §12 example', () => {
  it('note, code with output, prompt with reply', () => {
    const d = new Dialog([
      new Message({ msgType: 'note', content: '# Results' }),
      new Message({ msgType: 'code', content: '8*8', output: codeOutput('64') }),
      new Message({ msgType: 'prompt', content: 'Why 64?', output: promptOutput('Because $8^2=64$.') }),
      new Message({ msgType: 'code', content: '' }),
    ]);
    assert.equal(
      dlg2md(d),
      '# Results\n\n```python\n8*8\n```\n\n::: output\n```output\n64\n```\n:::\n\n::: prompt\nWhy 64?\n:::\n\n::: reply\nBecause $8^2=64$.\n:::\n',
    );
  });
  it('note attachments become data URIs', () => {
    const a = new Attachment(new Uint8Array([1, 2, 3]), 'image/png', 'abc');
    const m = new Message({ msgType: 'note', content: 'see ![](attachment:abc)', attachments: [a] });
    assert.equal(msg2md(m), 'see ![](data:image/png;base64,AQID)');
  });
  it('fences outgrow backtick runs and divs outgrow colon runs', () => {
    const m = new Message({ msgType: 'code', content: 'x = "```"', output: codeOutput('a ::: b') });
    assert.equal(msg2md(m), '````python\nx = "```"\n````\n\n:::: output\n```output\na ::: b\n```\n::::');
  });
});

for (const set of ['public', 'synthetic']) {
  const gdir = join(SHARED, 'golden', set);
  describe(`markdown: golden msg2md (${set})`, () => {
    for (const f of readdirSync(gdir).filter((x) => x.endsWith('.json'))) {
      const stem = f.slice(0, -5);
      const nb = join(SHARED, 'corpus', set, `${stem}.ipynb`);
      const golden = JSON.parse(readFileSync(join(gdir, f), 'utf8')) as { messages?: GoldenMsg[] };
      const gms = (golden.messages ?? []).filter((m) => typeof m.msg2md === 'string');
      if (!gms.length || !existsSync(nb)) continue;
      it(`${stem}: msg2md of ${gms.length} messages, and dlg2md`, () => {
        const d = readIpynb(readFileSync(nb, 'utf8'), stem);
        const all = golden.messages!;
        assert.equal(d.messages.length, all.length, 'message count');
        const bad: string[] = [];
        all.forEach((g, k) => {
          if (typeof g.msg2md !== 'string') return;
          if (msg2md(asReferenceRead(d.messages[k], g)) !== g.msg2md) bad.push(`${k}:${g.id}`);
        });
        assert.deepEqual(bad, [], 'messages whose msg2md differs');
        const healed = d.messages.some((m, k) => m !== asReferenceRead(m, all[k]));
        if (gms.length === all.length && !healed) {
          const want = all.map((g) => g.msg2md as string).filter((x) => x).join('\n\n') + '\n';
          assert.equal(dlg2md(d), want);
        }
      });
    }
  });
}
