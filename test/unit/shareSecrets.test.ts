// The secret scan of a shared dialog: secretlint's recommended rules and the keys the extension holds,
// each hit naming the message, its part and the line, the secret masked.
import assert from 'node:assert/strict';
import { Dialog, Message, codeOutput, promptOutput } from '../../src/core/model';
import { hitText, shareDialog, sharedUrl, shareTexts } from '../../src/core/share';
import { scanSecrets } from '../../src/extension/share/secretScan';

const ANTHROPIC = 'sk-ant-api03-' + 'Ab3'.repeat(31) + 'AA';
const GITHUB = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const OWN = 'my-own-gateway-key-1234567890';

function dialog(): Dialog {
  return new Dialog([
    new Message({ id: 'n1', msgType: 'note', content: '# Keys' }),
    new Message({ id: 'c1', msgType: 'code', content: `import os\nkey = "${ANTHROPIC}"`, output: codeOutput('ok\n') }),
    new Message({ id: 'p1', msgType: 'prompt', content: 'Why does my token fail?', output: promptOutput(`Line one\nYour token ${GITHUB} is revoked.`) }),
    new Message({ id: 'c2', msgType: 'code', content: 'print(gw)', output: codeOutput(`${OWN}\n`) }),
    new Message({ id: 'h1', msgType: 'note', content: `pinned ${GITHUB}`, pinned: 1 }),
  ]);
}

describe('share: secret scan', () => {
  it('finds provider keys and tokens with the maintained rules, naming message, part and line', async () => {
    const s = shareDialog(dialog());
    const hits = await scanSecrets(shareTexts(s.dialog, s.indexes));
    assert.deepEqual(hits.map((h) => [h.id, h.part, h.line]), [['c1', 'text', 2], ['p1', 'reply', 2]]);
    assert.match(hitText(hits[0]), /^message 2, line 2: .*Anthropic.* sk-a•+AA$/);
    assert.ok(!hits.some((h) => h.masked.includes(ANTHROPIC.slice(4, 20))), 'the secret is never shown whole');
  });

  it('finds the keys the extension holds, in outputs too, and not in messages left out', async () => {
    const s = shareDialog(dialog());
    const hits = await scanSecrets(shareTexts(s.dialog, s.indexes), [{ name: 'OpenAI API key (Dialog: Set API Key…)', value: OWN }]);
    const own = hits.filter((h) => h.what.startsWith('OpenAI'));
    assert.deepEqual(own.map((h) => [h.id, h.index, h.part, h.line]), [['c2', 3, 'output', 1]]);
    assert.ok(!hits.some((h) => h.id === 'h1'), 'the pinned message is not shared, so not scanned');
  });

  it('a clean dialog has no hits', async () => {
    const d = new Dialog([new Message({ id: 'a', msgType: 'note', content: 'Nothing to see: sk-ant-… is how keys start.' })]);
    assert.deepEqual(await scanSecrets(shareTexts(d)), []);
  });
});

describe('share: the address of a shared dialog', () => {
  const id = 'aa5a315d61ae9438b18d';
  it('reads gist pages, ids and raw .ipynb URLs', () => {
    assert.deepEqual(sharedUrl(`https://gist.github.com/someone/${id}`), { kind: 'gist', id });
    assert.deepEqual(sharedUrl(`https://gist.github.com/${id}#file-x-ipynb`), { kind: 'gist', id });
    assert.deepEqual(sharedUrl(` ${id.toUpperCase()} `), { kind: 'gist', id });
    assert.deepEqual(sharedUrl(`https://ghe.example.com/gist/someone/${id}`), { kind: 'gist', id });
    const raw = `https://gist.githubusercontent.com/someone/${id}/raw/0123abcd/my%20dialog.ipynb`;
    assert.deepEqual(sharedUrl(raw), { kind: 'raw', url: raw });
  });
  it('refuses what is neither', () => {
    assert.equal(sharedUrl('file:///etc/passwd.ipynb'), null);
    assert.equal(sharedUrl('https://example.com/page'), null);
    assert.equal(sharedUrl('not a url'), null);
  });
});
