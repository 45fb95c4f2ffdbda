// The `dlg` command line, run as a user runs it: a separate process, exit codes, stdout and stderr.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { Attachment, Dialog, Message } from '../../src/core/model';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { headerLevel } from '../../src/core/model';
import { b64decode } from '../../src/core/base';
import { SHARED } from './corpus';
import { dlg } from './cliProcess';

const corpus = (p: string) => join(SHARED, 'corpus', p);

describe('cli: dlg', function () {
  this.timeout(60000);

  it('roundtrip prints the exact bytes of an unedited non-canonical file', () => {
    const r = dlg('roundtrip', corpus('synthetic/edge_formatting.ipynb'));
    assert.equal(r.status, 0);
    assert.equal(r.stdout, readFileSync(corpus('synthetic/edge_formatting.ipynb'), 'utf8'));
  });

  it('an unreadable file: exit 2, one line naming the place, nothing on stdout', () => {
    for (const [file, pattern] of [
      [corpus('synthetic/edge_not_json.ipynb'), /edge_not_json\.ipynb: not JSON: .* at line 1 column \d+$/],
      [corpus('synthetic/does_not_exist.ipynb'), /does_not_exist\.ipynb: cannot read file \(ENOENT\)$/],
    ] as const) {
      const r = dlg('golden', file);
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      assert.match(r.stderr.trimEnd(), pattern);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1);
    }
  });

  it('validate: exit 1 with one line per problem, exit 0 and silence for a sound dialog', () => {
    const bad = dlg('validate', corpus('synthetic/edge_duplicate_ids.ipynb'));
    assert.equal(bad.status, 1);
    assert.deepEqual(bad.stdout.trimEnd().split('\n').map((l) => l.replace(/^.*?\.ipynb: /, '')), ['duplicate message id(s): dup1']);
    const good = dlg('validate', corpus('synthetic/basic.ipynb'));
    assert.equal(good.status, 0);
    assert.equal(good.stdout, '');
  });

  it('validate: the read repairs, then the repeated ids together on one line', () => {
    const nb = JSON.parse(readFileSync(corpus('synthetic/edge_duplicate_ids.ipynb'), 'utf8'));
    delete nb.nbformat;
    nb.cells.push({ cell_type: 'code', id: 'dup2', metadata: {}, source: 'y', outputs: [], execution_count: null });
    nb.cells.push({ cell_type: 'code', id: 'dup2', metadata: {}, source: 'z', outputs: [], execution_count: null });
    const dir = mkdtempSync(join(tmpdir(), 'dlg-cli-validate-'));
    try {
      const file = join(dir, 'd.ipynb');
      writeFileSync(file, JSON.stringify(nb));
      const r = dlg('validate', file);
      assert.equal(r.status, 1);
      assert.deepEqual(r.stdout.trimEnd().split('\n'), [`${file}: repaired on read: added notebook nbformat`, `${file}: duplicate message id(s): dup1, dup2`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('outline: one line per message, headings indented by their nesting', () => {
    const path = corpus('synthetic/sections.ipynb');
    const d = readIpynb(readFileSync(path, 'utf8'));
    const lines = dlg('outline', path).stdout.trimEnd().split('\n');
    assert.equal(lines.length, d.messages.length);
    d.messages.forEach((m, i) => {
      assert.ok(lines[i].endsWith(`[${m.id}]`), lines[i]);
      if (headerLevel(m) === 1) assert.match(lines[i], /^\S/, 'a level-1 heading is not indented');
    });
  });

  it('golden: the model in the golden schema', () => {
    const r = dlg('golden', corpus('synthetic/replies.ipynb'));
    const g = JSON.parse(r.stdout);
    const want = JSON.parse(readFileSync(join(SHARED, 'golden/synthetic/replies.json'), 'utf8'));
    assert.equal(g.messages.length, want.messages.length);
    assert.deepEqual(g.messages.map((m: { id: string }) => m.id), want.messages.map((m: { id: string }) => m.id));
    assert.deepEqual(g.hist_plain, want.hist_plain);
    assert.equal(g.roundtrip_equals_input, true);
  });

  it('hist: scales images above --max-pixels down before they enter the history', async () => {
    const png = new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: 'red' } }).png().toBuffer());
    const att = new Attachment(png, 'image/png');
    const d = new Dialog([new Message({ msgType: 'prompt', content: `What is this? ![](attachment:${att.id})`, attachments: [att] })]);
    const dir = mkdtempSync(join(tmpdir(), 'dlg-cli-'));
    writeFileSync(join(dir, 'img.ipynb'), writeIpynb(d));
    const sizes = async (max: string) => {
      const turns = JSON.parse(dlg('hist', join(dir, 'img.ipynb'), '--json', '--max-pixels', max).stdout);
      const rec = turns[0].parts.find((p: unknown) => typeof p === 'object');
      return rec.len as number;
    };
    assert.equal(await sizes('100000'), png.length, 'small enough: bytes pass through');
    const scaled = await sharp(png).resize(11, 8, { kernel: 'lanczos3', fit: 'fill' }).png().toBuffer();
    assert.equal(await sizes('100'), scaled.length, 'scaled to 11×8, √(100 / (64·48)) of each side');
  });

  (process.platform === 'win32' ? it.skip : it)('hist reads #ai files only inside the dialog\'s folder (or --root), regular and capped', () => {
    const top = mkdtempSync(join(tmpdir(), 'dlg-cli-refs-'));
    try {
      const dir = join(top, 'dialogs');
      mkdirSync(dir);
      const png = b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==');
      writeFileSync(join(dir, 'good.png'), png);
      writeFileSync(join(dir, 'notes.txt'), 'a < b\n');
      writeFileSync(join(top, 'secret.png'), png);
      symlinkSync(join(top, 'secret.png'), join(dir, 'link.png'));
      execFileSync('mkfifo', [join(dir, 'pipe.png')]);
      writeFileSync(join(dir, 'big.png'), png);
      truncateSync(join(dir, 'big.png'), 20_000_001); // sparse: nothing is written, the size is what counts
      const refs = ['good.png', '../secret.png', 'link.png', 'pipe.png', '/dev/zero', '/etc/passwd', 'big.png', 'notes.txt'];
      const d = new Dialog([new Message({ msgType: 'prompt', content: refs.map((r) => `![](${r}#ai)`).join(' ') })]);
      writeFileSync(join(dir, 'refs.ipynb'), writeIpynb(d));
      const media = (...opts: string[]) => {
        const r = dlg('hist', join(dir, 'refs.ipynb'), ...opts);
        assert.equal(r.status, 0, r.stderr);
        return [...r.stdout.matchAll(/<media(?:-unavailable)? id="([^"]+)"([^>]*)>/g)].map((m) => `${m[1]}: ${/reason="([^"]*)"/.exec(m[2])?.[1] ?? 'read'}`);
      };
      const outside = "not inside the dialog's folder";
      assert.deepEqual(media(), [
        'good.png: read',
        `../secret.png: ${outside}`,
        "link.png: links to a file not inside the dialog's folder",
        'pipe.png: a FIFO, not a regular file',
        `/dev/zero: ${outside}`,
        `/etc/passwd: ${outside}`,
        'big.png: larger than 20MB (20MB)',
      ]);
      assert.ok(dlg('hist', join(dir, 'refs.ipynb')).stdout.includes('<file path="notes.txt">a < b\n</file>'), 'a text file as its text');
      assert.deepEqual(media('--root', top).slice(0, 3), ['good.png: read', '../secret.png: read', 'link.png: read']);
      assert.match(dlg('hist', join(dir, 'refs.ipynb'), '--root', join(top, 'nope')).stderr, /--root .*nope: not a folder/);
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });
});
