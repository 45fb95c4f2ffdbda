// Dialogs on a file system that is not the disk, as github.dev serves a repository (`vscode-vfs:`): a
// file system provider of this test holds the files in memory under its own scheme, and the dialog is
// opened, edited, saved, exported, forked and previewed through it. Runs in both hosts (the web pass too):
// nothing may reach for a local path.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { b64decode } from '../../src/core/base';
import { Dialog, Message, dlg2py } from '../../src/core/model';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import type { ForkResult } from '../../src/extension/fork/forkHere';
import { NOTEBOOK_TYPE, activate, closeAll, dialogState, historyParts, readText, replyText, save, setCellText, until } from './helpers';

const SCHEME = 'dialog-test-vfs';
const PNG = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');

/** Files in memory; a folder is any prefix of a file's path (or one made with createDirectory). */
class MemoryFs implements vscode.FileSystemProvider {
  readonly files = new Map<string, Uint8Array>();
  private readonly dirs = new Set<string>(['/']);
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  private isDir(path: string): boolean {
    return this.dirs.has(path) || [...this.files.keys()].some((f) => f.startsWith(`${path}/`));
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const data = this.files.get(uri.path);
    if (data) return { type: vscode.FileType.File, ctime: 0, mtime: Date.now(), size: data.length };
    if (this.isDir(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const base = uri.path.replace(/\/?$/, '/');
    const names = new Map<string, vscode.FileType>();
    for (const f of this.files.keys()) {
      if (!f.startsWith(base)) continue;
      const [name, ...rest] = f.slice(base.length).split('/');
      names.set(name, rest.length ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...names];
  }

  createDirectory(uri: vscode.Uri): void {
    this.dirs.add(uri.path);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const data = this.files.get(uri.path);
    if (!data) throw vscode.FileSystemError.FileNotFound(uri);
    return data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const type = this.files.has(uri.path) ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created;
    this.files.set(uri.path, content.slice());
    this.changed.fire([{ type, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  rename(from: vscode.Uri, to: vscode.Uri): void {
    this.writeFile(to, this.readFile(from));
    this.delete(from);
  }
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('dialogs on a virtual file system (as github.dev serves them)', function () {
  this.timeout(120000);
  const fs = new MemoryFs();
  const uri = (path: string) => vscode.Uri.from({ scheme: SCHEME, path });
  let registration: vscode.Disposable | undefined;

  before(async () => {
    await activate();
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, fs, { isCaseSensitive: true });
    for (const name of ['basic.ipynb', 'export.ipynb']) fs.files.set(`/repo/${name}`, new TextEncoder().encode(await readText(name)));
  });
  afterEach(closeAll);
  after(() => registration?.dispose());

  async function open(path: string): Promise<vscode.NotebookDocument> {
    await vscode.commands.executeCommand('vscode.openWith', uri(path), NOTEBOOK_TYPE);
    const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri(path).toString() && d.notebookType === NOTEBOOK_TYPE);
    assert.ok(nb, `${path} opened as a dialog`);
    await vscode.window.showNotebookDocument(nb);
    return nb;
  }

  it('opens as a dialog, and an edit saves through the file system, only the edited cell rewritten', async () => {
    const before = text(fs.files.get('/repo/basic.ipynb'));
    const nb = await open('/repo/basic.ipynb');
    assert.equal(nb.cellAt(2).document.languageId, 'dialog-prompt');
    assert.ok(replyText(nb.cellAt(2)).startsWith('It is'), 'the reply shows');
    await setCellText(nb.cellAt(0), '# Edited on a virtual file system');
    assert.ok(await save(nb), 'saved');
    const [was, now] = [JSON.parse(before), JSON.parse(text(fs.files.get('/repo/basic.ipynb')))];
    assert.equal([now.cells[0].source].flat().join(''), '# Edited on a virtual file system');
    assert.deepEqual(now.cells.slice(1), was.cells.slice(1), 'the other cells as they were');
  });

  it('saving a dialog with exported code writes its .py beside it through the file system', async () => {
    const nb = await open('/repo/export.ipynb');
    await setCellText(nb.cellAt(9), 'k = 5');
    assert.ok(await save(nb), 'saved');
    const py = await until(() => fs.files.get('/repo/export.py'), 'export.py written', 60000);
    assert.equal(text(py), `${dlg2py(readIpynb(text(fs.files.get('/repo/export.ipynb'))))}\n`);
  });

  it('Fork Here writes the fork beside its parent, with its lineage; the parent keeps its bytes', async () => {
    const nb = await open('/repo/basic.ipynb');
    const before = text(fs.files.get('/repo/basic.ipynb'));
    const target = uri('/repo/basic.fork.ipynb');
    const r = await vscode.commands.executeCommand<ForkResult>('dialogNotebook.forkHere', nb.cellAt(2), { target, whole: true });
    assert.ok(r?.ok, r?.message);
    const fork = JSON.parse(text(fs.files.get(target.path)));
    assert.equal(fork.cells.length, 3);
    assert.equal(fork.metadata.dialog_lineage.parent, 'basic.ipynb');
    assert.equal(text(fs.files.get('/repo/basic.ipynb')), before, "the parent's bytes");
    const shown = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === target.toString());
    assert.deepEqual(shown?.getCells().map((c) => dialogState(c).id), ['b0000001', 'b0000002', 'b0000003']);
  });

  it("reads a prompt's #ai image from the file system, only inside the dialog's folder", async () => {
    fs.files.set('/repo/refs/pic.png', PNG);
    fs.files.set('/repo/secret.png', PNG);
    const d = new Dialog([new Message({ id: 'vfs00001', msgType: 'prompt', content: 'Compare ![](pic.png#ai) with ![](../secret.png#ai)' })]);
    fs.files.set('/repo/refs/refs.ipynb', new TextEncoder().encode(writeIpynb(d)));
    const parts = await historyParts(await open('/repo/refs/refs.ipynb'));
    await until(() => parts().some((x) => x.kind === 'media' && x.text.startsWith('image/png · 1×1 px')), 'pic.png to be read', 60000);
    const xml = parts().filter((x) => x.kind === 'text').map((x) => x.text).join('\n');
    assert.ok(xml.includes(`<media-unavailable id="../secret.png" type="content" reason="not inside the dialog's folder">`), xml);
    assert.equal(parts().filter((x) => x.kind === 'media').length, 1, 'only pic.png is sent');
  });
});
