// Images into prompts and notes (issue 22), as a person does it in the real VS Code: a PNG pasted from
// the clipboard into a prompt and one dropped onto a note become attachments of those cells, named by a
// UUID-4 (DECISIONS "name of a pasted or dropped image attachment"), referenced at the cursor; the saved
// file holds their exact bytes and no image file appears in the folder; answering the prompt sends the
// image to the (mock) Anthropic server as an image part; the prompt shows it as a thumbnail from the paste
// on (gone with an Undo, back with a Redo) and above its reply; one Undo removes the note's reference and
// attachment; a BMP is refused with one line and nothing changes; opened again, the prompt shows its thumbnail;
// a click on a thumbnail shows the image full size and a second click shrinks it (issue 47). Saves images.png.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { openNewFileAsDialog } from './lib/panelPage.mjs';
import { savedCells, until } from './lib/poll.mjs';
import { setApiKey } from './lib/apiKey.mjs';

const require = createRequire(import.meta.url);
const sharp = require('sharp');
const FILE = 'images.ipynb';
const UUID = /attachment:([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\)/;
const mocks = { anthropic: null };
const state = {};

const png = (w, h, background) => sharp({ create: { width: w, height: h, channels: 3, background } }).png().toBuffer();

function dialog() {
  return {
    cells: [
      { cell_type: 'markdown', id: 'n0000001', metadata: {}, source: '# Pictures' },
      { cell_type: 'markdown', id: 'n0000002', metadata: {}, source: 'A note with a picture:' },
      { cell_type: 'markdown', id: 'p0000001', metadata: { solveit_ai: true }, source: 'What colour is this? ' },
    ],
    metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const imageFiles = (dir) => fs.readdirSync(dir, { recursive: true }).filter((f) => /\.(png|jpe?g|gif|webp)$/i.test(String(f))).sort();
const row = (page, text) => page.locator('.notebookOverlay:visible .monaco-list-row', { hasText: text }).first();
const src = (cell) => (Array.isArray(cell.source) ? cell.source.join('') : cell.source);

/**
 * Closes VS Code's paste/drop widget (the button offering other ways to paste) that a paste or drop leaves
 * beside the text: while it shows, Escape closes it rather than leaving the cell's editor.
 */
async function closePasteWidget(page) {
  const widget = page.locator('.post-edit-widget:visible');
  for (let k = 0; k < 5 && (await widget.count()); k++) {
    await page.keyboard.press('Escape');
    await widget.first().waitFor({ state: 'hidden', timeout: 2000 }).catch(() => {});
  }
}

/** Saves the dialog and returns its cells once the file on disk satisfies `ok`. */
async function saved(page, vsc, workspace, ok, what) {
  await closePasteWidget(page);
  await vsc.runCommand('File: Save');
  const file = path.join(workspace, FILE);
  return until(page, () => savedCells(file), (c) => c && ok(c), what);
}

/** Puts the cursor at the end of the cell editor in `cellRow`. */
async function editEnd(page, cellRow) {
  await cellRow.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
}


/** The natural width of the first thumbnail above the reply holding `text` (any reply when omitted; 0 while none shows). */
async function thumbnailWidth(page, text) {
  for (const f of page.frames()) {
    const img = f.locator('.dialog-reply', text ? { hasText: text } : {}).locator('.thumbnails img').first();
    if (await img.count().catch(() => 0)) return img.evaluate((i) => i.naturalWidth).catch(() => 0);
  }
  return 0;
}

async function editNote(page) {
  await editEnd(page, row(page, 'What colour is this?'));
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await row(page, 'A note with a picture:').locator('.monaco-editor').waitFor({ timeout: 30000 });
}

export const tests = {
  async 'a PNG pasted from the clipboard into a prompt becomes its attachment'({ page, context, vsc, workspace, assert }) {
    const mod = await import(new URL('../../out/test/mocks/anthropicServer.cjs', import.meta.url));
    mocks.anthropic = await (mod.default ?? mod).start({ apiKey: 'sk-mock-images' });
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'dialogNotebook.anthropic.baseUrl': mocks.anthropic.url, 'dialogNotebook.model': 'anthropic:claude-sonnet-4-5' }));
    fs.writeFileSync(path.join(workspace, FILE), JSON.stringify(dialog(), null, 1));
    state.before = imageFiles(workspace);
    state.pasted = await png(3, 2, { r: 255, g: 0, b: 0 });
    await openNewFileAsDialog(page, vsc, FILE);

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const prompt = row(page, 'What colour is this?');
    await editEnd(page, prompt);
    // Ctrl+V's paste event, carrying the clipboard's PNG as a browser's clipboard gives it.
    await page.evaluate((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'image.png', { type: 'image/png' }));
      document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, state.pasted.toString('base64'));
    await until(page, () => prompt.locator('.view-lines').innerText(), (t) => UUID.test(t), 'the attachment reference in the prompt');
    // Shown with the prompt at once, before any answer; Undo takes the thumbnail away with the reference, Redo brings both back.
    assert.equal(await until(page, () => thumbnailWidth(page), (w) => w > 0, 'the thumbnail of the unanswered prompt'), 3, 'the pasted image, as a thumbnail');
    await closePasteWidget(page);
    await page.keyboard.press('Control+z');
    await until(page, () => prompt.locator('.view-lines').innerText(), (t) => !t.includes('attachment:'), 'the reference gone after Undo');
    await until(page, () => thumbnailWidth(page), (w) => w === 0, 'the thumbnail gone after Undo');
    await page.keyboard.press('Control+Shift+z');
    await until(page, () => prompt.locator('.view-lines').innerText(), (t) => UUID.test(t), 'the reference back after Redo');
    await until(page, () => thumbnailWidth(page), (w) => w === 3, 'the thumbnail back after Redo');

    const cells = await saved(page, vsc, workspace, (c) => c[2].attachments, 'the saved prompt attachment');
    const id = UUID.exec(src(cells[2]))[1];
    assert.equal(src(cells[2]).split('\n')[0], `What colour is this? ![](attachment:${id})`, 'the reference at the cursor');
    assert.deepEqual(Object.keys(cells[2].attachments), [id], 'named by the UUID of the reference');
    assert.deepEqual(cells[2].attachments[id], { 'image/png': state.pasted.toString('base64') }, 'the exact bytes, keyed by their mime');
    assert.deepEqual(imageFiles(workspace), state.before, 'no image file written to the folder');
    state.promptId = id;
  },

  async 'answering the prompt sends the image as an image part'({ page, vsc, assert }) {
    await setApiKey(page, vsc, 'Anthropic', 'sk-mock-images');
    mocks.anthropic.enqueue({ text: ['It is ', 'red.'] });
    const prompt = row(page, 'What colour is this?');
    await prompt.hover();
    await prompt.locator('.run-button-container .action-label').first().click();
    await until(page, () => mocks.anthropic.requests.length, (n) => n >= 1, 'the request to the mock');
    const req = mocks.anthropic.requests.at(-1);
    const parts = req.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const image = parts.find((p) => p.type === 'image');
    assert.ok(image, `an image part: ${JSON.stringify(req.body.messages).slice(0, 600)}`);
    assert.deepEqual(image.source, { type: 'base64', media_type: 'image/png', data: state.pasted.toString('base64') });
    // The reply shows the prompt's image as a thumbnail above it.
    const width = await until(page, () => thumbnailWidth(page, 'It is red.'), (w) => w > 0, 'the thumbnail above the reply');
    assert.equal(width, 3, 'the pasted image, as a thumbnail');
  },

  async 'a PNG dropped onto a note becomes its attachment, shown, and one Undo removes both'({ page, vsc, workspace, screenshot, assert }) {
    state.dropped = await png(2, 2, { r: 0, g: 0, b: 255 });
    // The note renders as markdown: from the prompt, Escape, Up and Enter edit it, as from the keyboard.
    await editNote(page);
    const note = row(page, 'A note with a picture:');
    await editEnd(page, note);
    const target = note.locator('.monaco-editor .view-lines').first();
    await target.evaluate((el, b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'blue.png', { type: 'image/png' }));
      const box = el.getBoundingClientRect();
      const at = { bubbles: true, cancelable: true, composed: true, dataTransfer: dt, clientX: box.right - 2, clientY: box.top + 5, shiftKey: true };
      for (const type of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(type, at));
    }, state.dropped.toString('base64'));
    await until(page, () => note.locator('.view-lines').innerText(), (t) => UUID.test(t), 'the attachment reference in the note');

    const cells = await saved(page, vsc, workspace, (c) => c[1].attachments, 'the saved note attachment');
    const id = UUID.exec(src(cells[1]))[1];
    assert.deepEqual(cells[1].attachments, { [id]: { 'image/png': state.dropped.toString('base64') } }, 'the exact bytes, by the UUID');
    assert.deepEqual(imageFiles(workspace), state.before, 'no image file written to the folder');

    // Shown where it is referenced once the note is rendered (Escape leaves the editor).
    await closePasteWidget(page);
    await page.keyboard.press('Escape');
    let shown = false;
    for (const end = Date.now() + 60000; !shown && Date.now() < end; await page.waitForTimeout(250)) {
      for (const f of page.frames()) {
        const img = f.locator(`img[src^="data:image/png"]`);
        if ((await img.count().catch(() => 0)) && (await img.first().evaluate((i) => i.naturalWidth).catch(() => 0)) === 2) shown = true;
      }
    }
    assert.ok(shown, 'the note shows the dropped image');
    await screenshot('images');

    await page.keyboard.press('Enter');
    await editEnd(page, note);
    await page.keyboard.press('Control+z');
    await until(page, () => note.locator('.view-lines').innerText(), (t) => !t.includes('attachment:'), 'the reference gone after Undo');
    const after = await saved(page, vsc, workspace, (c) => !c[1].attachments && !src(c[1]).includes('attachment:'), 'the note saved without its attachment');
    assert.equal(src(after[1]), 'A note with a picture:', 'the note as before the drop');
    assert.ok(after[2].attachments?.[state.promptId], "the prompt's attachment stays");
  },

  async 'a BMP pasted into a prompt is refused with one line, and nothing changes'({ page, vsc, workspace, assert }) {
    const file = path.join(workspace, FILE);
    const before = fs.readFileSync(file, 'utf8');
    const prompt = row(page, 'What colour is this?');
    const text = await prompt.locator('.view-lines').innerText();
    await editEnd(page, prompt);
    await page.evaluate((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'shot.bmp', { type: 'image/bmp' }));
      document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, Buffer.from('BM not really a bitmap').toString('base64'));
    await vsc.notification('Not attached: shot.bmp is image/bmp; a dialog takes PNG, JPEG, GIF or WebP images.');
    assert.equal(await prompt.locator('.view-lines').innerText(), text, 'the prompt as it was');
    await vsc.runCommand('File: Save');
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'the file as it was');
    assert.deepEqual(imageFiles(workspace), state.before, 'no image file written to the folder');
    await mocks.anthropic.close();
  },

  async "a PNG pasted into a note is attached too, not copied into the folder by VS Code's markdown paste"({ page, vsc, workspace, assert }) {
    await editNote(page);
    const note = row(page, 'A note with a picture:');
    await editEnd(page, note);
    await page.evaluate((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'image.png', { type: 'image/png' }));
      document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, state.dropped.toString('base64'));
    await until(page, () => note.locator('.view-lines').innerText(), (t) => UUID.test(t), 'the attachment reference in the note');
    const cells = await saved(page, vsc, workspace, (c) => c[1].attachments, 'the saved note attachment');
    assert.deepEqual(Object.values(cells[1].attachments), [{ 'image/png': state.dropped.toString('base64') }]);
    assert.deepEqual(imageFiles(workspace), state.before, 'no image file written to the folder');
  },

  async 'opened again from disk, the prompt shows its thumbnail above its reply'({ page, vsc, workspace, assert }) {
    // The reply output names the thumbnail; its bytes come from the prompt's metadata when the renderer asks.
    await vsc.runCommand('View: Close All Editors');
    fs.copyFileSync(path.join(workspace, FILE), path.join(workspace, 'reopened.ipynb'));
    await openNewFileAsDialog(page, vsc, 'reopened.ipynb');
    assert.equal(await until(page, () => thumbnailWidth(page, 'It is red.'), (w) => w > 0, 'the thumbnail above the reopened reply'), 3, 'the pasted image, as a thumbnail');
  },

  async 'a click on a thumbnail shows the image full size, a second click shrinks it again'({ page, vsc, workspace, assert }) {
    // A screenshot's shape: much taller than wide, so the thumbnail is small.
    const tall = await png(300, 600, { r: 0, g: 128, b: 0 });
    const id = '5d7c2f1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f';
    const d = dialog();
    d.cells = [{ cell_type: 'markdown', id: 'p0000009', metadata: { solveit_ai: true }, attachments: { [id]: { 'image/png': tall.toString('base64') } }, source: `What is on this screenshot? ![](attachment:${id})\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\nA green screen.` }];
    fs.writeFileSync(path.join(workspace, 'tall.ipynb'), JSON.stringify(d, null, 1));
    await vsc.runCommand('View: Close All Editors');
    await openNewFileAsDialog(page, vsc, 'tall.ipynb');
    const thumb = async () => {
      for (const f of page.frames()) {
        const img = f.locator('.dialog-reply', { hasText: 'A green screen.' }).locator('.thumbnails img').first();
        if (await img.count().catch(() => 0)) return img;
      }
      return undefined;
    };
    const size = async () => (await thumb())?.evaluate((i) => (i.complete && i.naturalWidth ? [i.clientWidth, i.clientHeight] : [0, 0])).catch(() => [0, 0]) ?? [0, 0];
    const [w, h] = await until(page, size, ([cw]) => cw > 0, 'the thumbnail of the tall image');
    assert.ok(h < 600 && w < 300, `a thumbnail first (${w}×${h})`);
    await (await thumb()).click();
    await until(page, size, ([cw, ch]) => cw === 300 && ch === 600, 'the image at full size after a click');
    await (await thumb()).click();
    await until(page, size, ([cw, ch]) => cw === w && ch === h, 'the thumbnail again after a second click');
  },
};
