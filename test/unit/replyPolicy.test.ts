// The reply renderer's allow-list and URL policy (src/renderer/policy.ts). The attribute values here are
// as the HTML parser hands them to DOMPurify: entities already decoded (`javascript&#58;` is `javascript:`).
import { strict as assert } from 'node:assert';
import { REPLY_ATTRS, REPLY_TAGS, REPLY_URI, attachmentUrl, replyAttribute, urlScheme } from '../../src/renderer/policy';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('replyPolicy', () => {
  it('allows no tag or attribute that runs, embeds, submits, restyles or names', () => {
    for (const t of ['script', 'iframe', 'frame', 'object', 'embed', 'form', 'input', 'button', 'textarea', 'select', 'style', 'link', 'meta', 'base', 'svg', 'math', 'template', 'video', 'audio', 'source', 'picture', 'area', 'map', 'marquee', 'xmp', 'noscript']) {
      assert.ok(!REPLY_TAGS.includes(t), t);
    }
    assert.ok(REPLY_ATTRS.every((a) => !/^on/i.test(a)), 'no event handlers');
    for (const a of ['id', 'name', 'target', 'srcset', 'action', 'formaction', 'xlink:href', 'background', 'poster', 'srcdoc']) assert.ok(!REPLY_ATTRS.includes(a), a);
  });

  it('keeps what replies use: folds, tables, code, images, links', () => {
    for (const t of ['details', 'summary', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'pre', 'code', 'img', 'a', 'h1', 'ul', 'ol', 'li', 'blockquote']) assert.ok(REPLY_TAGS.includes(t), t);
    for (const a of ['href', 'src', 'alt', 'open', 'class']) assert.ok(REPLY_ATTRS.includes(a), a);
  });

  it('reads a scheme the way a browser does: through controls, tabs, newlines and spaces', () => {
    assert.equal(urlScheme('javascript:alert(1)'), 'javascript');
    assert.equal(urlScheme('JaVaScRiPt:alert(1)'), 'javascript');
    assert.equal(urlScheme('java\tscript:alert(1)'), 'javascript');
    assert.equal(urlScheme('java\nscript:alert(1)'), 'javascript');
    assert.equal(urlScheme('java\rscript:alert(1)'), 'javascript');
    assert.equal(urlScheme(' \u0001javascript:alert(1)'), 'javascript');
    assert.equal(urlScheme('\u00a0javascript:x'), 'javascript');
    assert.equal(urlScheme('jav ascript:x'), 'javascript');
    assert.equal(urlScheme('https://example.com/a:b'), 'https');
    for (const rel of ['#top', '/a/b', './a:b', 'a/b:c', '?q=a:b', 'page.html', '']) assert.equal(urlScheme(rel), '', rel);
  });

  it('links only to http, https, mailto or a relative place', () => {
    for (const ok of ['https://example.com', 'http://x.y/?a=b', 'mailto:a@b.c', '#sec', 'docs/page.html']) assert.equal(replyAttribute('a', 'href', ok), ok, ok);
    const bad = [
      'javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)', 'java&#x09;script:'.replace('&#x09;', '\t'),
      'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>', 'data:image/png;base64,AAAA', 'file:///etc/passwd',
      'vscode:command/workbench.action.terminal.new', 'command:workbench.action.terminal.new', 'blob:https://x/y', 'livescript:x', '\u0000javascript:alert(1)',
    ];
    for (const b of bad) assert.equal(replyAttribute('a', 'href', b), null, JSON.stringify(b));
  });

  it('image sources: http(s), relative, data:image/* or an attachment, nothing else', () => {
    for (const ok of ['https://example.com/a.png', `data:image/png;base64,${PNG}`, 'data:image/svg+xml,<svg/>', 'pic.png']) assert.equal(replyAttribute('img', 'src', ok), ok, ok);
    for (const b of ['javascript:alert(1)', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'data:,x', 'vbscript:x', 'file:///x.png']) {
      assert.equal(replyAttribute('img', 'src', b), null, b);
    }
    assert.equal(replyAttribute('div', 'src', 'https://example.com/a.png'), null, 'src only on images');
  });

  it('resolves attachment: images from the output metadata, by name as written or URL-decoded', () => {
    const att = { 'chart.png': { 'image/png': PNG }, 'my pic.png': { 'image/png': PNG }, 'page.html': { 'text/html': 'PHNjcmlwdD4=' }, 'bad.png': { 'image/png': 'not base64!' } };
    assert.equal(replyAttribute('img', 'src', 'attachment:chart.png', att), `data:image/png;base64,${PNG}`);
    assert.equal(attachmentUrl('attachment:my%20pic.png', att), `data:image/png;base64,${PNG}`);
    assert.equal(attachmentUrl('attachment:page.html', att), null, 'only images');
    assert.equal(attachmentUrl('attachment:bad.png', att), null, 'only base64');
    assert.equal(attachmentUrl('attachment:missing.png', att), null);
    assert.equal(attachmentUrl('attachment:toString', att), null, 'own names only');
    assert.equal(attachmentUrl('attachment:%E0%A4%A', att), null, 'a malformed escape is a name');
    assert.equal(replyAttribute('img', 'src', 'attachment:chart.png'), null, 'no attachments, no image');
  });

  it('style survives only as a table cell alignment', () => {
    assert.equal(replyAttribute('td', 'style', 'text-align:right'), 'text-align: right');
    assert.equal(replyAttribute('th', 'style', 'text-align: Center;'), 'text-align: center');
    assert.equal(replyAttribute('td', 'style', 'text-align:right;background:url(https://x/y)'), null);
    assert.equal(replyAttribute('p', 'style', 'text-align:right'), null);
    assert.equal(replyAttribute('div', 'style', 'position:fixed;inset:0'), null);
  });

  it("DOMPurify's own URL check agrees: our schemes and relative URLs only", () => {
    for (const ok of ['https://x', 'http://x', 'mailto:a@b', '#a', '/a', 'a/b', 'a.png']) assert.ok(REPLY_URI.test(ok), ok);
    for (const b of ['javascript:x', 'data:image/png;base64,AA', 'vbscript:x', 'ftp://x', 'tel:1', 'file:x']) assert.ok(!REPLY_URI.test(b), b);
  });
});
