// `dlg` on files it must refuse: one line on stderr saying what is wrong and where, exit 2, no stack
// trace and nothing on stdout; and bytes it reads are never silently replaced (U+FFFD) or dropped (BOM).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstInvalidUtf8 } from '../../src/cli/readFile';
import { cliBundle } from './cliProcess';

// Bytes in and out: its output as a Buffer.
const dlg = (...args: string[]) => spawnSync(process.execPath, [cliBundle(), ...args], { timeout: 50000 });

describe('cli: files dlg refuses', function () {
  this.timeout(120000);
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'dlg-cli-errors-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function refused(name: string, bytes: Uint8Array | string, pattern: RegExp, cmds: string[]): void {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    for (const cmd of cmds) {
      const r = dlg(cmd, file);
      const err = r.stderr.toString();
      assert.equal(r.status, 2, `${cmd}: ${err}`);
      assert.equal(r.stdout.length, 0, cmd);
      assert.equal(err.split('\n').length, 2, `${cmd}: one line: ${err}`);
      assert.match(err.trimEnd(), pattern, cmd);
    }
  }

  it('a file that is not UTF-8', () => {
    const text = Buffer.from('{"cells": [], "metadata": {"a": "caf\u00e9"}, "nbformat": 4, "nbformat_minor": 5}', 'latin1');
    refused('latin1.ipynb', text, /latin1\.ipynb: not UTF-8 text \(invalid byte 0xe9 at offset 36\)$/, ['roundtrip', 'golden']);
  });

  it('a file nested too deep', () => {
    refused('deep.ipynb', '['.repeat(20_000) + ']'.repeat(20_000), /deep\.ipynb: too deep: nested deeper than 1000 levels at line 1 column 1001$/, ['roundtrip']);
    const cell = `{"cell_type": "raw", "id": "a", "metadata": {"x": ${'{"y": '.repeat(5000)}1${'}'.repeat(5000)}}, "source": ""}`;
    refused('deepCell.ipynb', `{"cells": [${cell}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`, /deepCell\.ipynb: too deep: nested deeper than 1000 levels at line 1 column \d+$/, ['validate']);
  });

  it('a BOM and valid UTF-8 come back byte for byte', () => {
    const file = join(dir, 'bom.ipynb');
    const text = '\ufeff{"cells": [], "metadata": {"a": "caf\u00e9 🤖"}, "nbformat": 4, "nbformat_minor": 5}';
    writeFileSync(file, text);
    const r = dlg('roundtrip', file);
    assert.equal(r.status, 0);
    assert.deepEqual(r.stdout, Buffer.from(text));
  });

  it('the first invalid byte of UTF-8: overlong forms, surrogates, truncation, beyond U+10FFFF', () => {
    const at = (...b: number[]) => firstInvalidUtf8(new Uint8Array(b));
    assert.equal(at(0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0xa4, 0x96), -1);
    assert.equal(at(0x61, 0xc0, 0xaf), 1);
    assert.equal(at(0xe0, 0x80, 0xaf), 0);
    assert.equal(at(0x61, 0xed, 0xa0, 0x80), 1);
    assert.equal(at(0x61, 0x62, 0xe2, 0x82), 2);
    assert.equal(at(0xf4, 0x90, 0x80, 0x80), 0);
    assert.equal(at(0x80), 0);
  });
});
