// Issue 47.1 and 46 §2 (Source Control, Timeline), as a person sees it: a dialog in a git repository, one
// word of one reply changed and saved (`git diff --stat`: one line). Clicking the file in Source Control
// opens VS Code's notebook diff with the dialog editor (it is the editor for dialogs here): prompts show
// as prompts, replies as replies (both versions drawn by our reply renderer), and the one change is
// "Outputs changed" on that prompt, with no "Metadata changed" anywhere (our storage bookkeeping is
// transient; before, the notebook and every cell showed "Metadata changed"). Switched to text, the
// reply's change is a line of text. The Timeline's "Uncommitted Changes" opens the same diff.
// Issue 55.1: words changed at the end of a long note (one line) are cut off at the right edge of VS Code's
// notebook diff, which draws cells unwrapped with no way to change it; its title bar's Open Changes as Text
// shows the same change as wrapped text, the changed words in view without scrolling sideways.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { explorerRow } from './lib/panelPage.mjs';
import { until } from './lib/poll.mjs';

const FILE = 'basic.ipynb';
const LONG = 'long-note.ipynb'; // in fixtures/: a note of one long line
const CHANGED = 'said what changed today, QUETZAL.';
const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', ...args], { cwd, encoding: 'utf8' });

/** The visible notebook diff editor. */
const diff = (page) => page.locator('.notebook-text-diff-editor:visible').first();
/** What the diff says changed, in order ("Outputs changed", "Metadata changed", …). */
const changeHeaders = (page) =>
  page.evaluate(() => [...document.querySelectorAll('.notebook-text-diff-editor .monaco-list-row')].map((r) => r.textContent ?? '').join('\n'));

/** Which of the two replies a webview of the page shows, as our reply renderer draws them (in a shadow root). */
const renderedReplies = async (page) => {
  const out = [];
  for (const f of page.frames()) {
    for (const word of ['It is', 'It was']) if (await f.locator(`text=/${word} 42/`).count().catch(() => 0)) out.push(word);
  }
  return out;
};

