// The guarded reader of `#ai` file refs (src/node/fileRefReader.ts) on a real file system: a root with
// a good image, and beside it everything a hostile dialog could point at.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { b64decode } from '../../src/core/base';
import { FileRefScope, isInside, readFileRef, readFileRefs, refTarget } from '../../src/node/fileRefReader';

const png = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');
const posix = process.platform !== 'win32';

describe('fileRefReader: #ai files only inside the root, regular, capped', function () {
  let top: string;
  let scope: FileRefScope;
  before(() => {
    top = mkdtempSync(join(tmpdir(), 'dlg-refs-'));
    const root = join(top, 'ws');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'sub', 'good.png'), png);
    writeFileSync(join(root, 'up.png'), png);
    writeFileSync(join(top, 'secret.png'), png);
    writeFileSync(join(root, 'sub', 'big.png'), png);
    truncateSync(join(root, 'sub', 'big.png'), 2048);
    if (posix) {
      symlinkSync(join(top, 'secret.png'), join(root, 'sub', 'out.png'));
      symlinkSync(join(root, 'up.png'), join(root, 'sub', 'in.png'));
      execFileSync('mkfifo', [join(root, 'sub', 'pipe.png')]);
    }
    scope = { base: join(root, 'sub'), root, rootName: 'the workspace folder', maxBytes: 1024 };
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  it('refTarget resolves against the base and refuses what lies outside the root, before any I/O', () => {
    assert.deepEqual(refTarget(scope, 'good.png'), { path: join(scope.base, 'good.png') });
    assert.deepEqual(refTarget(scope, '../up.png'), { path: join(scope.root, 'up.png') });
    for (const ref of ['../../secret.png', '/etc/passwd', '/dev/zero', '../../ws-other/x.png', '../..']) {
      assert.deepEqual(refTarget(scope, ref), { reason: 'not inside the workspace folder' }, ref);
    }
    assert.equal(isInside('/a/b', '/a/b'), true);
    assert.equal(isInside('/a/b', '/a/b/..c'), true, 'a name starting with two dots is inside');
    assert.equal(isInside('/a/b', '/a/bc'), false);
  });

  it('reads a regular file inside the root, also through `..` that stays inside', async () => {
    assert.deepEqual(await readFileRef(scope, 'good.png'), png);
    assert.deepEqual(await readFileRef(scope, '../up.png'), png);
  });

  it('refuses a secret outside, /etc/passwd, /dev/zero, a missing file and a directory, with reasons', async () => {
    const files = await readFileRefs(scope, ['../../secret.png', '/etc/passwd', '/dev/zero', 'gone.png', '.']);
    assert.deepEqual(Object.fromEntries(files), {
      '../../secret.png': 'not inside the workspace folder',
      '/etc/passwd': 'not inside the workspace folder',
      '/dev/zero': 'not inside the workspace folder',
      'gone.png': 'no such file',
      '.': 'a directory, not a regular file',
    });
  });

  it('refuses a file above the size cap without reading it', async () => {
    assert.equal(await readFileRef(scope, 'big.png'), 'larger than 1kB (2kB)');
    assert.equal(await readFileRef({ ...scope, maxBytes: 2048 }, 'big.png').then((b) => (b as Uint8Array).length), 2048);
  });

  (posix ? it : it.skip)('follows a symlink only to a file inside the root; a FIFO and a device are not read', async () => {
    assert.equal(await readFileRef(scope, 'out.png'), 'links to a file not inside the workspace folder');
    assert.deepEqual(await readFileRef(scope, 'in.png'), png);
    // Without the checks these hang (no writer on the FIFO) or grow memory without end (/dev/zero).
    assert.equal(await readFileRef(scope, 'pipe.png'), 'a FIFO, not a regular file');
    assert.equal(await readFileRef({ base: '/dev', root: '/dev' }, 'zero'), 'a device, not a regular file');
  });
});
