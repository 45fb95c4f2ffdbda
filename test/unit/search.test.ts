// Message search: the parts a dialog is indexed as, the query language, and the FTS5 index (in the real
// sqlite-wasm engine the extension ships) over the whole corpus.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DialogReadError, readIpynb } from '../../src/core/ipynb';
import { Dialog, Message, aiRes } from '../../src/core/model';
import { SEARCH_SCHEMA_VERSION, SearchIndex, dialogParts, messageSearchParts, ftsMatch, ftsTiers, markSnippet, matchedWords, parseQuery, shapeSnippet, termPattern, termSnippet, HIT_OPEN, HIT_CLOSE } from '../../src/core/search';
import { loadSqlite, openWasmSqlite } from '../../src/node/wasmSqlite';
import { zlibTextPacker } from '../../src/node/textPacker';
import { SHARED, corpusFiles } from './corpus';
import { dlg } from './cliProcess';

function corpusDialogs(): { file: string; dialog: Dialog }[] {
  const out: { file: string; dialog: Dialog }[] = [];
  for (const f of corpusFiles()) {
    try {
      out.push({ file: `${f.set}/${f.stem}.ipynb`, dialog: readIpynb(readFileSync(f.path, 'utf8'), f.stem) });
    } catch (e) {
      if (!(e instanceof DialogReadError)) throw e;
    }
  }
  return out;
}

describe('search: the parts of a dialog', () => {
  const dialogs = corpusDialogs();

  it('splits a prompt from its reply, and a code cell from its output', () => {
    let prompts = 0;
    for (const { dialog } of dialogs) {
      for (const m of dialog.messages) {
        const mine = messageSearchParts(m);
        if (m.msgType === 'prompt' && m.content.trim() && aiRes(m).trim()) {
          prompts++;
          assert.equal(mine.find((p) => p.kind === 'prompt')?.text, m.content);
          assert.equal(mine.find((p) => p.kind === 'reply')?.text, aiRes(m));
        }
        if (m.msgType === 'code' && m.content.trim()) assert.equal(mine.find((p) => p.kind === 'code')?.text, m.content);
        if (m.msgType === 'note' && m.content.trim()) assert.deepEqual(mine.map((p) => p.kind), ['note']);
      }
    }
    assert.ok(prompts > 100, `only ${prompts} prompts with replies in the corpus`);
  });

  it('never indexes image bytes or attachments: no base64 run in any part of the corpus', () => {
    let outputs = 0;
    for (const { dialog } of dialogs) {
      for (const p of dialogParts(dialog)) {
        if (p.kind === 'output') outputs++;
        if (p.kind === 'output') assert.ok(!/[A-Za-z0-9+/]{400,}/.test(p.text), `${dialog.name} ${p.id}: a base64 run in an output part`);
        assert.ok(!/iVBORw0KGgo/.test(p.kind === 'output' ? p.text : ''), 'a PNG in an output part');
      }
    }
    assert.ok(outputs > 50);
  });

  it('reads outputs as text: streams as a terminal showed them, text/plain, errors without ANSI; marks skipped messages', () => {
    const m = new Message({
      msgType: 'code',
      content: 'x',
      skipped: 1,
      output: [
        { output_type: 'stream', name: 'stdout', text: ['10%\r100% done\n'] },
        { output_type: 'display_data', metadata: {}, data: { 'image/png': 'iVBORw0KGgoAAAA', 'text/plain': '<Figure size 640x480>' } },
        { output_type: 'error', ename: 'KeyError', evalue: "'a'", traceback: ['\x1b[0;31mKeyError\x1b[0m: \'a\''] },
      ],
    });
    const d = new Dialog([m]);
    const [code, out] = dialogParts(d);
    assert.deepEqual([code.kind, out.kind, out.skipped], ['code', 'output', true]);
    assert.equal(out.text, "100% done\n\n<Figure size 640x480>\nKeyError: 'a'");
  });
});

