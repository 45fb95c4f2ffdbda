// `npm run open -- PATH` (scripts/open.sh, issue 29.2) serves PATH itself: a folder as the workspace, a
// dialog's own folder for a dialog; VS Code's state lives outside it and is gone on exit, and nothing is
// added to the folder. Its settings: the user's own, dialogs opened as dialogs, auto save off unless the
// user's settings say otherwise. Runs code-server from the e2e harness's cache (skipped without it).
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const CACHE = process.env.VSCODE_E2E_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'dialog-e2e');
const hasCodeServer = () => existsSync(CACHE) && readdirSync(CACHE).some((d) => d.startsWith('code-server-'));

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('npm run open', function () {
  this.timeout(240000);
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'open-test-'));
    writeFileSync(join(dir, 'mine.ipynb'), readFileSync(join(ROOT, 'samples/welcome.ipynb')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function open(target: string): Promise<{ served: string; state: string }> {
    const env = { ...process.env, DIALOG_OPEN_CHECK: '1', PORT: String(await freePort()), DIALOG_USER_SETTINGS: join(dir, 'none.json') };
    const { stdout } = await run('bash', [join(ROOT, 'scripts/open.sh'), target], { cwd: ROOT, env });
    return { served: /^serving (.*)$/m.exec(stdout)?.[1] ?? '', state: /^state (.*)$/m.exec(stdout)?.[1] ?? '' };
  }

  it('serves a folder itself, and a dialog its own folder; its state is elsewhere and gone on exit', async function () {
    if (!hasCodeServer()) this.skip();
    const before = readdirSync(dir).sort();
    const folder = await open(dir);
    assert.equal(folder.served, dir);
    assert.ok(folder.state && !folder.state.startsWith(dir + '/'), `state outside the workspace: ${folder.state}`);
    assert.ok(!existsSync(folder.state), 'the state is removed on exit');
    assert.equal((await open(join(dir, 'mine.ipynb'))).served, dir);
    assert.deepEqual(readdirSync(dir).sort(), before, 'no .vscode-data, .settings.json or anything else added');
  });

  it('refuses a path that does not exist', async () => {
    await assert.rejects(run('bash', [join(ROOT, 'scripts/open.sh'), join(dir, 'missing.ipynb')], { cwd: ROOT, env: { ...process.env, DIALOG_OPEN_CHECK: '1' } }), /no such file or folder/);
  });

  it("settings: the user's own, dialogs as dialogs, auto save off unless the user chose", async () => {
    const settings = async (user: string | undefined, ...flags: string[]) => {
      const file = join(dir, 'user.json');
      if (user !== undefined) writeFileSync(file, user);
      const out = join(dir, 'out.json');
      await run('node', [join(ROOT, 'scripts/openSettings.mjs'), out, ...flags], { env: { ...process.env, DIALOG_USER_SETTINGS: user === undefined ? join(dir, 'none.json') : file } });
      return JSON.parse(readFileSync(out, 'utf8'));
    };
    assert.deepEqual(await settings(undefined), {
      'dialogNotebook.openDialogsByDefault': true,
      'files.autoSave': 'off',
      'workbench.editorAssociations': { '*.ipynb': 'dialog-notebook' },
    });
    const mine = await settings('{\n  // mine\n  "files.autoSave": "afterDelay", "editor.fontSize": 15, /* a url: */ "x": "http://a//b",\n  "workbench.editorAssociations": { "*.ipynb": "jupyter-notebook", },\n}\n', '--web');
    assert.equal(mine['files.autoSave'], 'afterDelay');
    assert.equal(mine['editor.fontSize'], 15);
    assert.equal(mine.x, 'http://a//b');
    assert.deepEqual(mine['workbench.editorAssociations'], { '*.ipynb': 'jupyter-notebook' });
    assert.deepEqual(mine['remote.extensionKind'], { 'dialog-notebooks.dialog-notebooks': ['web'] });
  });
});
