// The desktop's git read for find_msgs(only_chg=True), with real git in a temp folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitHeadText } from '../../src/node/gitHead';

describe('gitHeadText (only_chg)', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'githead-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('in no repository: says so; untracked or no commit: null; committed: the text at HEAD', async () => {
    const file = join(dir, 'sub', 'my dialog.ipynb');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(file, 'v1');
    await assert.rejects(gitHeadText(file), /is not in a git repository/);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
    git('init', '-q');
    assert.equal(await gitHeadText(file), null, 'no commit yet');
    writeFileSync(join(dir, 'other'), 'x');
    git('add', 'other');
    git('commit', '-qm', 'other');
    assert.equal(await gitHeadText(file), null, 'untracked');
    git('add', '.');
    git('commit', '-qm', 'dialog');
    writeFileSync(file, 'v2');
    assert.equal(await gitHeadText(file), 'v1');
  });
});
