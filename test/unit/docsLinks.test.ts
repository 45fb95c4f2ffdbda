// The README is the Marketplace's page and the repo's landing page, docs/ its manual (issue 34): every
// relative link and image in them resolves to a file inside the repo (the .vsix carries README.md, docs/
// and media/), none leads outside it (no ../shared), and the README stays a landing page whose test
// command is the one CI runs (.ci/run runs exactly the README's `npm ci && npm test`).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The targets of the Markdown links and images of `md`, code blocks and code spans left out. */
function linkTargets(md: string): string[] {
  const prose = md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)[^`]*?\1/g, '');
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const html = [...prose.matchAll(/<(?:img|a)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  const refs = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/gm)].map((m) => m[1]);
  return [...inline, ...html, ...refs];
}

describe('README and docs/', () => {
  for (const page of pages) {
    it(`${page}: every relative link resolves inside the repo`, () => {
      const bad: string[] = [];
      for (const target of linkTargets(readFileSync(join(ROOT, page), 'utf8'))) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const file = resolve(ROOT, dirname(page), decodeURI(target.split('#')[0]));
        const inside = !relative(ROOT, file).startsWith('..') && !relative(ROOT, file).startsWith(sep);
        if (!inside) bad.push(`${target} (outside the repo)`);
        else if (!existsSync(file)) bad.push(`${target} (no such file)`);
      }
      assert.deepEqual(bad, []);
    });
  }

  it('finds the links it checks', () => {
    const readme = linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    assert.ok(readme.includes('media/screenshot.png') && readme.includes('docs/answering.md'), readme.join(' '));
    assert.deepEqual(linkTargets('`[a](x.md)` and\n```\n[b](y.md)\n```\n[c](z.md) ![d](e.png)'), ['z.md', 'e.png']);
  });

  it('the README is a landing page of at most 200 lines, with the test command CI runs', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 200, `${readme.split('\n').length} lines`);
    assert.match(readme, /^npm ci && npm test\b/m);
  });
});
