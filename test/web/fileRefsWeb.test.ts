// `#ai` files from the browser: read through vscode.workspace.fs (src/extension/media/fileRefsFs.ts), a
// file inside the workspace folder as media (a text file as a file part), one outside it (`../`) as
// unavailable with the reason.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { b64decode } from '../../src/core/base';
import { Dialog, Message } from '../../src/core/model';
import { writeIpynb } from '../../src/core/ipynb';
import { closeAll, historyParts, openDialog, until, wsUri } from '../extension/helpers';

const PNG = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');
const FILE = 'scratch/refs-web/file-refs.ipynb';

describe('web: #ai files through the workspace file system', function () {
  this.timeout(120000);
  const outside = () => vscode.Uri.joinPath(wsUri(''), '..', 'outside-web');
  after(async () => {
    await closeAll();
    await vscode.workspace.fs.delete(outside(), { recursive: true, useTrash: false });
  });

  it('shows a file outside the workspace (`../`) as unavailable, one inside as media, a text file as a file part', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(outside(), 'secret.png'), PNG);
    await vscode.workspace.fs.writeFile(wsUri('scratch/refs-web/good.png'), PNG);
    await vscode.workspace.fs.writeFile(wsUri('scratch/refs-web/notes.md'), new TextEncoder().encode('# Notes\n'));
    const secret = '../../../outside-web/secret.png';
    const d = new Dialog([new Message({ id: 'refs0001', msgType: 'prompt', content: `Compare ![](good.png#ai) with ![](${secret}#ai) and ![](gone.png#ai), see ![](notes.md#ai)` })]);
    await vscode.workspace.fs.writeFile(wsUri(FILE), new TextEncoder().encode(writeIpynb(d)));
    const parts = await historyParts(await openDialog(FILE));
    await until(() => parts().some((x) => x.kind === 'media' && x.text.startsWith('image/png · 1×1 px')), 'good.png to be read', 60000);
    const text = parts().filter((x) => x.kind === 'text').map((x) => x.text).join('\n');
    assert.ok(text.includes(`<media-unavailable id="${secret}" type="content" reason="not inside the workspace folder">`), text);
    assert.ok(text.includes('<media-unavailable id="gone.png" type="content" reason="no such file">'), text);
    assert.equal(parts().filter((x) => x.kind === 'media').length, 1, 'only good.png is sent');
    assert.deepEqual(parts().filter((x) => x.kind === 'file').map((x) => x.text), ['notes.md · text · 8B · ~10 tok']);
  });
});
