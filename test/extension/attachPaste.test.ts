// Pasting and dropping into a dialog's cells (issue 22), through the plan our paste and drop providers
// hand VS Code, in the real extension host: an image becomes an attachment (UUID-4 name, the exact bytes)
// that the History tab lists as media with its size; a file of another type dropped on a prompt becomes
// a `#ai` reference relative to the dialog; unknown types and images over the size cap are refused with
// one line and change nothing; bytes that do not decode are attached and reported unavailable.
// test/ui/images.mjs checks the same through a real Ctrl+V and a real drop.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { b64decode } from '../../src/core/base';
import { Attachment, Dialog, Message } from '../../src/core/model';
import { writeIpynb } from '../../src/core/ipynb';
import { planInsert } from '../../src/extension/look/attachPaste';
import { closeAll, historyParts, openDialog, readText, save, setCellText, until, wsUri } from './helpers';

const PNG = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');
const FILE = 'scratch/paste/paste.ipynb';
const UUID_REF = /^!\[\]\(attachment:([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\)$/;

/** A data transfer item holding a file, as VS Code makes one for a clipboard image or an OS file. */
class FileItem extends vscode.DataTransferItem {
  constructor(private readonly file: vscode.DataTransferFile) {
    super('');
  }
  override asFile() {
    return this.file;
  }
}

function files(...list: [mime: string, name: string, bytes: Uint8Array][]): vscode.DataTransfer {
  const dt = new vscode.DataTransfer();
  for (const [mime, name, bytes] of list) dt.set(mime, new FileItem({ name, uri: undefined, data: async () => bytes }));
  return dt;
}

function explorer(...uris: vscode.Uri[]): vscode.DataTransfer {
  const dt = new vscode.DataTransfer();
  dt.set('text/uri-list', new vscode.DataTransferItem(uris.map(String).join('\r\n')));
  return dt;
}

/** Applies a plan as VS Code applies a paste edit: the text at the end of the cell, with its additional edit. */
async function apply(cell: vscode.NotebookCell, plan: Awaited<ReturnType<typeof planInsert>>): Promise<string> {
  assert.ok(plan && !('refused' in plan), `a plan: ${JSON.stringify(plan)}`);
  const edit = plan.edit ?? new vscode.WorkspaceEdit();
  edit.insert(cell.document.uri, cell.document.positionAt(cell.document.getText().length), plan.text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  return plan.text;
}

const state = (c: vscode.NotebookCell) => c.metadata.dialog as { attachments?: { id: string; contentType: string; data?: string }[] };

describe('paste and drop into cells', function () {
  this.timeout(120000);
  let nb: vscode.NotebookDocument;
  const prompt = () => nb.cellAt(1);
  const note = () => nb.cellAt(0);

  before(async () => {
    await vscode.workspace.fs.writeFile(wsUri('scratch/paste/src/tool.py'), new TextEncoder().encode('print(1)\n'));
    await vscode.workspace.fs.writeFile(wsUri('scratch/paste/pics/dot.png'), PNG);
    const d = new Dialog([new Message({ id: 'note0001', msgType: 'note', content: 'A note ' }), new Message({ id: 'prom0001', msgType: 'prompt', content: 'Look: ' })]);
    await vscode.workspace.fs.writeFile(wsUri(FILE), new TextEncoder().encode(writeIpynb(d)));
    nb = await openDialog(FILE);
  });
  after(closeAll);

  it('a pasted PNG becomes a prompt attachment, listed in the History tab as media with its size', async () => {
    const text = await apply(prompt(), await planInsert(prompt().document, files(['image/png', 'image.png', PNG])));
    const id = UUID_REF.exec(text)?.[1];
    assert.ok(id, text);
    assert.deepEqual(state(prompt()).attachments, [{ id, contentType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==' }]);
    const parts = await historyParts(nb, 1);
    await until(() => parts().some((x) => x.kind === 'media' && x.text === 'image/png · 1×1 px · 67B'), 'the image in the History tab', 60000).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(parts())}`);
    });
  });

  it('a dropped PNG becomes a note attachment, where the markdown renderer finds it too', async () => {
    const text = await apply(note(), await planInsert(note().document, files(['image/png', 'dot.png', PNG])));
    const id = UUID_REF.exec(text)![1];
    assert.deepEqual(state(note()).attachments, [{ id, contentType: 'image/png' }]);
    assert.deepEqual(note().metadata.attachments, { [id]: { 'image/png': 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==' } });
  });

  it("an image dropped from the Explorer is attached; nothing else is read", async () => {
    const before = state(prompt()).attachments!.length;
    const text = await apply(prompt(), await planInsert(prompt().document, explorer(wsUri('scratch/paste/pics/dot.png'))));
    assert.match(text, UUID_REF);
    assert.equal(state(prompt()).attachments!.length, before + 1);
  });

  it('a code file dropped from the Explorer onto a prompt becomes a #ai reference relative to the dialog', async () => {
    const plan = await planInsert(prompt().document, explorer(wsUri('scratch/paste/src/tool.py')));
    assert.ok(plan && !('refused' in plan));
    assert.equal(plan.text, '![](src/tool.py#ai)');
    assert.equal(plan.edit, undefined, 'no attachment');
    assert.equal(await planInsert(note().document, explorer(wsUri('scratch/paste/src/tool.py'))), undefined, 'on a note: left to VS Code');
  });

  it('an unknown image type or one over dialogNotebook.history.maxFileBytes is refused with one line; nothing changes', async () => {
    const version = prompt().document.version;
    const meta = JSON.stringify(prompt().metadata);
    const bmp = await planInsert(prompt().document, files(['image/bmp', 'shot.bmp', PNG]));
    assert.deepEqual(bmp, { refused: 'Not attached: shot.bmp is image/bmp; a dialog takes PNG, JPEG, GIF or WebP images.' });
    const big = new Uint8Array(20_000_001);
    big.set(PNG);
    const huge = await planInsert(prompt().document, files(['image/png', 'huge.png', big]));
    assert.deepEqual(huge, { refused: 'Not attached: huge.png is 20MB, over dialogNotebook.history.maxFileBytes (20MB).' });
    assert.equal(prompt().document.version, version);
    assert.equal(JSON.stringify(prompt().metadata), meta);
  });

  it('bytes that do not decode are still attached, and the history says the image is unavailable and why', async () => {
    const text = await apply(note(), await planInsert(note().document, files(['image/png', 'broken.png', Uint8Array.from('\x89PNG\r\n\x1a\nnot really', (c) => c.charCodeAt(0))])));
    const id = UUID_REF.exec(text)![1];
    const parts = await historyParts(nb, 1);
    const text2 = () => parts().filter((x) => x.kind === 'text').map((x) => x.text).join('\n');
    await until(() => text2().includes(`<media-unavailable id="${id}" type="content" reason="image could not be decoded`), 'the unavailable image in the History tab', 60000).catch((e) => {
      throw new Error(`${e.message}: ${text2()}`);
    });
  });
});

// Issue 29.3: Ctrl+Z after a paste takes the reference out of the text, but VS Code keeps the cell's
// metadata edit, and with it the attachment. A save writes no attachment the text does not refer to,
// unless the file had it when read: then it is kept as it was.
describe('an attachment no text refers to', function () {
  this.timeout(120000);
  after(closeAll);

  it('is not written: pasted, undone (the reference taken out of the text), saved', async () => {
    const name = 'scratch/paste/undone.ipynb';
    const bytes = writeIpynb(new Dialog([new Message({ id: 'prom0002', msgType: 'prompt', content: 'Look: ' })]));
    await vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(bytes));
    const nb = await openDialog(name);
    const cell = nb.cellAt(0);
    const text = await apply(cell, await planInsert(cell.document, files(['image/png', 'image.png', PNG])));
    const id = UUID_REF.exec(text)![1];
    await setCellText(cell, 'Look: '); // what Ctrl+Z in the cell's editor leaves
    assert.equal(state(cell).attachments?.[0]?.id, id, "the cell's metadata still holds the attachment");
    await setCellText(cell, 'Look again: ');
    assert.ok(await save(nb));
    const saved = await readText(name);
    assert.ok(!saved.includes(id) && !saved.includes('"attachments"'), saved);
    assert.ok(saved.includes('Look again: '), 'the edit is saved');
  });

  it('is kept byte for byte when the file had it', async () => {
    const name = 'scratch/paste/kept.ipynb';
    const old = new Attachment(PNG, 'image/png', 'old-shot.png');
    const bytes = writeIpynb(
      new Dialog([
        new Message({ id: 'prom0003', msgType: 'prompt', content: 'No reference here', attachments: [old] }),
        new Message({ id: 'note0003', msgType: 'note', content: 'A note' }),
      ]),
    );
    await vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(bytes));
    const cellText = (text: string) => JSON.stringify(JSON.parse(text).cells[0]);
    const nb = await openDialog(name);
    await setCellText(nb.cellAt(1), 'A note, edited');
    assert.ok(await save(nb));
    const saved = await readText(name);
    assert.equal(cellText(saved), cellText(bytes), 'the cell with the unreferenced attachment is as it was');
    const second = bytes.lastIndexOf('{', bytes.indexOf('"id": "note0003"'));
    assert.equal(saved.slice(0, second), bytes.slice(0, second), 'everything before the edited note, byte for byte');
    // Its own text edited: rebuilt, the attachment it was read with still there.
    await setCellText(nb.cellAt(0), 'Still no reference');
    assert.ok(await save(nb));
    assert.deepEqual(Object.keys(JSON.parse(await readText(name)).cells[0].attachments ?? {}), ['old-shot.png']);
  });
});
