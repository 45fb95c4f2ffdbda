// `dlg merge`, `dlg show` and `dlg git-setup` (issue 46) with real git: two branches of a dialog merge
// as two branches of a Python file do, and `git diff` shows a one-line change as one line.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { Dialog, Message } from '../../src/core/model';
import { conflictOf } from '../../src/core/threeway';
import { cliBundle } from './cliProcess';


describe('cli: dlg merge, show and git-setup with real git', function () {
  this.timeout(120000);
  let dir: string;
  let cli: string;
  let repo: string;
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_CONFIG_NOSYSTEM: '1' };
  const run = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { cwd: repo, encoding: 'utf8', env });
  const git = (...args: string[]) => {
    const r = run('git', ...args);
    return { ...r, out: r.stdout + r.stderr };
  };
  const ok = (...args: string[]) => {
    const r = git(...args);
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.out}`);
    return r.stdout;
  };
  const FILE = 'analysis.ipynb';
  const write = (d: Dialog) => writeFileSync(join(repo, FILE), writeIpynb(d));
  const read = () => readIpynb(readFileSync(join(repo, FILE), 'utf8'));
  const start = () =>
    new Dialog([
      new Message({ id: 'intro001', msgType: 'note', content: '# Analysis\nLoad the data.' }),
      new Message({ id: 'code0001', msgType: 'code', content: 'import pandas as pd\ndf = pd.read_csv("a.csv")\ndf.head()', output: [{ output_type: 'stream', name: 'stdout', text: 'ok\n' }] }),
      new Message({ id: 'prmt0001', msgType: 'prompt', content: 'What does df hold?', output: 'Sales by month.' }),
      new Message({ id: 'code0002', msgType: 'code', content: 'df.plot()' }),
    ]);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dlg-git-'));
    // The bundled CLI, as `npm run build` makes dist/cli.js.
    cli = cliBundle();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => {
    repo = mkdtempSync(join(dir, 'repo-'));
    ok('init', '-q', '-b', 'main');
    const r = run(process.execPath, cli, 'git-setup');
    assert.equal(r.status, 0, r.stderr);
    assert.match(ok('config', 'merge.dialog.driver').trim(), /cli\.js" merge %O %A %B$/);
    assert.match(readFileSync(join(repo, '.git/info/attributes'), 'utf8'), /^\*\.ipynb diff=dialog merge=dialog$/m);
    write(start());
    ok('add', FILE);
    ok('commit', '-qm', 'start');
  });

  /** Branch `other` changes the dialog one way, main another; then main merges other. */
  function branches(mine: (d: Dialog) => void, theirs: (d: Dialog) => void) {
    ok('checkout', '-q', '-b', 'other');
    const t = read();
    theirs(t);
    write(t);
    ok('commit', '-qam', 'theirs');
    ok('checkout', '-q', 'main');
    const o = read();
    mine(o);
    write(o);
    ok('commit', '-qam', 'mine');
    return git('merge', '-q', '--no-edit', 'other');
  }

  it('edits of different messages and adds at different places merge cleanly', () => {
    const r = branches(
      (d) => {
        d.msg('code0001').content = d.msg('code0001').content.replace('a.csv', 'b.csv');
        d.mkMessage({ id: 'note0009', msgType: 'note', content: 'Mine, at the end.' });
      },
      (d) => {
        d.msg('code0002').content = 'df.plot(kind="bar")';
        d.mkMessage({ id: 'note0008', msgType: 'note', content: 'Theirs, after the intro.', after: 'intro001' });
      },
    );
    assert.equal(r.status, 0, r.out);
    const d = read();
    assert.deepEqual(d.messages.map((m) => m.id), ['intro001', 'note0008', 'code0001', 'prmt0001', 'code0002', 'note0009']);
    assert.match(d.msg('code0001').content, /b\.csv/);
    assert.equal(d.msg('code0002').content, 'df.plot(kind="bar")');
    assert.equal(ok('status', '--porcelain'), '');
  });

  it('the same message changed on both sides: a conflict, and the file is still a dialog holding both', () => {
    const r = branches(
      (d) => void (d.msg('prmt0001').content = 'What does df hold, by region?'),
      (d) => void (d.msg('prmt0001').content = 'What does df hold, by year?'),
    );
    assert.notEqual(r.status, 0);
    assert.match(r.out, /CONFLICT.*analysis\.ipynb/);
    const d = read();
    const copy = d.messages[3];
    assert.equal(d.messages[2].content, 'What does df hold, by region?');
    assert.equal(copy.content, 'What does df hold, by year?');
    assert.deepEqual(conflictOf(copy), { side: 'theirs', of: 'prmt0001' });
  });

  it('git diff shows a one-line change in a code cell as a one-line diff, no base64, no JSON', () => {
    const d = read();
    d.msg('code0001').content = d.msg('code0001').content.replace('df.head()', 'df.tail()');
    d.msg('code0002').output = [{ output_type: 'display_data', metadata: {}, data: { 'image/png': 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' } }];
    write(d);
    const diff = ok('diff', '-U0');
    const changed = diff.split('\n').filter((l) => /^[+-]/.test(l) && !/^(\+\+\+ b|--- a)\//.test(l));
    assert.deepEqual(changed, ['-df.head()', '+df.tail()', '+--- output ---', '+[display_data]', '+(image/png, 70 B)']);
    assert.ok(!diff.includes('iVBOR'));
  });

  it('dlg show: one block per message with its type and id, the reply after a marker', () => {
    const r = run(process.execPath, cli, 'show', FILE);
    assert.equal(r.status, 0);
    assert.equal(
      r.stdout,
      [
        '=== note intro001 ===\n# Analysis\nLoad the data.\n',
        '=== code code0001 ===\nimport pandas as pd\ndf = pd.read_csv("a.csv")\ndf.head()\n--- output ---\n[stdout]\nok\n',
        '=== prompt prmt0001 ===\nWhat does df hold?\n--- reply ---\nSales by month.\n',
        '=== code code0002 ===\ndf.plot()\n',
      ].join('\n'),
    );
  });

  it('dlg merge of an unreadable side: exit 2, OURS untouched', () => {
    const ours = join(repo, FILE);
    const before = readFileSync(ours, 'utf8');
    writeFileSync(join(repo, 'bad.ipynb'), '{"cells": [');
    const r = run(process.execPath, cli, 'merge', ours, ours, join(repo, 'bad.ipynb'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /bad\.ipynb: not JSON/);
    assert.equal(readFileSync(ours, 'utf8'), before);
  });
});
