// Replies render inert in a TRUSTED workspace (vscode-e2e.sh `run` turns workspace trust off, which
// trusts every folder): a dialog whose replies hold every payload of fixtures/xss-vectors.json (issue 14
// §1's, markdown-level ones, OWASP's XSS Filter Evasion Cheat Sheet, no-interaction vectors and old
// DOMPurify bypasses), one reply each, as an HTML block and inline. Each payload's action is alert /
// confirm / prompt, which an init script in every frame records (the webview's sandbox would silently
// drop a real alert). The test scrolls through the dialog until every reply has rendered in the output
// webview, then fails if any payload ran, if any rendered reply holds an element or attribute outside
// the allow-list, or a URL with another scheme; and checks that benign markdown still renders (heading,
// table, tool fold, code, attachment image). Saves reply-xss-benign.png.
import fs from 'node:fs';
import path from 'node:path';
import { openNewFileAsDialog } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const VECTORS = JSON.parse(fs.readFileSync(new URL('./fixtures/xss-vectors.json', import.meta.url), 'utf8'));
const GROUPS = ['issue14', 'markdown', 'owasp', 'autorun'];
const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mOw6b1JEmIY1TCqYfhqAACbgaIQpkrD8gAAAABJRU5ErkJggg==';
const BENIGN = [
  'Benign reply',
  '',
  '# Benign heading',
  '',
  '| name | value |',
  '| --- | ---: |',
  '| cell a | cell b |',
  '',
  "<details class='tool-usage-details'>",
  '<summary>tool fold</summary>',
  '',
  '```json',
  '{"result": "ok"}',
  '```',
  '',
  '</details>',
  '',
  '```python',
  'print("<script>shown as code</script>")',
  '```',
  '',
  '![dot](attachment:dot.png) and a [link](https://example.com/docs).',
].join('\n');

// The oracle, written apart from src/renderer/policy.ts on purpose: what a shown reply may contain.
const TAGS = new Set('a abbr b blockquote br caption cite code col colgroup dd del details dfn div dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp small span strike strong sub summary sup table tbody td tfoot th thead tr tt u ul var wbr'.split(' '));
const ATTRS = new Set('href src alt title width height align colspan rowspan start open class style'.split(' '));

function vectors() {
  return GROUPS.flatMap((g) => VECTORS[g].map((v, i) => ({ label: `${g}-${i + 1}`, v })));
}

