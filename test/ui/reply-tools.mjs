// Tool calls as a person reads and edits them (issue 12, items 10–12): in the reply renderer a call
// whose summary holds `<http://…>` stays one closed fold showing its name, arguments and result as
// text (the result with real line breaks); in the Dialog panel's Reply tab the name `sparql_query`
// shows whole (no clipped underscore), and editing one result changes that field only: the envelope's
// tag, its other fields, its summary form and the blank lines around it stay. Saves reply-tools.png.
import fs from 'node:fs';
import path from 'node:path';
import { appFrame, openNewFileAsDialog, painted } from './lib/panelPage.mjs';
import { savedSource, until } from './lib/poll.mjs';

const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
const FILE = 'reply-tools.ipynb';

/** A Solveit envelope (no `markdown='1'`, no `server` field), its summary unescaped as Solveit writes it. */
function envelope(id, name, args, result) {
  const body = JSON.stringify({ id, call: { function: name, arguments: args }, result }, null, 2);
  const summary = `${name}(${Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')})→${JSON.stringify(result.slice(0, 40))}`;
  return `<details class='tool-usage-details'>\n<summary>${summary}</summary>\n\n\`\`\`json\n${body}\n\`\`\`\n\n</details>`;
}

const FIRST = envelope('toolu_01', 'sparql_query', { query: 'SELECT ?s\nWHERE { ?s ?p ?o }' }, 'see <http://example.com/a>\nrow 1\nrow 2');
const SECOND = envelope('toolu_02', 'read_url', { url: 'https://example.com/b' }, 'page b');
const REPLY = `Querying.\n\n\n\n${FIRST}\n\n\n\n${SECOND}\n\n\n\nDone querying.`;

function dialog() {
  return {
    cells: [
      { cell_type: 'markdown', id: 'n0000001', metadata: {}, source: '# Tools' },
      { cell_type: 'markdown', id: 'p0000001', metadata: { solveit_ai: true }, source: `Run the query.\n\n${SEP}\n\n${REPLY}` },
    ],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

async function replyFrame(page) {
  for (const end = Date.now() + 60000; Date.now() < end; await page.waitForTimeout(200)) {
    for (const f of page.frames()) {
      if (f !== page.mainFrame() && (await f.locator('.dialog-reply').count().catch(() => 0))) return f;
    }
  }
  throw new Error('the reply did not render');
}

/** Runs in the panel: whether the glyphs of an input's value fit inside its content box (an underscore's stroke included). */
function glyphsFit(el) {
  const cs = getComputedStyle(el);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
  const m = ctx.measureText(el.value);
  const lineH = cs.lineHeight === 'normal' ? m.fontBoundingBoxAscent + m.fontBoundingBoxDescent : parseFloat(cs.lineHeight);
  const content = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
  // The line box is centred in the content box; the baseline sits the font's ascent below the line's half-leading.
  const top = (content - lineH) / 2 + (lineH - m.fontBoundingBoxAscent - m.fontBoundingBoxDescent) / 2;
  const bottom = top + m.fontBoundingBoxAscent + m.actualBoundingBoxDescent;
  return { fits: bottom <= content + 0.5, bottom, content, font: ctx.font };
}

export const tests = {
  async 'a tool call renders as one closed fold of text, its result with real line breaks'({ page, vsc, workspace, screenshot, assert }) {
    fs.writeFileSync(path.join(workspace, FILE), JSON.stringify(dialog(), null, 1));
    await openNewFileAsDialog(page, vsc, FILE);
    const frame = await replyFrame(page);
    const reply = frame.locator('.dialog-reply', { hasText: 'Querying.' });
    await reply.locator('text=Done querying.').waitFor({ timeout: 60000 });
    const folds = reply.locator('details');
    assert.equal(await folds.count(), 2, 'two folds, one per call');
    const first = folds.first();
    assert.equal(await first.getAttribute('open'), null, 'the fold is closed');
    const summary = await first.locator('summary').innerText();
    assert.match(summary, /^sparql_query\(query=/, 'the summary names the call');
    assert.ok(summary.includes('<http://example.com/a>'), `the URL shows as text in the summary: ${summary}`);
    assert.ok(!(await reply.innerText()).includes('"call"'), 'no JSON shows outside the folds');
    await first.locator('summary').click();
    const result = first.locator('pre').last();
    await result.waitFor({ state: 'visible', timeout: 30000 });
    assert.equal(await result.innerText(), 'see <http://example.com/a>\nrow 1\nrow 2', 'the result with its real line breaks');
    assert.ok((await first.innerText()).includes('SELECT ?s\nWHERE { ?s ?p ?o }'), 'the argument with its real line breaks');
    await screenshot('reply-tools');
  },

  async 'the Reply tab shows sparql_query whole, and editing one result changes only that field'({ page, vsc, workspace, assert }) {
    await vsc.runCommand('Dialog: Show Dialog Panel');
    // Select the prompt by a click in its gutter (keys typed while the output webview has focus would go astray).
    await page.locator('.notebookOverlay:visible .monaco-list-row', { hasText: 'Run the query.' }).first().click({ position: { x: 8, y: 8 } });
    await page.keyboard.press('Escape');
    const app = await appFrame(page);
    await app.locator('button[data-tab=reply]').click();
    const name = app.locator('.card.call input.name').first();
    await name.waitFor({ timeout: 60000 });
    assert.equal(await name.inputValue(), 'sparql_query');
    await painted(app);
    const fit = await name.evaluate(glyphsFit);
    assert.ok(fit.fits, `the underscore fits in the name field: ${JSON.stringify(fit)}`);

    const result = app.locator('.card.call').first().locator('textarea').last();
    await result.fill('see <http://example.com/z>\nrow 1\nrow 2');
    await app.locator('button', { hasText: 'Apply' }).click();
    await vsc.runCommand('View: Focus First Editor Group');
    await vsc.runCommand('File: Save');
    const want = REPLY.replaceAll('example.com/a>', 'example.com/z>');
    const file = path.join(workspace, FILE);
    const source = await until(page, () => savedSource(file, 1), (s) => s.includes('example.com/z'), 'the edited result saved');
    assert.equal(source, `Run the query.\n\n${SEP}\n\n${want}`, 'only the edited result and its summary changed');
  },
};
