// The search index's engines as the desktop worker chooses them (issue 53): node:sqlite on a file where
// this Node has it with FTS5, else sqlite-wasm in memory. The unit suite's Node 20 has no node:sqlite, so
// it checks the fallback and skips the file engine's tests; under a Node with it (22.13+, code-server's 24):
//   /path/to/node24 node_modules/.bin/mocha test/unit/nodeSqlite.test.ts
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeIpynb } from '../../src/core/ipynb';
import { Dialog, Message } from '../../src/core/model';
import { parseQuery } from '../../src/core/search';
import { IndexCalls } from '../../src/extension/search/indexCalls';
import { nodeSqlite, openNodeSqliteFile, removeIndexFile } from '../../src/node/nodeSqlite';

const engine = { open: openNodeSqliteFile, remove: removeIndexFile };
const dialog = (n: number, words: string) =>
  writeIpynb(new Dialog([new Message({ id: `p${String(n).padStart(7, '0')}`, msgType: 'prompt', content: `Question ${n}?`, output: `Answer ${n}: ${words}` })]));
const hits = (calls: IndexCalls, q: string) => calls.search(parseQuery(q), { limit: 50 }).hits.map((h) => [h.file, h.id, h.kind]);

describe('search: the engine the desktop worker chooses', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dialog-node-sqlite-'));
    file = join(dir, 'search-index.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('without node:sqlite with FTS5, opens no file and runs sqlite-wasm in memory', async function () {
    if (nodeSqlite()) this.skip();
    const calls = new IndexCalls(engine);
    assert.equal(calls.openFile(file), undefined);
    assert.ok(!existsSync(file));
    assert.equal(await calls.open(readFileSync('node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm')), undefined);
    calls.putTexts([['a.ipynb', 's1', dialog(1, 'quokka marmalade')]]);
    assert.deepEqual(hits(calls, 'quokka'), [['a.ipynb', 'p0000001', 'reply']]);
    assert.ok(calls.save() instanceof Uint8Array);
    calls.close();
  });

  describe('node:sqlite on a file', () => {
    before(function () {
      if (!nodeSqlite()) this.skip();
    });

    it('keeps the index in its file: many dialogs a transaction, found again after closing', () => {
      const calls = new IndexCalls(engine);
      assert.match(calls.openFile(file)!.engine, /^node:sqlite 3\./);
      calls.putTexts([
        ['a.ipynb', 's1', dialog(1, 'quokka marmalade')],
        ['b.ipynb', 's2', dialog(2, 'zanzibar pivot')],
        ['broken.ipynb', 's3', '{"cells": ['],
      ]);
      // Nothing to save: every commit is in the file.
      assert.equal(calls.save(), undefined);
      calls.close();
      const again = new IndexCalls(engine);
      assert.equal(again.openFile(file)!.damaged, undefined);
      assert.deepEqual(new Map(again.stamps()), new Map([['a.ipynb', 's1'], ['b.ipynb', 's2'], ['broken.ipynb', 's3']]));
      assert.deepEqual(hits(again, 'zanzibar piv'), []);
      assert.deepEqual(again.search(parseQuery('zanzibar piv'), { limit: 5, prefixLast: true }).hits.map((h) => h.file), ['b.ipynb']);
      assert.deepEqual(again.broken().map((b) => b.file), ['broken.ipynb']);
      again.close();
    });

    it('replaces a file that is not a database by an empty index, and says why', () => {
      writeFileSync(file, Buffer.alloc(8192, 7));
      const calls = new IndexCalls(engine);
      const opened = calls.openFile(file)!;
      assert.match(opened.damaged ?? '', /not a database/i);
      assert.deepEqual(calls.stamps(), []);
      calls.putText('a.ipynb', 's1', dialog(1, 'quokka'));
      assert.equal(hits(calls, 'quokka').length, 1);
      calls.close();
    });

    it('empties an index found damaged while in use, to be rebuilt, and goes on', () => {
      const calls = new IndexCalls(engine);
      calls.openFile(file);
      calls.putTexts(Array.from({ length: 300 }, (_, n) => [`d${n}.ipynb`, 's', dialog(n, `word${n} `.repeat(200))] as [string, string, string]));
      calls.close();
      // The first page stays (the schema reads), the others are noise.
      const bytes = readFileSync(file);
      bytes.fill(7, 4096);
      writeFileSync(file, bytes);
      const damaged = new IndexCalls(engine);
      damaged.openFile(file);
      assert.throws(() => damaged.search(parseQuery('word299'), { limit: 5 }), /damaged index/);
      assert.deepEqual(damaged.stamps(), []);
      damaged.putText('a.ipynb', 's1', dialog(1, 'quokka'));
      assert.equal(hits(damaged, 'quokka').length, 1);
      damaged.close();
    });
  });
});
