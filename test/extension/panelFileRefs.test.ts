// The panel's history preview reads a dialog's `#ai` files in the real VS Code only inside the
// workspace folder: a file beside the workspace, reached with `../`, is shown unavailable with the
// reason, and its bytes never enter the history.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { b64decode } from '../../src/core/base';
import { Dialog, Message } from '../../src/core/model';
import { writeIpynb } from '../../src/core/ipynb';
import { closeAll, historyParts, openDialog, until, wsUri } from './helpers';

const PNG = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');
const FILE = 'scratch/refs/file-refs.ipynb';

describe('panel: #ai files', function () {
  this.timeout(120000);
  let outside: string;
  before(() => {
    outside = mkdtempSync(join(tmpdir(), 'dlg-outside-'));
    writeFileSync(join(outside, 'secret.png'), PNG);
  });
  after(async () => {
    await closeAll();
    rmSync(outside, { recursive: true, force: true });
  });

  it('shows a file outside the workspace (`../secret.png`) as unavailable, one inside as media', async () => {
    const dir = wsUri('scratch/refs').fsPath;
    const secret = relative(dir, join(outside, 'secret.png')).split('\\').join('/');
    assert.match(secret, /^\.\.\//);
    await vscode.workspace.fs.writeFile(wsUri('scratch/refs/good.png'), PNG);
    const d = new Dialog([new Message({ id: 'refs0001', msgType: 'prompt', content: `Compare ![](good.png#ai) with ![](${secret}#ai)` })]);
    await vscode.workspace.fs.writeFile(wsUri(FILE), new TextEncoder().encode(writeIpynb(d)));
    const parts = await historyParts(await openDialog(FILE));
    // The files are read asynchronously: the good one showing as media means the read is done.
    await until(() => parts().some((x) => x.kind === 'media' && x.text.startsWith('image/png · 1×1 px')), 'good.png to be read', 60000);
    const text = parts().filter((x) => x.kind === 'text').map((x) => x.text).join('\n');
    assert.ok(text.includes(`<media-unavailable id="${secret}" type="content" reason="not inside the workspace folder">`), text);
    assert.equal(parts().filter((x) => x.kind === 'media').length, 1, 'only good.png is sent');
  });
});
