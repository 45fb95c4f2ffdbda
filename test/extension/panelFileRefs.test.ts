// The panel's history preview reads a dialog's `#ai` files in the real VS Code only inside the
// workspace folder: a file beside the workspace, reached with `../`, is shown unavailable with the
// reason, and its bytes never enter the history. A text file is listed as a file part and sent to the
// model as its text (checked against the Anthropic mock).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { b64decode } from '../../src/core/base';
import { Dialog, Message } from '../../src/core/model';
import { writeIpynb } from '../../src/core/ipynb';
import { cellOf, closeAll, execute, freshDialog, historyParts, openDialog, replyText, until, useMockProviders, wsUri } from './helpers';

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

  describe('a text file', () => {
    const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
    after(closeAll);

    it('sends a text file (`![](helper.py#ai)`) as its text: a file part in the History tab, a text block to Anthropic', async () => {
      const py = 'def helper(a, b):\n    return a < b  # <b> & "c"\n';
      await vscode.workspace.fs.writeFile(wsUri('scratch/refs/helper.py'), new TextEncoder().encode(py));
      const { nb } = await freshDialog('refs', [new Message({ id: 'refs0002', msgType: 'prompt', content: 'Explain ![](helper.py#ai)' })]);
      const sent = `<file path="helper.py">${py}</file>`;
      const parts = await historyParts(nb);
      const listed = `helper.py · text · ${py.length}B · ~${Math.ceil(sent.length / 4)} tok`;
      await until(() => parts().some((x) => x.kind === 'file' && x.text === listed), 'helper.py listed as a file part', 60000).catch((e) => {
        throw new Error(`${e.message}: ${JSON.stringify(parts())}`);
      });
      ant.enqueue({ text: ['It compares a and b.'] });
      await execute(nb, 'refs0002');
      await until(() => replyText(cellOf(nb, 'refs0002')).startsWith('It compares a and b.'), 'the answer', 60000);
      const body = ant.requests[ant.requests.length - 1].body as { messages: { role: string; content: { type: string; text?: string }[] }[] };
      const user = body.messages[body.messages.length - 1];
      assert.equal(user.role, 'user');
      assert.deepEqual(user.content.map((b) => [b.type, b.text]), [['text', sent], ['text', 'Explain ![](helper.py#ai)']], JSON.stringify(user.content));
    });
  });
});