describe('search: the query language', () => {
  it('reads words, phrases, negations, kinds, folders and a regex', () => {
    const q = parseQuery('pandas "melt a frame" -polars kind:reply,code in:./notes/2024 /re[ad]_csv/');
    assert.deepEqual(q.terms, [
      { text: 'pandas', phrase: false, negated: false },
      { text: 'melt a frame', phrase: true, negated: false },
      { text: 'polars', phrase: false, negated: true },
    ]);
    assert.deepEqual(q.kinds, ['reply', 'code']);
    assert.deepEqual(q.folders, ['notes/2024/']);
    assert.equal(q.regex?.source, 're[ad]_csv');
    assert.equal(q.regex?.flags, 'i');
    assert.equal(ftsMatch(q), '("pandas" "melt a frame") NOT "polars"');
    assert.equal(ftsMatch(q, { prefixLast: true }), '("pandas" "melt a frame") NOT "polars"');
    assert.equal(ftsMatch(parseQuery('how to mel'), { prefixLast: true }), '"how" "to" "mel"*');
  });

  it('searches a last word typed whole as typed first, then its longer forms alone', () => {
    assert.deepEqual(ftsTiers(parseQuery('how to mel -x'), { prefixLast: true }), ['("how" "to" "mel") NOT "x"', '(("how" "to" "mel"*) NOT "x") NOT "mel"']);
    assert.deepEqual(ftsTiers(parseQuery('how to mel')), ['"how" "to" "mel"']);
    assert.deepEqual(ftsTiers(parseQuery('how "to mel"'), { prefixLast: true }), ['"how" "to mel"']);
    assert.equal(ftsTiers(parseQuery('-only'), { prefixLast: true }), null);
  });

  it('quotes FTS syntax so it is searched as words, and an unknown kind as a word', () => {
    assert.equal(ftsMatch(parseQuery('a OR b* NEAR( x kind:nope "unclosed phr')), '"a" "OR" "b*" "NEAR(" "x" "kind:nope" "unclosed phr"');
    assert.equal(ftsMatch(parseQuery('say "he said ""hi"""')), '"say" "he said " "hi"');
    assert.equal(ftsMatch(parseQuery('-only -negatives')), null);
    assert.equal(parseQuery('/(unclosed/').regexError !== undefined, true);
    assert.equal(parseQuery('/Exact/').regex?.flags, '');
  });

  it('shapes a snippet to one line with its matches as ranges', () => {
    const s = shapeSnippet(`…use\n  ${HIT_OPEN}pd.melt${HIT_CLOSE} on ${HIT_OPEN}frames${HIT_CLOSE}`);
    assert.equal(s.text, '…use pd.melt on frames');
    assert.deepEqual(s.ranges.map(([a, b]) => s.text.slice(a, b)), ['pd.melt', 'frames']);
    assert.equal(markSnippet(s), '…use **pd.melt** on **frames**');
  });
});

describe('search: snippets made from a part\'s text', () => {
  const snip = (text: string, query: string, prefixLast = false) => {
    const s = termSnippet(text, termPattern(parseQuery(query), { prefixLast })!);
    return s && markSnippet(s);
  };

  it('marks whole words, the last as a prefix, a phrase or a joined word with its separators, case and accents ignored', () => {
    assert.equal(snip('Use pd.melt on the frames; melting is slow', 'melt Frame', true), 'Use pd.**melt** on the **frames**; melting is slow');
    assert.equal(snip('call read_csv, then "read  CSV" again', '"read csv"'), 'call **read_csv**, then "**read CSV**" again');
    assert.equal(snip('a quiet crème brûlée recipe', 'creme BRULEE'), 'a quiet **crème** **brûlée** recipe');
    assert.equal(snip('a quiet creme brulee recipe', 'crème'), 'a quiet **creme** brulee recipe');
    assert.equal(snip('remelt and melted', 'melt'), null);
    assert.equal(termPattern(parseQuery('-only kind:reply')), null);
  });

  it('shows the window with the most different terms, cut at whole words', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(20);
    const text = `wombat ${filler}the wombat and the quokka share a burrow ${filler}`;
    const s = snip(text, 'wombat quokka')!;
    assert.match(s, /^…\S* ?.*\*\*wombat\*\* and the \*\*quokka\*\* share a burrow .*…$/);
    assert.ok(s.length < 170, s);
    for (const w of s.replace(/^…|…$/g, '').split(' ')) assert.ok(text.includes(w.replace(/\*\*/g, '')), w);
  });
});

