// Replies shown in the notebook: dangerous HTML outside code becomes text; everything else is untouched.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { safeReplyMarkdown } from '../../src/core/reply';
import { readIpynb } from '../../src/core/ipynb';
import { aiRes } from '../../src/core/model';
import { corpusFiles } from './corpus';

describe('replyDisplay: safeReplyMarkdown', () => {
  it('shows tags that run or load something as text', () => {
    assert.equal(safeReplyMarkdown('a <script>alert(1)</script> b'), 'a &lt;script>alert(1)&lt;/script> b');
    assert.equal(safeReplyMarkdown('<iframe src="https://evil.example"></iframe>'), '&lt;iframe src="https://evil.example">&lt;/iframe>');
    assert.equal(safeReplyMarkdown('<IMG SRC=x OnError=alert(1)>'), '&lt;IMG SRC=x OnError=alert(1)>');
    assert.equal(safeReplyMarkdown('<img\n  src=x\n  onerror="alert(1)">'), '&lt;img\n  src=x\n  onerror="alert(1)">', 'attributes on later lines');
    assert.equal(safeReplyMarkdown('<a href="javascript:alert(1)">x</a>'), '&lt;a href="javascript:alert(1)">x</a>');
    assert.equal(safeReplyMarkdown('<javascript:alert(1)>'), '&lt;javascript:alert(1)>');
  });

  it('disarms script URLs of markdown links, inline and by reference', () => {
    assert.equal(safeReplyMarkdown('[x](javascript:alert(1))'), '[x](#blocked:javascript:alert(1))');
    assert.equal(safeReplyMarkdown('[x]( JavaScript:alert(1))'), '[x]( #blocked:JavaScript:alert(1))');
    assert.equal(safeReplyMarkdown('[r]: javascript:alert(1)\n\n[x][r]'), '[r]: #blocked:javascript:alert(1)\n\n[x][r]');
  });

  it('keeps harmless HTML, links and every kind of code as written', () => {
    const same = [
      "<details class='tool-usage-details'>\n<summary>f(x=1)</summary>\n\n```json\n{\"a\": \"<script>\"}\n```\n\n</details>",
      'Use `<script>` tags or ``a ` <iframe> `` here.',
      '~~~html\n<iframe src="x"></iframe>\n~~~\n',
      '````\n```\n<script>x</script>\n```\n````',
      '[docs](https://example.com/a?b=c) and <b>bold</b>, <br>, <img src="attachment:x.png">',
      'plain text with a: colon',
    ];
    for (const s of same) assert.equal(safeReplyMarkdown(s), s);
  });

  it('code ends where its fence ends: HTML after it is defused', () => {
    assert.equal(safeReplyMarkdown('```\ncode\n```\n<script>x</script>'), '```\ncode\n```\n&lt;script>x&lt;/script>');
    assert.equal(safeReplyMarkdown('`a` <script> `b`'), '`a` &lt;script> `b`');
  });

  it('shows every corpus reply as written (none carries active HTML outside code)', () => {
    let total = 0;
    for (const f of corpusFiles()) {
      let d;
      try {
        d = readIpynb(readFileSync(f.path, 'utf8'));
      } catch {
        continue;
      }
      for (const m of d.messages) {
        const reply = aiRes(m);
        if (!reply) continue;
        total++;
        assert.equal(safeReplyMarkdown(reply), reply, `${f.stem} ${m.id}`);
      }
    }
    assert.ok(total > 1000);
  });
});
