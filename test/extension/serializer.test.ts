// The serializer alone, over every dialog in the workspace: bytes -> NotebookData -> bytes is the
// identity (with the metadata cloned through JSON, as VS Code moves it between processes).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DialogSerializer } from '../../src/extension/document/serializer';
import { wsUri } from './helpers';

function cloneThroughJson(data: vscode.NotebookData): vscode.NotebookData {
  const cells = data.cells.map((c) => {
    const x = new vscode.NotebookCellData(c.kind, c.value, c.languageId);
    x.metadata = JSON.parse(JSON.stringify(c.metadata ?? {}));
    x.outputs = (c.outputs ?? []).map(
      (o) => new vscode.NotebookCellOutput(o.items.map((i) => new vscode.NotebookCellOutputItem(i.data.slice(), i.mime)), JSON.parse(JSON.stringify(o.metadata ?? {}))),
    );
    return x;
  });
  const out = new vscode.NotebookData(cells);
  out.metadata = JSON.parse(JSON.stringify(data.metadata ?? {}));
  return out;
}

describe('DialogSerializer round trip', function () {
  this.timeout(120000);

  it('writes back the bytes it read, for every readable dialog in the workspace', async () => {
    const files = (await vscode.workspace.fs.readDirectory(wsUri('.'))).map(([n]) => n).filter((n) => n.endsWith('.ipynb'));
    assert.ok(files.length >= 20, `corpus copied (${files.length} files)`);
    const ser = new DialogSerializer();
    let checked = 0;
    for (const f of files) {
      const bytes = await vscode.workspace.fs.readFile(wsUri(f));
      let data: vscode.NotebookData;
      try {
        data = ser.deserializeNotebook(bytes);
      } catch (e) {
        assert.match(String(e), /Cannot open as a dialog/, f);
        continue;
      }
      const back = ser.serializeNotebook(cloneThroughJson(data));
      assert.equal(new TextDecoder().decode(back), new TextDecoder().decode(bytes), f);
      checked++;
    }
    assert.ok(checked >= files.length - 1, `${checked} of ${files.length} files round-tripped`);
  });

  it('opens an empty file as an empty dialog', () => {
    assert.equal(new DialogSerializer().deserializeNotebook(new Uint8Array()).cells.length, 0);
  });
});