function dialog(list) {
  const prompt = (id, n, reply, extra = {}) => ({ cell_type: 'markdown', id, metadata: { solveit_ai: true }, source: `vector ${n}\n\n${SEP}\n\n${reply}`, ...extra });
  return {
    cells: [
      { cell_type: 'markdown', id: 'n0000000', metadata: {}, source: '# Reply payloads' },
      prompt('b0000000', 0, BENIGN, { attachments: { 'dot.png': { 'image/png': PNG } } }),
      ...list.map(({ label, v }, k) => prompt(`x${String(k + 1).padStart(7, '0')}`, k + 1, `${label}\n\n${v}\n\nInline: ${v}\n`)),
    ],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/** Runs in every frame before its scripts: records any alert / confirm / prompt / print. */
function hookSinks() {
  const ran = (how, arg) => {
    (window.__xssRan ||= []).push(`${how}(${String(arg)})`);
    console.log(`XSS-RAN ${how}(${String(arg)}) in ${location.href}`);
  };
  for (const f of ['alert', 'confirm', 'prompt', 'print']) {
    try {
      Object.defineProperty(window, f, { value: (a) => ran(f, a), configurable: false, writable: false });
    } catch {
      // a frame that cannot be hooked is reported by `hooked` below
    }
  }
  window.__xssHooked = true;
}

/** Runs in the output webview: every rendered reply (in its shadow root), audited against the oracle. */
function audit({ tags, attrs }) {
  const replies = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (!el.shadowRoot) continue;
      const r = el.shadowRoot.querySelector('.dialog-reply');
      if (r) replies.push(r);
      walk(el.shadowRoot);
    }
  };
  walk(document);
  const scheme = (u) => (/^([^/?#]*?):/.exec(u.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, ''))?.[1] ?? '').toLowerCase();
  const problems = [];
  for (const r of replies) {
    const label = r.firstElementChild?.textContent ?? '?';
    for (const el of r.querySelectorAll('*')) {
      const tag = el.localName;
      if (!tags.includes(tag) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') problems.push(`${label}: <${tag}>`);
      for (const a of el.attributes) {
        const v = a.value;
        if (!attrs.includes(a.name)) problems.push(`${label}: <${tag} ${a.name}=${v.slice(0, 60)}>`);
        else if (a.name === 'href' && !['', 'http', 'https', 'mailto'].includes(scheme(v))) problems.push(`${label}: href=${v.slice(0, 60)}`);
        else if (a.name === 'src' && !(['', 'http', 'https'].includes(scheme(v)) || /^data:image\/[a-z0-9.+-]+[;,]/i.test(v))) problems.push(`${label}: src=${v.slice(0, 60)}`);
        else if (a.name === 'style' && !/^text-align: (left|right|center)$/.test(v)) problems.push(`${label}: style=${v.slice(0, 60)}`);
      }
    }
  }
  const images = replies.flatMap((r) => [...r.querySelectorAll('img')]);
  return {
    labels: replies.map((r) => r.firstElementChild?.textContent ?? ''),
    problems,
    pending: images.filter((i) => !i.complete).length,
    hooked: window.__xssHooked === true,
    ran: window.__xssRan ?? [],
  };
}

/** The frame holding the rendered replies (the output webview's inner document), or null. */
async function outputFrame(page) {
  for (const f of page.frames()) {
    if (f !== page.mainFrame() && (await f.locator('.dialog-reply').count().catch(() => 0))) return f;
  }
  return null;
}

export const tests = {
  async 'no reply payload runs or survives sanitising in a trusted workspace; benign markdown renders'({ page, vsc, workspace, screenshot, assert, log }) {
    const list = vectors();
    const counts = GROUPS.map((g) => `${g} ${VECTORS[g].length}`).join(', ');
    log(`${list.length} payloads (${counts})`);
    const ran = [];
    page.on('dialog', (d) => {
      ran.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (m.text().startsWith('XSS-RAN')) ran.push(m.text());
    });
    await page.context().addInitScript(hookSinks);

    // The dialog opens straight in our editor (Explorer > Open With... > Dialog): VS Code's own Jupyter
    // editor renders markdown cells unsanitised in a trusted workspace, and these replies must not reach it.
    fs.writeFileSync(path.join(workspace, 'reply-xss.ipynb'), JSON.stringify(dialog(list), null, 1));
    await openNewFileAsDialog(page, vsc, 'reply-xss.ipynb');

    // Scroll through the dialog with the wheel over the cells' gutter until every reply has rendered.
    const want = list.length + 1;
    const box = await page.locator('.notebookOverlay:visible .monaco-list').first().boundingBox();
    await page.mouse.move(box.x + 12, box.y + box.height / 2);
    let frame = null;
    let seen = 0;
    for (let still = 0; seen < want; ) {
      await page.mouse.wheel(0, Math.round(box.height / 2));
      const before = seen;
      const end = Date.now() + 2000; // how long a newly shown reply may take to render before we scroll on
      while (Date.now() < end && seen === before) {
        frame ??= await outputFrame(page);
        seen = frame ? await frame.locator('.dialog-reply').count() : 0;
        if (seen === before) await page.waitForTimeout(100);
      }
      still = seen === before ? still + 1 : 0;
      if (still >= 15) break; // at the end of the dialog, or stuck: the assertion below says which
    }
    // Settle: replies still rendering finish, and every image loads or fails (firing any onerror).
    let a;
    for (const end = Date.now() + 60000; ; await page.waitForTimeout(200)) {
      a = await frame.evaluate(audit, { tags: [...TAGS], attrs: [...ATTRS] });
      if ((a.pending === 0 && a.labels.length === want) || Date.now() > end) break;
    }
    const missing = ['Benign reply', ...list.map((x) => x.label)].filter((l) => !a.labels.includes(l));
    log(`${a.labels.length} of ${want} replies rendered; ${a.problems.length} problems; ran: ${ran.length + a.ran.length}`);
    assert.ok(a.hooked, 'the output webview had the alert hooks before its scripts ran');
    assert.deepEqual(missing, [], 'every reply rendered');
    assert.equal(a.labels.length, want);
    assert.deepEqual(a.problems, [], 'nothing outside the allow-list survives');
    assert.deepEqual([...ran, ...a.ran], [], 'no payload ran');

    // Benign markdown still renders, styled, with its attachment image loaded.
    const benign = frame.locator('.dialog-reply', { hasText: 'Benign reply' });
    await benign.locator('h1', { hasText: 'Benign heading' }).waitFor();
    await benign.locator('td', { hasText: 'cell b' }).waitFor();
    assert.equal(await benign.locator('td', { hasText: 'cell b' }).getAttribute('style'), 'text-align: right', 'table alignment kept');
    await benign.locator('details.tool-usage-details > summary', { hasText: 'tool fold' }).waitFor();
    assert.ok((await benign.locator('pre > code').allTextContents()).some((t) => t.includes('<script>shown as code</script>')), 'code shows HTML as text');
    const img = benign.locator('img[alt=dot]');
    assert.match((await img.getAttribute('src')) ?? '', /^data:image\/png;base64,/, 'attachment: resolved to a data URL');
    assert.equal(await img.evaluate((i) => i.naturalWidth), 16, 'the attachment image loaded');
    assert.equal(await benign.locator('a', { hasText: 'link' }).getAttribute('href'), 'https://example.com/docs');
    const heading = benign.locator('h1');
    await until(page, async () => {
      const h = await heading.boundingBox();
      if (h && h.y > box.y && h.y + h.height < box.y + box.height) return true;
      await page.mouse.wheel(0, -Math.round(box.height / 2));
      return false;
    }, Boolean, 'the benign reply scrolled into view');
    await screenshot('reply-xss-benign');
  },
};
