// read_url (issue 52): the HTML → Markdown conversion, the address and host rules, the cut, and the
// whole call against a local site (test/mocks/webSite.ts) with the desktop's fetch (undici, connecting to
// the address its lookup checked).
import { strict as assert } from 'node:assert';
import { lookup } from 'node:dns/promises';
import { WebDeps, hostInText, isPrivateAddress, isPrivateHost, pageKind, pageWindow, parseWebUrl, readUrl } from '../../src/core/tools';
import { htmlToMarkdown } from '../../src/extension/web/htmlMarkdown';
import { fetchPage } from '../../src/extension/web/fetchPage';
import { pinnedFetch } from '../../src/node/pinnedFetch';
import { pdfToText } from '../../src/node/pdfText';
import type { Resolver } from '../../src/node/checkedLookup';
import { pricedUsage, replyUsage, usageBlock, usageEnvelope } from '../../src/core/answer';
import { anthropicParams } from '../../src/extension/answer/providers/anthropicWire';
import { ARTICLE, PNG, WebSite, startWebSite } from '../mocks/webSite';

describe('read_url: HTML as Markdown', () => {
  const md = htmlToMarkdown(ARTICLE, 'http://127.0.0.1:1/guide/article.html');

  it('keeps headings, lists, tables, code blocks and links (absolute)', () => {
    assert.match(md, /^# Widgets$/m);
    assert.match(md, /^## Sizes$/m);
    assert.match(md, /^\| Size +\| Weight +\|$/m);
    assert.match(md, /^\| large +\| 9 g +\|$/m);
    assert.match(md, /```python\ndef widget\(n\):\n {4}return n \* 2\n```/);
    assert.match(md, /^- +first point$/m);
    assert.ok(md.includes('[API page](http://127.0.0.1:1/docs/api.html)'), md);
    assert.ok(md.includes('[elsewhere](https://example.org/x?y=1)'));
    assert.ok(md.includes('**small**'));
  });

  it('drops scripts, styles, navigation chrome and hidden elements', () => {
    for (const gone of ['script text', 'tail script', 'color: red', 'Nav one', 'About', 'hidden text', 'invisible text', '© Widgets']) assert.ok(!md.includes(gone), `${gone} dropped`);
  });

  it('a selector reads only what it matches; a bad one is an error; a fragment is read as a page', () => {
    assert.equal(htmlToMarkdown(ARTICLE, 'http://h.example/', 'pre'), '```python\ndef widget(n):\n    return n * 2\n```');
    assert.throws(() => htmlToMarkdown(ARTICLE, 'http://h.example/', '###'), /not valid CSS/);
    assert.equal(htmlToMarkdown('<h2>Hi</h2><p>a <a href="b">c</a></p>', 'http://h.example/d/'), '## Hi\n\na [c](http://h.example/d/b)');
  });

  it('the title heads a page without an h1; <base> sets the links, a link in the page too; only the page’s own header and footer are chrome; images as data become their alt', () => {
    const page = `<html><head><title>Tea &amp; cake</title><base href="/x/"></head><body><header>Site bar</header>
<article><header><h2>Kept heading</h2></header><p><a href="b">c</a> <img src="data:image/png;base64,AAAA" alt="a dot"><img src="data:image/png;base64,BBBB"> <img src="i.png" alt="pic"> <a href="#s">to s</a></p>
<footer>Article foot</footer></article><div role="search">Search box</div><p aria-hidden="true">aria text</p><p style="visibility: hidden">unseen</p><footer>Site foot</footer></body></html>`;
    const out = htmlToMarkdown(page, 'http://h.example/d/e.html');
    assert.match(out, /^# Tea & cake\n\n## Kept heading\n/);
    assert.ok(out.includes('[c](http://h.example/x/b) [image: a dot] ![pic](http://h.example/x/i.png) [to s](http://h.example/x/#s)'), out);
    assert.ok(out.includes('Article foot'), out);
    for (const gone of ['Site bar', 'Site foot', 'Search box', 'aria text', 'unseen', 'BBBB']) assert.ok(!out.includes(gone), `${gone} dropped: ${out}`);
  });
});

describe('read_url: addresses, hosts and the cut', () => {
  it('refuses other schemes and credentials', () => {
    for (const u of ['file:///etc/passwd', 'data:text/plain,hi', 'ftp://h.example/x', 'javascript:alert(1)']) assert.equal(typeof parseWebUrl(u), 'string', u);
    assert.match(parseWebUrl('https://u:p@h.example/') as string, /credentials/);
    assert.match(parseWebUrl('not a url') as string, /not a URL/);
    assert.equal((parseWebUrl('https://H.example/a') as URL).hostname, 'h.example');
  });

  it('private addresses and names: loopback, 10/8, 172.16/12, 192.168/16, link-local, .local, IPv6, mapped', () => {
    for (const a of ['127.0.0.1', '10.2.3.4', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) assert.ok(isPrivateAddress(a), a);
    for (const a of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700::1111']) assert.ok(!isPrivateAddress(a), a);
    for (const h of ['localhost', 'app.localhost', 'printer.local', 'intranet', '127.0.0.1', '::1']) assert.ok(isPrivateHost(h), h);
    for (const h of ['example.com', 'docs.python.org', '93.184.216.34']) assert.ok(!isPrivateHost(h), h);
  });

  it('a host the dialog names, as a whole name', () => {
    const text = 'Read https://fastht.ml/docs/llms.txt and docs.python.org, also www.example.com/x';
    for (const h of ['fastht.ml', 'docs.python.org', 'example.com', 'www.example.com']) assert.ok(hostInText(h, text), h);
    for (const h of ['ht.ml', 'python.org', 'evil.example', 'fastht.ml.evil.net', 'ample.com']) assert.ok(!hostInText(h, text), h);
  });

  it('what a body holds, by its type or its bytes', () => {
    assert.equal(pageKind('text/html; charset=utf-8', new Uint8Array()), 'html');
    assert.equal(pageKind('text/markdown', new Uint8Array()), 'text');
    assert.equal(pageKind('application/json', new Uint8Array()), 'text');
    assert.equal(pageKind('application/vnd.api+json', new Uint8Array()), 'text');
    assert.equal(pageKind('image/png', PNG), 'image');
    assert.equal(pageKind('application/pdf', new Uint8Array()), 'pdf');
    assert.equal(pageKind('application/zip', new Uint8Array()), 'binary');
    assert.equal(pageKind('', new TextEncoder().encode('<!DOCTYPE html><p>x')), 'html');
    assert.equal(pageKind('application/octet-stream', new Uint8Array(8)), 'binary');
  });

  it('a long result is cut at a line, saying how much and the call that reads on', () => {
    const text = Array.from({ length: 100 }, (_, k) => `line ${k}`).join('\n');
    const cut = pageWindow(text, 0, 200, { url: 'https://h.example/p', selector: 'main' });
    const next = Number(/start=(\d+)\)/.exec(cut)![1]);
    assert.ok(cut.startsWith('line 0\n'));
    assert.match(cut, /\[… cut: [\d,]+ more characters over the 50-token result limit\. To read the rest, call read_url\(url="https:\/\/h\.example\/p", selector="main", start=\d+\)\.\]$/);
    assert.ok(text.slice(0, next).endsWith('\n') && next <= 200);
    const on = pageWindow(text, next, 200, { url: 'https://h.example/p' });
    assert.ok(on.startsWith(`[From character ${next} of ${text.length}.]\n${text.slice(next, next + 10)}`));
    assert.equal(pageWindow(text, 0, 0, { url: 'u' }), text);
    assert.match(pageWindow(text, 99999, 200, { url: 'u' }), /Nothing from character 99,999/);
  });
});

describe('read_url: a call against a local site', function () {
  this.timeout(60000);
  let site: WebSite;
  before(async () => (site = await startWebSite()));
  after(() => site.close());

  let asked: string[];
  const deps = (over: Partial<WebDeps> = {}): WebDeps => ({
    fetch: async (url, signal) => fetchPage(url, { signal, timeoutMs: 2000, maxBytes: 1_000_000, redirect: 'manual', headers: { 'user-agent': 'DialogNotebooks/test' }, allowPrivate: true, fetch: await pinnedFetch(true) }),
    resolve: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
    toMarkdown: async (html, url, selector) => htmlToMarkdown(html, url, selector),
    allowHost: async (host) => (asked.push(host), true),
    allowPrivate: true,
    maxChars: 40000,
    maxBytes: 1_000_000,
    ...over,
  });
  beforeEach(() => (asked = []));

  it('an article: Markdown, asked about its host once, the request says who it is and sends no cookie', async () => {
    const r = await readUrl({ url: `${site.url}/article.html` }, deps());
    assert.ok(r.ok, r.text);
    assert.match(r.text, /^# Widgets$/m);
    assert.deepEqual(asked, ['127.0.0.1']);
    const req = site.requests[site.requests.length - 1];
    assert.equal(req.headers['user-agent'], 'DialogNotebooks/test');
    assert.equal(req.headers.cookie, undefined);
    assert.equal(req.headers.authorization, undefined);
  });

  it('llms.txt, Markdown and JSON come back as they are', async () => {
    assert.match((await readUrl({ url: `${site.url}/llms.txt` }, deps())).text, /^# Widgets\n\n> Widgets are small parts\./);
    assert.equal((await readUrl({ url: `${site.url}/docs/start.md` }, deps())).text, '# Getting started\n\nInstall with `pip install widgets`, then call `widget(2)`.\n');
    assert.equal((await readUrl({ url: `${site.url}/data.json` }, deps())).text, '{"widgets": [1, 2]}');
  });

  it('a PDF comes back as its text, page after page; without text, broken or in the browser a clear error', async () => {
    const withPdf = deps({ pdfToText });
    const r = await readUrl({ url: `${site.url}/doc.pdf` }, withPdf);
    assert.ok(r.ok, r.text);
    assert.equal(r.text, '[A PDF of 2 pages, its text:]\nWidgets manual\nWidgets are small parts.\n\nPage two: sizes (small, large).');
    assert.match((await readUrl({ url: `${site.url}/doc.pdf`, start: 15 }, withPdf)).text, /^\[From character 15 of \d+\.\]\nWidgets are small/);
    assert.match((await readUrl({ url: `${site.url}/scan.pdf` }, withPdf)).text, /^Error: .* is a PDF of 1 page without text to read/);
    assert.match((await readUrl({ url: `${site.url}/broken.pdf` }, withPdf)).text, /^Error: .* is a PDF \(application\/pdf\) that could not be read: /);
    assert.match((await readUrl({ url: `${site.url}/doc.pdf` }, deps())).text, /^Error: .* is a PDF \(application\/pdf\), which VS Code in a browser cannot read; VS Code desktop reads/);
    const head = deps({ pdfToText, maxBytes: 512, fetch: (url, signal) => fetchPage(url, { signal, timeoutMs: 2000, maxBytes: 512, redirect: 'manual', headers: {}, allowPrivate: true }) });
    assert.match((await readUrl({ url: `${site.url}/doc.pdf` }, head)).text, /^Error: .* is a PDF larger than the 1 kB size limit \(setting dialogNotebook\.web\.maxPageBytes\)/);
  });

  it('a redirect chain is followed; a loop, a 404 and other bytes are clear errors', async () => {
    const r = await readUrl({ url: `${site.url}/redirect/3` }, deps());
    assert.ok(r.ok && /^# Widgets$/m.test(r.text), r.text);
    assert.match((await readUrl({ url: `${site.url}/loop` }, deps())).text, /^Error: too many redirects \(more than 5\)/);
    assert.match((await readUrl({ url: `${site.url}/nothing-here` }, deps())).text, /^Error: http:\/\/127\.0\.0\.1:\d+\/nothing-here answered 404 Not Found\.$/);
    assert.match((await readUrl({ url: `${site.url}/blob` }, deps())).text, /^Error: .* is binary content \(application\/octet-stream\)/);
  });

  it('an image comes back as an image', async () => {
    const r = await readUrl({ url: `${site.url}/pixel.png` }, deps());
    assert.ok(r.ok);
    assert.deepEqual(r.image, { mime: 'image/png', data: PNG.toString('base64') });
    assert.match(r.text, /An image, image\/png, \d+ bytes/);
  });

  it('a 5 MB page is read up to the size limit, then cut to the result limit', async () => {
    const r = await readUrl({ url: `${site.url}/big.html` }, deps({ maxChars: 4000 }));
    assert.ok(r.ok);
    assert.match(r.text, /^\[The page is larger than the 977 kB size limit: only its beginning was read\.\]\n# Long\n/);
    assert.match(r.text, /To read the rest, call read_url\(url="http:\/\/127\.0\.0\.1:\d+\/big\.html", start=\d+\)\.\]$/);
    assert.ok(r.text.length < 4400);
  });

  it('a slow page stops at the time limit', async () => {
    assert.match((await readUrl({ url: `${site.url}/slow` }, deps())).text, /no answer within the time limit of 2 s/);
  });

  it('private addresses are refused before any request, by literal and by resolved name, naming the setting', async () => {
    const before = site.requests.length;
    const lit = await readUrl({ url: `${site.url}/article.html` }, deps({ allowPrivate: false }));
    assert.match(lit.text, /^Error: 127\.0\.0\.1 is on this machine or the private network.*dialogNotebook\.web\.allowPrivateAddresses/);
    const named = await readUrl({ url: `http://localhost:${site.port}/article.html` }, deps({ allowPrivate: false }));
    assert.match(named.text, /localhost is on this machine/);
    // A public name that resolves to a private address is refused too.
    const resolved = await readUrl({ url: `http://widgets.example/` }, deps({ allowPrivate: false, resolve: async () => ['10.0.0.7'] }));
    assert.match(resolved.text, /^Error: widgets\.example \(10\.0\.0\.7\) is on this machine/);
    assert.equal(site.requests.length, before, 'nothing fetched');
    assert.match((await readUrl({ url: 'file:///etc/passwd' }, deps())).text, /^Error: file: URLs are not read/);
  });

  describe('DNS rebinding: the connection goes to the address checked, and a private one is refused there', () => {
    /** A name server that answers `answer` for any name (as a rebinding one would at the second lookup). */
    const answering = (answer: string): Resolver => (_host, _family, callback) => callback(null, [{ address: answer, family: 4 }]);
    const pinned = (allowPrivate: boolean, answer: string) => async (url: string, signal?: AbortSignal) =>
      fetchPage(url, { signal, timeoutMs: 2000, maxBytes: 1_000_000, redirect: 'manual', headers: {}, allowPrivate, fetch: await pinnedFetch(allowPrivate, answering(answer)) });

    it('the socket connects to what the lookup gave (a name nowhere in DNS reaches the local site)', async () => {
      const r = await readUrl({ url: `http://site.test:${site.port}/article.html` }, deps({ fetch: pinned(true, '127.0.0.1') }));
      assert.ok(r.ok && /^# Widgets$/m.test(r.text), r.text);
    });

    it('a name checked as public that resolves to 127.0.0.1 when connecting is refused, nothing fetched', async () => {
      const before = site.requests.length;
      const r = await readUrl({ url: `http://rebind.example:${site.port}/article.html` }, deps({ allowPrivate: false, resolve: async () => ['93.184.216.34'], fetch: pinned(false, '127.0.0.1') }));
      assert.match(r.text, /^Error: rebind\.example \(127\.0\.0\.1\) is on this machine or the private network.*dialogNotebook\.web\.allowPrivateAddresses/);
      assert.equal(site.requests.length, before, 'nothing fetched');
    });

    it('checked again after a redirect: the next host is refused as its connection is made', async () => {
      const before = site.requests.length;
      // The first hop is a literal address (no lookup); the redirect names a host that resolves to it.
      const r = await readUrl({ url: `${site.url}/to-rebind` }, deps({ resolve: async () => ['93.184.216.34'], fetch: pinned(false, '127.0.0.1') }));
      assert.match(r.text, /^Error: rebind\.example \(127\.0\.0\.1\) is on this machine/);
      assert.deepEqual(site.requests.slice(before).map((q) => q.path), ['/to-rebind']);
    });
  });

  it('a redirect to another host is asked about again; denied, nothing is fetched there', async () => {
    const before = site.requests.length;
    const r = await readUrl({ url: `${site.url}/to-localhost` }, deps({ allowHost: async (host) => (asked.push(host), host === '127.0.0.1') }));
    assert.deepEqual(r, { ok: false, text: 'denied by the user' });
    assert.deepEqual(asked, ['127.0.0.1', 'localhost']);
    assert.deepEqual(site.requests.slice(before).map((q) => q.path), ['/to-localhost']);
  });
});

describe('web search (Anthropic, server-side)', () => {
  it('offered as the server tool beside the function tools, and not without webSearch', () => {
    const req = { model: 'm', maxTokens: 10, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
    assert.deepEqual(anthropicParams({ ...req, webSearch: true }).tools, [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }]);
    const both = anthropicParams({ ...req, webSearch: true, tools: [{ name: 'read_url', description: 'd', parameters: { type: 'object' } }] }).tools!;
    assert.deepEqual(both.map((t) => (t as { name: string }).name), ['read_url', 'web_search']);
    assert.equal(anthropicParams(req).tools, undefined);
  });

  it('the usage counts the searches, priced at $10 per 1,000 beside the tokens, in both usage forms', () => {
    const u = { prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000, web_search_requests: 2 };
    const priced = pricedUsage(u, 'anthropic:claude-sonnet-4-5');
    assert.ok(Math.abs(priced.cost! - (0.003 + 0.015 + 0.02)) < 1e-9, String(priced.cost));
    assert.equal(usageBlock(priced), '```json {.usage}\n{"prompt_tokens": 1000, "completion_tokens": 1000, "total_tokens": 2000, "web_search_requests": 2, "cost": 0.038}\n```');
    assert.equal(replyUsage(usageBlock(priced))?.web_search_requests, 2);
    assert.equal(replyUsage(usageEnvelope(priced, 'claude-sonnet-4-5'))?.web_search_requests, 2);
  });
});