describe('search: the quick pick row\'s words', () => {
  it('names the word each typed word matched, in the order typed: a prefix completed, a word not shown as typed', () => {
    const s = shapeSnippet(`use the ${HIT_OPEN}Quokka${HIT_CLOSE} pivot: melt the ${HIT_OPEN}marmalade${HIT_CLOSE} ${HIT_OPEN}columns${HIT_CLOSE}`);
    assert.equal(matchedWords(s, parseQuery('marmalade quokka col')), 'marmalade Quokka columns');
    assert.equal(matchedWords(s, parseQuery('quokka -pear wombat kind:reply')), 'Quokka wombat');
    assert.equal(matchedWords(s, parseQuery('/quok+a/')), '');
  });
});

describe('search: the FTS5 index over the corpus (sqlite-wasm)', () => {
  const dialogs = corpusDialogs();
  let index: SearchIndex;
  let db: Awaited<ReturnType<typeof openWasmSqlite>>;

  before(async () => {
    db = openWasmSqlite(await loadSqlite());
    index = new SearchIndex(db);
    index.transaction(() => {
      for (const { file, dialog } of dialogs) index.put(file, 'stamp', dialogParts(dialog));
      index.putBroken('synthetic/edge_not_json.ipynb', 'stamp', 'not JSON');
    });
  });

  /** Three words from the middle of a long reply of the corpus, and where they are. */
  function rememberedReply(): { file: string; id: string; words: string } {
    for (const { file, dialog } of dialogs) {
      for (const m of dialog.messages) {
        const words = aiRes(m).match(/\b[a-z]{7,}\b/g);
        if (words && words.length > 60) return { file, id: m.id, words: words.slice(30, 33).join(' ') };
      }
    }
    throw new Error('no long reply in the corpus');
  }

  it('finds the reply three remembered words come from, ranked, with a highlighted snippet', () => {
    const want = rememberedReply();
    const { hits } = index.search(parseQuery(`${want.words} kind:reply`), { limit: 100 });
    const hit = hits.find((h) => h.file === want.file && h.id === want.id);
    assert.ok(hit, `no hit for "${want.words}" in ${want.file} ${want.id}`);
    assert.equal(hit.kind, 'reply');
    assert.ok(hit.snippet.ranges.length > 0);
    assert.ok(hits.every((h) => h.kind === 'reply'));
    for (let k = 1; k < hits.length; k++) assert.ok(hits[k - 1].score >= hits[k].score, 'ranked best first');
  });

  it('filters by folder, excludes words, and matches the last word as a prefix', () => {
    const all = index.search(parseQuery('import'), { limit: 1000 }).hits;
    assert.ok(all.some((h) => h.file.startsWith('synthetic/')) && all.some((h) => h.file.startsWith('public/')));
    assert.ok(index.search(parseQuery('import in:public'), { limit: 1000 }).hits.every((h) => h.file.startsWith('public/')));
    const without = index.search(parseQuery('import -numpy'), { limit: 1000 }).hits;
    assert.ok(without.length < all.length);
    assert.ok(index.search(parseQuery('dataclas'), { prefixLast: true }).hits.length > 0);
    assert.equal(index.search(parseQuery('dataclas')).hits.length, 0);
  });

  it('searches the regex form by reading the text, and says so', () => {
    const r = index.search(parseQuery('/def \\w+_\\w+\\(/ kind:code'), { limit: 5 });
    assert.equal(r.scanned, true);
    assert.equal(r.hits.length, 5);
    assert.ok(r.hits.every((h) => /def \w+_\w+\(/.test(h.snippet.text)));
  });

  it('re-indexes a changed dialog by its changed parts: the others keep their rows, the old text is gone', () => {
    const file = 'changed/one.ipynb';
    const parts = [
      { id: 'a1', kind: 'prompt' as const, text: 'the wombat question', skipped: false },
      { id: 'a1', kind: 'reply' as const, text: 'the wombat answer', skipped: false },
      { id: 'b2', kind: 'note' as const, text: 'a platypus note', skipped: false },
    ];
    index.transaction(() => index.put(file, 's1', parts));
    const rowids = () => db.rows('SELECT id, kind, rowid FROM parts WHERE fid = (SELECT fid FROM files WHERE file = ?) ORDER BY rowid', [file]).map((r) => r.join(' '));
    const before = rowids();
    index.transaction(() => index.put(file, 's2', [parts[0], { ...parts[1], text: 'the echidna answer' }, { ...parts[2], skipped: true }]));
    const after = rowids();
    assert.equal(after[0], before[0], 'the unchanged prompt keeps its row');
    assert.equal(after.length, 3);
    const hits = (q: string) => index.search(parseQuery(q), { limit: 10 }).hits.filter((h) => h.file === file);
    assert.deepEqual(hits('wombat answer'), []);
    assert.deepEqual(hits('echidna').map((h) => h.kind), ['reply']);
    assert.deepEqual(hits('platypus').map((h) => h.skipped), [true]);
    assert.equal(index.stamp(file), 's2');
    index.remove(file);
  });

  it('re-indexes the messages an open dialog changed, only while it holds the version they were changed from', () => {
    const file = 'changed/open.ipynb';
    const note = (id: string, text: string) => ({ id, kind: 'note' as const, text, skipped: false });
    index.transaction(() => index.put(file, 'open:1', [note('a1', 'a quokka note'), note('b2', 'a numbat note'), note('c3', 'a bilby note')]));
    const rowOf = (id: string) => db.rows('SELECT rowid FROM parts WHERE fid = (SELECT fid FROM files WHERE file = ?) AND id = ?', [file, id]).map((r) => Number(r[0]));
    const kept = rowOf('b2');
    // a1 edited, c3 deleted, d4 added; b2 untouched
    assert.equal(index.transaction(() => index.putMessages(file, 'open:1', 'open:2', ['a1', 'c3', 'd4'], [note('a1', 'a wallaby note'), note('d4', 'a dingo note')])), true);
    const found = (q: string) => index.search(parseQuery(q), { limit: 10 }).hits.filter((h) => h.file === file).map((h) => h.id);
    assert.deepEqual(found('quokka'), []);
    assert.deepEqual(found('wallaby'), ['a1']);
    assert.deepEqual(found('numbat'), ['b2']);
    assert.deepEqual(rowOf('b2'), kept, 'the untouched message keeps its row');
    assert.deepEqual(found('bilby'), []);
    assert.deepEqual(found('dingo'), ['d4']);
    assert.equal(index.stamp(file), 'open:2');
    // The index holds another version (the file was read from disk meanwhile): nothing is done.
    assert.equal(index.putMessages(file, 'open:1', 'open:3', ['a1'], [note('a1', 'a kiwi note')]), false);
    assert.deepEqual(found('kiwi'), []);
    assert.equal(index.stamp(file), 'open:2');
    index.remove(file);
  });

  it('snippets a match FTS5 made by folding diacritics', () => {
    const file = 'accents/one.ipynb';
    index.transaction(() => index.put(file, 's1', [{ id: 'c1', kind: 'note', text: 'a quiet crème brûlée recipe', skipped: false }]));
    const [hit] = index.search(parseQuery('creme brulee'), { limit: 10 }).hits.filter((h) => h.file === file);
    assert.equal(markSnippet(hit.snippet), 'a quiet **crème** **brûlée** recipe');
    index.remove(file);
  });

  it('ranks a last word typed whole before its longer forms, and finds those too', () => {
    const file = 'tiers/one.ipynb';
    const note = (id: string, text: string) => ({ id, kind: 'note' as const, text, skipped: false });
    index.transaction(() => index.put(file, 's1', [note('a', 'the zorbling zorblings zorblingly, zorblings again'), note('b', 'one zorbling'), note('c', 'a lone zorblinger')]));
    const ids = (limit: number) => index.search(parseQuery('zorbling'), { limit, prefixLast: true }).hits.map((h) => h.id);
    assert.deepEqual(ids(10).slice(0, 2).sort(), ['a', 'b']);
    assert.deepEqual(ids(10)[2], 'c');
    assert.deepEqual(ids(2).sort(), ['a', 'b'], 'the exact matches fill the page: the longer forms are not searched');
    const c = index.search(parseQuery('zorblinge'), { limit: 10, prefixLast: true }).hits;
    assert.deepEqual(c.map((h) => markSnippet(h.snippet)), ['a lone **zorblinger**']);
    index.remove(file);
  });

  it('searches input with FTS syntax errors as plain words', () => {
    assert.doesNotThrow(() => index.search(parseQuery('"unbalanced AND ( OR * NEAR/')));
  });

  it('forgets a removed dialog, lists a broken one, and keeps stamps', () => {
    const { file } = rememberedReply();
    index.remove(file);
    assert.ok(!index.search(parseQuery('import'), { limit: 1000 }).hits.some((h) => h.file === file));
    assert.deepEqual(index.broken(), [{ file: 'synthetic/edge_not_json.ipynb', reason: 'not JSON' }]);
    assert.equal(index.stamps().get(file), undefined);
    assert.equal(index.stamps().get(dialogs[1].file), 'stamp');
  });

  it('is kept as the bytes of an SQLite file, and refuses damaged bytes', async () => {
    const sqlite3 = await loadSqlite();
    const bytes = db.save();
    const again = new SearchIndex(openWasmSqlite(sqlite3, bytes));
    assert.deepEqual(again.stamps(), index.stamps());
    const cut = bytes.slice(0, Math.floor(bytes.length / 2));
    const noise = new Uint8Array(4096).fill(7);
    for (const bad of [cut, noise]) assert.throws(() => new SearchIndex(openWasmSqlite(sqlite3, bad)));
  });
});

describe('search: the index with its text packed (node:zlib, as the desktop worker keeps it)', () => {
  it('keeps long texts packed, searches and snippets them, re-indexes by changed parts, and forgets them', async () => {
    const db = openWasmSqlite(await loadSqlite());
    const index = new SearchIndex(db, zlibTextPacker);
    const long = `${'the wombat digs a burrow under the old gum tree. '.repeat(100)}Then the quokka smiles.`;
    const parts = [
      { id: 'a', kind: 'reply' as const, text: long, skipped: false },
      { id: 'b', kind: 'note' as const, text: 'a short numbat note', skipped: false },
    ];
    index.transaction(() => index.put('z.ipynb', 's1', parts));
    const kinds = db.rows('SELECT id, typeof(text) FROM parts ORDER BY id').map((r) => r.join(' '));
    assert.deepEqual(kinds, ['a blob', 'b text']);
    const [hit] = index.search(parseQuery('quokka smil'), { prefixLast: true }).hits;
    assert.equal(markSnippet(hit.snippet).endsWith('Then the **quokka** **smiles**.'), true, markSnippet(hit.snippet));
    assert.equal(index.search(parseQuery('/quokka smiles/')).hits.length, 1);
    assert.equal(index.search(parseQuery('/QUOKKA/')).hits.length, 0);
    const rowOf = () => db.rows("SELECT rowid FROM parts WHERE id = 'a'")[0][0];
    const kept = rowOf();
    index.transaction(() => index.put('z.ipynb', 's2', [parts[0], { ...parts[1], text: 'a short bilby note' }]));
    assert.equal(rowOf(), kept, 'the unchanged packed part keeps its row');
    assert.deepEqual(index.search(parseQuery('numbat')).hits, []);
    index.remove('z.ipynb');
    assert.deepEqual(index.search(parseQuery('wombat')).hits, []);
    assert.deepEqual(db.rows("SELECT count(*) FROM parts_fts WHERE parts_fts MATCH 'wombat OR bilby'"), [[0]]);
  });

  it('rebuilds an index of an older schema by itself', async () => {
    const db = openWasmSqlite(await loadSqlite());
    db.exec("CREATE TABLE files(fid INTEGER PRIMARY KEY, file TEXT NOT NULL UNIQUE, stamp TEXT NOT NULL, broken TEXT); CREATE TABLE parts(rowid INTEGER PRIMARY KEY, fid INTEGER, id TEXT, kind TEXT, skipped INTEGER, text TEXT); CREATE VIRTUAL TABLE parts_fts USING fts5(text, content='parts', content_rowid='rowid'); CREATE TRIGGER parts_ai AFTER INSERT ON parts BEGIN INSERT INTO parts_fts(rowid, text) VALUES (new.rowid, new.text); END; INSERT INTO files VALUES (1, 'old.ipynb', 'old', NULL); INSERT INTO parts VALUES (1, 1, 'x', 'note', 0, 'an old wombat'); PRAGMA user_version = 2;");
    const index = new SearchIndex(db, zlibTextPacker);
    assert.deepEqual([...index.stamps()], []);
    assert.deepEqual(db.rows('PRAGMA user_version'), [[SEARCH_SCHEMA_VERSION]]);
    index.transaction(() => index.put('new.ipynb', 's', [{ id: 'y', kind: 'note', text: 'a new wombat', skipped: false }]));
    assert.deepEqual(index.search(parseQuery('wombat')).hits.map((h) => h.file), ['new.ipynb']);
  });
});

describe('search: dlg search QUERY [FOLDER]', () => {
  // A folder of a few corpus dialogs, in their corpus folders: the whole corpus takes each run many seconds.
  let folder = '';
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'dlg-search-'));
    const picks = ['public/franckalbinet__marisco__helcom.ipynb', 'public/franckalbinet__marisco__geotraces.ipynb', 'public/franckalbinet__marisco___netcdf2csv.ipynb', 'synthetic/basic.ipynb', 'synthetic/outputs.ipynb'];
    for (const f of picks) {
      mkdirSync(join(folder, dirname(f)), { recursive: true });
      copyFileSync(join(SHARED, 'corpus', f), join(folder, f));
    }
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('prints the hits of the folder\'s dialogs best first, as lines or JSON; exit 1 when none', () => {
    const lines = dlg('search', '"read_csv"', folder, '--limit', '3');
    assert.equal(lines.status, 0, lines.stderr);
    const rows = lines.stdout.trim().split('\n').map((l) => l.split('\t'));
    assert.equal(rows.length, 3);
    for (const [file, id, kind, snippet] of rows) {
      assert.match(file, /^(public|synthetic|perf)\/.*\.ipynb$/);
      assert.match(id, /\S/);
      assert.ok(['code', 'output', 'reply', 'prompt', 'note', 'raw'].includes(kind.split(' ')[0]));
      assert.match(snippet, /\*\*read_csv\*\*/i);
    }
    const json = dlg('search', 'read_csv kind:code', folder, '--json', '--limit', '2');
    const hits = JSON.parse(json.stdout) as { kind: string; score: number }[];
    assert.deepEqual(hits.map((h) => h.kind), ['code', 'code']);
    assert.ok(hits[0].score >= hits[1].score);
    assert.equal(dlg('search', 'zzqqxxnotaword', folder).status, 1);
  });
});
