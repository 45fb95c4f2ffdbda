// Dialog content is untrusted (vscode-e2e.sh `run`): a dialog holding a `<script>`, an
// `<img src=x onerror=…>`, a `javascript:` link, an `<iframe>` and remote image URLs must show in every
// tab of the Dialog panel as text: no element from it can run or load anything, no script ran (no
// alert, no global set), and the panel fetched nothing remote. Saves panel-untrusted-<tab>.png.
import fs from 'node:fs';
import path from 'node:path';
import { appFrame, goto, openNewFile } from './lib/panelPage.mjs';

const REMOTE = 'example.invalid';
const SCRIPT = `<script>window.__pwned = 'script'; alert('script')</script>`;
const IMG = `<img src=x onerror="window.__pwned = 'img'; alert('img')">`;
const LINK = `[click me](javascript:alert('link'))`;
const HTML_LINK = `<a href="javascript:alert('a')">a link</a>`;
const IFRAME = `<iframe src="https://${REMOTE}/frame"></iframe>`;
const REMOTE_IMG = `![remote](https://${REMOTE}/pixel.png)`;
const AI_IMG = `![for the model](https://${REMOTE}/ai.png#ai)`;
const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';

function dialog() {
  const md = (id, source, metadata = {}) => ({ cell_type: 'markdown', id, metadata, source });
  const reply = [`Here: ${HTML_LINK} ${IFRAME}`, '', '```json {.tool}', JSON.stringify({ id: 'toolu_x1', name: 'python', args: { code: SCRIPT }, result: IMG }), '```'].join('\n');
  return {
    cells: [
      md('u0000001', `# Section ${SCRIPT}`),
      md('u0000002', `${SCRIPT} ${IMG} ${LINK} ${REMOTE_IMG} ${AI_IMG}\n\n${SEP}\n\n${reply}`, { solveit_ai: true }),
      {
        cell_type: 'code',
        id: 'u0000003',
        metadata: {},
        execution_count: 1,
        source: `print("${IMG.replace(/"/g, '\\"')}")`,
        outputs: [{ output_type: 'stream', name: 'stdout', text: `${IMG}\n${SCRIPT}\n` }],
      },
      md('u0000004', `Last ${LINK} ${IMG}`, { solveit_ai: true }),
    ],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/** Runs in the panel: what in #app could run or load something, and whether any payload ran. */
function audit() {
  const app = document.getElementById('app');
  const risky = [...app.querySelectorAll('script, img, iframe, frame, object, embed, video, audio, source, link, style, a, svg, math, form, base, meta')].map((e) => e.outerHTML.slice(0, 80));
  const attrs = [];
  for (const el of app.querySelectorAll('*')) {
    for (const a of el.attributes) {
      if (/^on/i.test(a.name) || /^(href|src|srcset|action|formaction|xlink:href)$/i.test(a.name)) attrs.push(`${el.tagName} ${a.name}=${a.value.slice(0, 40)}`);
      if (a.name === 'style' && /url\(/i.test(a.value)) attrs.push(`${el.tagName} style=${a.value.slice(0, 40)}`);
    }
  }
  return {
    risky,
    attrs,
    pwned: window.__pwned ?? null,
    remote: performance.getEntriesByType('resource').map((r) => r.name).filter((n) => !n.startsWith(location.origin) && !/^(vscode-|data:|blob:)/.test(n) && !n.includes('vscode-cdn') && !n.includes('vscode-resource')),
    text: app.innerText + [...app.querySelectorAll('textarea, input')].map((e) => e.value).join('\n'),
  };
}

export const tests = {
  async 'dialog markup shows as text in every tab; nothing runs and nothing loads'({ page, vsc, workspace, screenshot, assert, log }) {
    const dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const requests = [];
    page.context().on('request', (r) => {
      if (r.url().includes(REMOTE)) requests.push({ url: r.url(), frame: r.frame()?.url() ?? '', parent: r.frame()?.parentFrame()?.url() ?? '' });
    });
    fs.writeFileSync(path.join(workspace, 'untrusted.ipynb'), JSON.stringify(dialog(), null, 1));
    await openNewFile(page, vsc, 'untrusted.ipynb');
    await vsc.waitForNotebook({ timeout: 60000 });
    await vsc.runCommand('Dialog: Open as Dialog');
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first().waitFor({ timeout: 60000 });
    await goto(page, vsc, 'Last');
    await vsc.runCommand('Dialog: Show Dialog Panel');
    const frame = await appFrame(page);
    const panelFrames = () => [frame, frame.parentFrame()].filter(Boolean);

    const views = [
      ['sections', null, [`Section ${SCRIPT}`]],
      // The history is the request for the prompt under the cursor (issue 9): its own old reply is not sent.
      ['history', 'dlg2hist', [SCRIPT, IMG, LINK, `https://${REMOTE}/ai.png`]],
      ['history', 'What is sent', [SCRIPT, IMG]],
      ['reply', null, [HTML_LINK, IFRAME, SCRIPT, IMG]],
    ];
    for (const [tab, mode, shown] of views) {
      if (tab === 'reply') await goto(page, vsc, 'Here:'); // the prompt whose reply holds the call
      await frame.locator(`button[data-tab=${tab}]`).click();
      if (mode) await frame.locator('button', { hasText: mode }).click();
      if (tab === 'reply') await frame.locator('.card.call').first().waitFor({ timeout: 60000 });
      else if (tab === 'history') await frame.locator('.turn').first().waitFor({ timeout: 60000 });
      await page.waitForTimeout(500); // not a wait for a state: the time a payload gets to run or fetch, which the audit says none did
      const a = await frame.evaluate(audit);
      const where = `${tab}${mode ? `/${mode}` : ''}`;
      log(`${where}: ${a.risky.length} risky elements, ${a.attrs.length} risky attributes, pwned=${a.pwned}, remote=${a.remote.length}`);
      assert.deepEqual(a.risky, [], `${where}: no element from the dialog can run or load`);
      assert.deepEqual(a.attrs, [], `${where}: no handler, link or source attribute`);
      assert.equal(a.pwned, null, `${where}: no payload ran`);
      assert.deepEqual(a.remote, [], `${where}: nothing remote was fetched`);
      for (const s of shown) assert.ok(a.text.includes(s), `${where}: shows ${s} as text`);
      await screenshot(`panel-untrusted-${tab}${mode ? `-${mode}` : ''}`);
    }
    // The panel's page holds only VS Code's acquireVsCodeApi prelude and the panel's own bundle.
    const scripts = await frame.evaluate(() => [...document.scripts].map((s) => s.src || s.textContent.trim().slice(0, 40)));
    assert.equal(scripts.length, 2, JSON.stringify(scripts));
    assert.ok(scripts.some((s) => s.endsWith('/dist/webview.js')) && scripts.some((s) => s.startsWith('globalThis.acquireVsCodeApi')), JSON.stringify(scripts));
    assert.deepEqual(dialogs, [], 'no alert() ran anywhere');
    const panelUrls = panelFrames().map((f) => f.url());
    const fromPanel = requests.filter((r) => panelUrls.includes(r.frame) || panelUrls.includes(r.parent));
    assert.deepEqual(fromPanel, [], 'the panel requested nothing remote');
    // The notebook's own webview (Jupyter's editor shows the file before Open as Dialog) is not the panel:
    // report what it fetched. Replies in the dialog editor are test/ui/reply-xss.mjs's subject.
    if (requests.length) log(`remote requests outside the panel: ${JSON.stringify(requests)}`);
  },
};
