// Which Jupyter Server a dialog's code runs on (src/extension/jupyter/serverChoice.ts): trust first, then
// the settings; the token from SecretStorage before JUPYTER_TOKEN; where the dialog sits on the server.
// The e2e harness runs VS Code with workspace trust off, so the untrusted refusal is tested here.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { BROWSER_REASON, UNTRUSTED_REASON, chooseServer, sessionPath } from '../../src/extension/jupyter/serverChoice';

const base = { trusted: true, serverUrl: '', python: '' };

describe('kernel server choice', () => {
  it('refuses in an untrusted workspace, whatever the settings say', () => {
    for (const serverUrl of ['', 'http://gpu-box:8888/']) {
      assert.deepEqual(chooseServer({ ...base, trusted: false, serverUrl, storedToken: 't' }), { kind: 'refused', reason: UNTRUSTED_REASON });
    }
    assert.match(UNTRUSTED_REASON, /untrusted/);
  });

  it('starts a local server when no URL is set, with the configured Python', () => {
    assert.deepEqual(chooseServer(base), { kind: 'local', python: '' });
    assert.deepEqual(chooseServer({ ...base, serverUrl: '  ', python: ' /opt/venv/bin/python ' }), { kind: 'local', python: '/opt/venv/bin/python' });
  });

  it('connects by URL with the stored token, else JUPYTER_TOKEN, else none', () => {
    const url = 'https://hub.example/user/ann/';
    assert.deepEqual(chooseServer({ ...base, serverUrl: url, storedToken: 'secret', envToken: 'env' }), { kind: 'remote', url, token: 'secret' });
    assert.deepEqual(chooseServer({ ...base, serverUrl: url, envToken: 'env' }), { kind: 'remote', url, token: 'env' });
    assert.deepEqual(chooseServer({ ...base, serverUrl: url, storedToken: '' }), { kind: 'remote', url, token: '' });
  });

  it('refuses a server URL that is not http(s), saying what is expected', () => {
    for (const serverUrl of ['gpu-box:8888', 'ws://x/', 'http://']) {
      const c = chooseServer({ ...base, serverUrl });
      assert.equal(c.kind, 'refused', serverUrl);
      assert.match((c as { reason: string }).reason, /http:\/\/ or https:\/\//);
    }
  });

  it('places the dialog under the server root, or by its name when outside it', () => {
    const root = join('/work', 'proj');
    assert.equal(sessionPath(root, join(root, 'a', 'b.ipynb')), 'a/b.ipynb');
    assert.equal(sessionPath(root, join(root, 'top.ipynb')), 'top.ipynb');
    assert.equal(sessionPath(root, join('/work', 'other', 'x.ipynb')), 'x.ipynb');
    assert.equal(sessionPath(root, join(root, '..notes', 'y.ipynb')), '..notes/y.ipynb');
  });

  it('in the browser, refuses to start a local server and says what to do, but connects to one by URL', () => {
    const c = chooseServer({ ...base, canStartLocal: false });
    assert.deepEqual(c, { kind: 'refused', reason: BROWSER_REASON });
    assert.match(BROWSER_REASON, /dialogNotebook\.jupyter\.serverUrl/);
    assert.equal(chooseServer({ ...base, canStartLocal: false, serverUrl: 'http://127.0.0.1:8888/' }).kind, 'remote');
  });

  it('places Windows paths too (either separator, drive letters in any case)', () => {
    assert.equal(sessionPath('C:\\work\\proj', 'c:\\work\\proj\\a\\b.ipynb'), 'a/b.ipynb');
    assert.equal(sessionPath('C:\\work\\proj\\', 'C:\\work\\other\\x.ipynb'), 'x.ipynb');
    assert.equal(sessionPath('/work/proj/', '/work/proj/top.ipynb'), 'top.ipynb');
  });
});
