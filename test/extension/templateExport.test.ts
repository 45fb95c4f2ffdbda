// TEMPLATE.ipynb and the .py written on save (issue 21 §4, §7), in the real VS Code: New Dialog in a
// folder starts with the messages of the templates of that folder and its parent, root-most first, with
// fresh ids and Solveit's metadata; saving a dialog with exported cells writes `<dialog>.py` beside it,
// unless the setting is off or the dialog is inside an nbdev project.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Dialog, Message, readIpynb, writeIpynb } from '../../src/core';
import { closeAll, openDialog, readText, save, setCellText, until, wsUri } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const write = (name: string, text: string) => vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(text));
async function exists(name: string): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(wsUri(name));
    return true;
  } catch {
    return false;
  }
}

describe('TEMPLATE.ipynb and New Dialog', function () {
  this.timeout(120000);
  afterEach(closeAll);
  after(() => vscode.workspace.fs.delete(wsUri('scratch/tmpl'), { recursive: true }));

  it('New Dialog in a folder stacks the templates of the folder and its parent, root-most first, with fresh ids', async () => {
    await write('scratch/tmpl/TEMPLATE.ipynb', writeIpynb(new Dialog([new Message({ id: 'root0001', msgType: 'note', content: '# Root template' })])));
    await write('scratch/tmpl/sub/TEMPLATE.ipynb', writeIpynb(new Dialog([new Message({ id: 'sub00001', msgType: 'code', content: 'import math' }), new Message({ id: 'sub00002', msgType: 'prompt', content: 'Start here.' })])));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('dialogNotebook.newDialog', wsUri('scratch/tmpl/sub'), 'fresh');
    assert.equal(uri.toString(), wsUri('scratch/tmpl/sub/fresh.ipynb').toString());
    const nb = (await until(() => vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString() && d.notebookType === 'dialog-notebook'), 'the new dialog open'))!;
    assert.deepEqual(nb.getCells().map((c) => c.document.getText()), ['# Root template', 'import math', 'Start here.']);
    const d = readIpynb(await readText('scratch/tmpl/sub/fresh.ipynb'));
    const ids = d.messages.map((m) => m.id);
    assert.ok(ids.every((id) => /^[0-9a-f]{8}$/.test(id) && !['root0001', 'sub00001', 'sub00002'].includes(id)), ids.join());
    assert.deepEqual(d.meta.solveit, { mode: 'standard', ver: 2 });
    // Never over a file: the same name again is refused.
    const again = await vscode.commands.executeCommand<{ ok: boolean; message: string }>('dialogNotebook.newDialog', wsUri('scratch/tmpl/sub'), 'fresh');
    assert.equal(again.ok, false);
    assert.match(again.message, /exists already/);
  });

  it('with no template, the new dialog holds one empty prompt', async () => {
    await vscode.workspace.fs.createDirectory(wsUri('scratch/tmpl-none'));
    try {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('dialogNotebook.newDialog', wsUri('scratch/tmpl-none'), 'empty.ipynb');
      const nb = (await until(() => vscode.workspace.notebookDocuments.find((x) => x.uri.toString() === uri.toString()), 'the new dialog open'))!;
      assert.equal(nb.cellCount, 1);
      assert.equal(nb.cellAt(0).document.languageId, 'dialog-prompt');
    } finally {
      await closeAll();
      await vscode.workspace.fs.delete(wsUri('scratch/tmpl-none'), { recursive: true });
    }
  });
});

describe('the exported code written on save', function () {
  this.timeout(120000);
  afterEach(closeAll);
  after(async () => {
    await settings().update('exportPythonOnSave', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(wsUri('scratch/export'), { recursive: true });
  });
  const dialog = new Dialog([
    new Message({ id: 'exp00001', msgType: 'code', content: '#| export\ndef double(x): return 2 * x' }),
    new Message({ id: 'exp00002', msgType: 'code', content: 'print(double(2))' }),
    new Message({ id: 'exp00003', msgType: 'note', content: 'A note.' }),
  ]);

  async function editAndSave(name: string): Promise<void> {
    await write(name, writeIpynb(dialog));
    const nb = await openDialog(name);
    await setCellText(nb.cellAt(2), 'An edited note.');
    assert.ok(await save(nb), 'the save');
  }

  it('writes <dialog>.py beside a saved dialog with exported cells', async () => {
    await editAndSave('scratch/export/lib.ipynb');
    const py = await until(() => readText('scratch/export/lib.py').catch(() => ''), 'lib.py written');
    assert.equal(py, '#| export\ndef double(x): return 2 * x\n');
  });

  it('writes none with the setting off, nor inside an nbdev project', async () => {
    await settings().update('exportPythonOnSave', false, vscode.ConfigurationTarget.Global);
    await editAndSave('scratch/export/off.ipynb');
    await settings().update('exportPythonOnSave', undefined, vscode.ConfigurationTarget.Global);
    await write('scratch/export/proj/pyproject.toml', '[project]\nname = "p"\n\n[tool.nbdev]\nlib_path = "p"\n');
    await editAndSave('scratch/export/proj/nbs/core.ipynb');
    // A save of a third dialog after both, whose .py appears: the earlier saves' handlers ran before it.
    await editAndSave('scratch/export/last.ipynb');
    await until(() => exists('scratch/export/last.py'), 'last.py written');
    assert.equal(await exists('scratch/export/off.py'), false, 'setting off');
    assert.equal(await exists('scratch/export/proj/nbs/core.py'), false, 'nbdev project');
  });
});