/** Waits until the notebook diff shows its cells, then checks what it says changed. */
async function checkDiff(page, assert, log) {
  await diff(page).waitFor({ timeout: 90000 });
  const text = await until(page, () => changeHeaders(page), (t) => t.includes('Outputs changed'), 'the diff listing "Outputs changed"', 90000);
  log(`diff rows: ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
  assert.doesNotMatch(text, /Metadata changed/i, 'no metadata change shown');
  assert.equal(text.split('Outputs changed').length - 1, 1, 'one output change');
  // Prompts as prompts: the changed cell's input is the prompt alone, its reply is its output (Jupyter's
  // editor would show the reply and Solveit's separator in the cell's text).
  const row = page.locator('.notebook-text-diff-editor .monaco-list-row', { hasText: 'Outputs changed' }).first();
  await row.getByText('Input', { exact: true }).click();
  await row.locator('.view-line', { hasText: 'What is x*2?' }).first().waitFor({ timeout: 30000 });
  assert.equal(await row.locator('.view-line', { hasText: 'SOLVEIT_SEPARATOR' }).count(), 0, 'no reply separator in the prompt');
}

export const tests = {
  async 'a reply changed by one word: Source Control opens a dialog diff showing that output change only'({ page, vsc, url, workspace, assert, log, screenshot }) {
    git(workspace, 'init', '-q');
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-q', '-m', 'dialog');
    const file = path.join(workspace, FILE);
    const before = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, before.replace('It is **42**', 'It was **42**'));
    assert.match(git(workspace, 'diff', '--stat'), /1 file changed, 1 insertion\(\+\), 1 deletion\(-\)/);
    // The window again, so that VS Code's git finds the repository made after it started.
    await page.goto(url);
    await vsc.ready();
    await vsc.runCommand('Source Control: Focus on Changes View');
    const row = page.locator('.scm-view .monaco-list-row', { hasText: FILE }).first();
    await row.waitFor({ timeout: 90000 });
    await row.click();
    await checkDiff(page, assert, log);
    // Replies as replies: both versions rendered by our reply renderer, side by side.
    await until(page, () => renderedReplies(page), (t) => t.includes('It is') && t.includes('It was'), 'both replies rendered in the diff', 90000);
    await screenshot('scm-diff-rendered');
  },

  async "switched to text, the reply's change is a line of text"({ page, screenshot }) {
    const row = page.locator('.notebook-text-diff-editor .monaco-list-row', { hasText: 'Outputs changed' }).first();
    await row.locator('.action-item a[aria-label="Switch Output Rendering"]').first().click();
    await page.locator('.notebook-text-diff-editor .view-line', { hasText: 'It was **42**.' }).first().waitFor({ timeout: 60000 });
    // the old line beside it (each side's editor renders on its own)
    await page.locator('.notebook-text-diff-editor .view-line', { hasText: 'It is **42**.' }).first().waitFor({ timeout: 60000 });
    await screenshot('scm-diff-text');
  },

  async "the Timeline's Uncommitted Changes opens the same diff"({ page, vsc, assert, log }) {
    await vsc.runCommand('View: Close All Editors');
    await vsc.runCommand('View: Show Explorer');
    await explorerRow(page, FILE).click();
    await vsc.runCommand('Explorer: Focus on Timeline View');
    const entry = page.locator('.timeline-tree-view .monaco-list-row', { hasText: 'Uncommitted Changes' }).first();
    await entry.waitFor({ timeout: 90000 });
    await entry.click();
    await checkDiff(page, assert, log);
  },
};

/** Whether the text `word` shows inside the visible box of the editor around it (not clipped off its right edge). */
const wordInView = (page, editorSel, word) =>
  page.evaluate(([sel, w]) => {
    for (const ed of document.querySelectorAll(sel)) {
      const box = ed.getBoundingClientRect();
      const walker = document.createTreeWalker(ed, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.textContent.indexOf(w);
        if (at < 0) continue;
        const r = document.createRange();
        r.setStart(n, at);
        r.setEnd(n, at + w.length);
        const rect = r.getBoundingClientRect();
        if (rect.width && rect.left >= box.left && rect.right <= box.right) return true;
      }
    }
    return false;
  }, [editorSel, word]);

tests["a long note's edited end: Open Changes as Text shows the changed words wrapped, in view"] = async ({ page, vsc, workspace, assert, screenshot }) => {
  const file = path.join(workspace, LONG);
  const before = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, before.replace('say what changed today.', CHANGED));
  await vsc.runCommand('View: Close All Editors');
  await vsc.runCommand('Source Control: Focus on Changes View');
  const row = page.locator('.scm-view .monaco-list-row', { hasText: LONG }).first();
  await row.waitFor({ timeout: 90000 });
  await row.click();
  await diff(page).waitFor({ timeout: 90000 });
  await until(page, () => changeHeaders(page), (t) => t.includes('Input changed'), 'the diff listing "Input changed"', 90000);
  // The notebook diff's title bar offers it.
  const button = page.locator('.editor-actions .action-item a[aria-label*="Open Changes as Text"]').first();
  await button.waitFor({ timeout: 30000 });
  await button.hover();
  await button.click();
  // VS Code's text diff, the changed words on screen on both sides' modified editor, no sideways scroll.
  const modified = '.monaco-diff-editor:visible .editor.modified';
  await page.locator(`${modified} .view-line`, { hasText: 'QUETZAL' }).first().waitFor({ timeout: 60000 });
  await until(page, () => wordInView(page, '.monaco-diff-editor .editor.modified', 'QUETZAL'), Boolean, 'the changed words in view in the text diff', 30000);
  assert.ok(await page.locator('.tab.active', { hasText: 'changes as text' }).count(), 'the tab says what it is');
  await screenshot('scm-diff-as-text');
};
