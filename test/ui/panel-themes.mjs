// The Dialog panel in the light, dark and both high-contrast themes (vscode-e2e.sh `run`): each tab is
// photographed (panel-theme-<theme>-<tab>.png), the codicon font must load (icons, not empty boxes),
// and every visible text and icon must stand out from what is behind it (WCAG contrast ratio, opacity
// and translucent backgrounds included). The theme is switched through the workspace settings.
import fs from 'node:fs';
import path from 'node:path';
import { appFrame, goto, openNewFile, painted } from './lib/panelPage.mjs';

const THEMES = [
  ['light', 'Default Light Modern', 'vscode-light'],
  ['dark', 'Default Dark Modern', 'vscode-dark'],
  ['hc-dark', 'Default High Contrast', 'vscode-high-contrast'],
  ['hc-light', 'Default High Contrast Light', 'vscode-high-contrast-light'],
];
// 4.5 is WCAG AA for body text; secondary text (descriptionForeground) and icons are held to 3, the
// AA level for large text and user-interface components, which VS Code's own themes meet.
const MIN_TEXT = 4.5;
const MIN_SECONDARY = 3;
const SECONDARY = '.tab:not(.on), .meta, .empty, .flag, .tag, .codicon, .part.kind-skipped pre, .row.is-skipped .label';
const CHECKED = '.title, .tab, .row .label, .meta, .flag, .glyph .codicon, .empty, .turn-head, .part pre, .tag, .media-info, button, .card label, textarea, input, .badge, .status';

const asJson = (o) => JSON.stringify(o, null, 1);

/** A dialog with every kind of row, flag and history part the panel draws. */
function showcase(workspace) {
  const tools = JSON.parse(fs.readFileSync(path.join(workspace, 'tools.ipynb'), 'utf8'));
  const withTools = tools.cells.find((c) => c.id === 't0000001');
  const md = (id, source, metadata = {}) => ({ cell_type: 'markdown', id, metadata, source });
  const code = (id, source, metadata = {}) => ({ cell_type: 'code', id, metadata, execution_count: null, outputs: [], source });
  const px = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  return {
    cells: [
      md('th000001', '# Analysis'),
      md('th000002', `Look at this ![sq](data:image/png;base64,${px}#ai)\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\nA red pixel.`, { solveit_ai: true, pinned: true }),
      code('th000003', 'secret = 42', { skipped: true }),
      md('th000004', '## Tools'),
      withTools,
      md('th000005', '### Follow-up'),
      // Naming &`python` offers that tool, so the history's calls of it are sent (and shown) as tool turns.
      md('th000006', 'Summarise what we found. Use &`python`.', { solveit_ai: true }),
    ],
    metadata: tools.metadata,
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/** Runs in the panel: the lowest contrast ratio per checked selector, with the element that has it. */
function contrastReport({ checked, secondary, minText, minSecondary }) {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const blend = (top, bottom) => ({ r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1 });
  const lum = ({ r, g, b }) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) layers.push(c);
      if (c && c.a >= 1) break;
    }
    return layers.reverse().reduce((bg, c) => blend(c, bg), { r: 255, g: 255, b: 255, a: 1 });
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const worst = {};
  for (const el of document.querySelectorAll(checked)) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
    const bg = background(el);
    const c = parse(getComputedStyle(el).color);
    const fg = blend({ ...c, a: c.a * opacity(el) }, bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const need = el.matches(secondary) ? minSecondary : minText;
    const key = checked.split(', ').find((s) => el.matches(s)) ?? el.tagName;
    if (!worst[key] || ratio / need < worst[key].ratio / worst[key].need) {
      worst[key] = { ratio: Math.round(ratio * 100) / 100, need, text: (el.textContent || el.className).trim().slice(0, 40), color: getComputedStyle(el).color, background: `rgb(${[bg.r, bg.g, bg.b].map(Math.round)})` };
    }
  }
  return worst;
}

/** The checked elements below their contrast minimum (logged with the lowest ratio of each kind). */
async function lowContrast(frame, log, theme, tab) {
  const worst = await frame.evaluate(contrastReport, { checked: CHECKED, secondary: SECONDARY, minText: MIN_TEXT, minSecondary: MIN_SECONDARY });
  log(`${theme}/${tab}: ${Object.entries(worst).map(([k, w]) => `${k} ${w.ratio}${w.ratio < w.need ? ` (below ${w.need}: "${w.text}" ${w.color} on ${w.background})` : ''}`).join(', ')}`);
  return Object.entries(worst).filter(([, w]) => w.ratio < w.need).map(([k, w]) => ({ theme, tab, selector: k, ...w }));
}

async function setTheme(page, workspace, theme, bodyClass) {
  const dir = path.join(workspace, '.vscode');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), asJson({ 'workbench.colorTheme': theme }));
  const end = Date.now() + 60000;
  for (;;) {
    const f = await appFrame(page).catch(() => null);
    const cls = f ? await f.evaluate(() => document.body.className).catch(() => '') : '';
    if (cls.split(/\s+/).includes(bodyClass)) return f;
    if (Date.now() > end) throw new Error(`the panel did not switch to ${theme} (body: ${cls})`);
    await page.waitForTimeout(250);
  }
}

export const tests = {
  async 'the panel is readable in light, dark and high-contrast themes, with codicons'({ page, vsc, workspace, screenshot, assert, log }) {
    fs.writeFileSync(path.join(workspace, 'showcase.ipynb'), asJson(showcase(workspace)));
    await openNewFile(page, vsc, 'showcase.ipynb');
    await vsc.waitForNotebook({ timeout: 60000 });
    await vsc.runCommand('Dialog: Open as Dialog');
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first().waitFor({ timeout: 60000 });
    // The last prompt's history holds media, a skipped message, tool calls and results.
    await goto(page, vsc, 'Summarise what we found.');
    await vsc.runCommand('Dialog: Show Dialog Panel');
    let frame = await appFrame(page);
    // the codicon font is served by the extension and allowed by the CSP
    await frame.waitForFunction(() => document.fonts.check('14px codicon') && [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'codicon' && f.status === 'loaded'), null, { timeout: 60000 });
    const glyph = await frame.evaluate(() => getComputedStyle(document.querySelector('.tab .codicon'), '::before').content);
    assert.notEqual(glyph, 'none', 'the tab icons have glyphs');
    for (const sel of ['.tab .codicon-list-tree', '.row .codicon-sparkle', '.row .codicon-code', '.flag.pinned .codicon-pinned', '.flag.skipped .codicon-eye-closed']) {
      assert.ok(await frame.locator(sel).count(), `an icon: ${sel}`);
    }
    const problems = [];
    for (const [name, theme, bodyClass] of THEMES) {
      frame = await setTheme(page, workspace, theme, bodyClass);
      for (const tab of ['sections', 'history', 'reply']) {
        await frame.locator(`button[data-tab=${tab}]`).click();
        if (tab === 'history') {
          await frame.locator('button', { hasText: 'What is sent' }).click();
          await frame.locator('.part.kind-tool_use').first().waitFor({ timeout: 60000 });
        }
        if (tab === 'reply') {
          // the reply of the prompt with tool calls
          await goto(page, vsc, 'Compute some things step by step.');
          await frame.locator('.card.call').first().waitFor({ timeout: 60000 });
        }
        await painted(frame);
        problems.push(...(await lowContrast(frame, log, name, tab)));
        await screenshot(`panel-theme-${name}-${tab}`);
        if (tab === 'reply') await goto(page, vsc, 'Summarise what we found.');
      }
    }
    assert.deepEqual(problems, [], 'text below its contrast minimum');
  },
};
