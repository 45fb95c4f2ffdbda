// Storage: dialog <-> .ipynb (ipynb-storage.md), vectors V001–V014, repairs (§10) and the lossless
// round trip of DECISIONS.md.
import { strict as assert } from 'node:assert';
import {
  DialogReadError,
  REPLY_SEP,
  cellOfMessage,
  readIpynb,
  readIpynbReport,
  splitReply,
  writeIpynb,
} from '../../src/core/ipynb';
import { Json, JsonObject, NUM_TAG, stringifyCanonical } from '../../src/core/base';
import { Attachment, Dialog, Message, codeOutput, promptOutput } from '../../src/core/model';
import { aiRes } from '../../src/core/model';
import { OUTPUT_SCHEMAS, outputProblem } from '../../src/core/ipynb/schema';
import { readFileSync } from 'node:fs';
import { SHARED, corpusFiles } from './corpus';

const nb = (cells: Json[], extra: JsonObject = {}): string =>
  stringifyCanonical({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5, ...extra }) + '\n';
const md = (id: string, source: Json, metadata: JsonObject = {}, more: JsonObject = {}): JsonObject => ({
  cell_type: 'markdown',
  id,
  metadata,
  source,
  ...more,
});

describe('ipynb: writing (V001–V007, V012, V013)', () => {
  it('V001 full file bytes of a four-type dialog', () => {
    const d = new Dialog([
      new Message({ id: 'n1', msgType: 'note', content: 'A *note*' }),
      new Message({ id: 'c1', msgType: 'code', content: '1+1', output: codeOutput('2') }),
      new Message({ id: 'p1', msgType: 'prompt', content: 'Add them.', output: 'It is **2**.' }),
      new Message({ id: 'r1', msgType: 'raw', content: 'plain' }),
    ]);
    const want =
      '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "id": "n1",\n   "metadata": {},\n   "source": [\n    "A *note*"\n   ]\n  },\n  {\n   "cell_type": "code",\n   "execution_count": null,\n   "id": "c1",\n   "metadata": {},\n   "outputs": [\n    {\n     "data": {\n      "text/plain": [\n       "2"\n      ]\n     },\n     "execution_count": 1,\n     "metadata": {},\n     "output_type": "execute_result"\n    }\n   ],\n   "source": [\n    "1+1"\n   ]\n  },\n  {\n   "cell_type": "markdown",\n   "id": "p1",\n   "metadata": {\n    "solveit_ai": true\n   },\n   "source": [\n    "Add them.\\n",\n    "\\n",\n    "##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\\n",\n    "\\n",\n    "It is **2**."\n   ]\n  },\n  {\n   "cell_type": "raw",\n   "id": "r1",\n   "metadata": {},\n   "source": [\n    "plain"\n   ]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n';
    assert.equal(writeIpynb(d), want);
  });

  it('V002 an empty dialog', () => {
    assert.equal(writeIpynb(new Dialog()), '{\n "cells": [],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n');
  });

  const src = (content: string) => cellOfMessage(new Message({ msgType: 'note', content })).source;
  it('V003 source is a list of lines keeping ends', () => assert.deepEqual(src('a\nb\n'), ['a\n', 'b\n']));
  it('V004 empty content is an empty list', () => assert.deepEqual(src(''), []));
  it('V005 Python splitlines semantics', () => assert.deepEqual(src('a\r\nb\rc\u2028d'), ['a\r\n', 'b\r', 'c\u2028', 'd']));

  it('V006 metadata: truthy promoted attributes only', () => {
    const m = new Message({ msgType: 'note', skipped: 1, pinned: 0, meta: { k: 0 } });
    assert.deepEqual(cellOfMessage(m).metadata, { k: 0, skipped: 1 });
  });

  it('V007 outputs: only __type is stripped, did survives; the live output is not mutated', () => {
    const out = { output_type: 'display_data', metadata: { __type: 'Safe', did: 'd1' }, data: { 'text/plain': 'x' } };
    const m = new Message({ msgType: 'code', output: [out] });
    const cell = cellOfMessage(m);
    assert.deepEqual(((cell.outputs as JsonObject[])[0] as JsonObject).metadata, { did: 'd1' });
    assert.deepEqual(out.metadata, { __type: 'Safe', did: 'd1' });
  });

  it('V012 no separator when the reply is empty', () => {
    const c = cellOfMessage(new Message({ msgType: 'prompt', content: 'Hello?' }));
    assert.deepEqual(c.source, ['Hello?']);
    assert.deepEqual(c.metadata, { solveit_ai: true });
  });

  it('V013 attachments are base64 with one mime each', () => {
    const a = new Attachment(new TextEncoder().encode('not really a png'), 'image/png', 'a1');
    const c = cellOfMessage(new Message({ msgType: 'note', attachments: [a] }));
    assert.deepEqual(c.attachments, { a1: { 'image/png': 'bm90IHJlYWxseSBhIHBuZw==' } });
  });

  it('an invalid-base64 attachment writes its stored text back', () => {
    const a = new Attachment(new Uint8Array(0), 'image/png', 'x', 'not base64!');
    assert.deepEqual(cellOfMessage(new Message({ msgType: 'raw', attachments: [a] })).attachments, { x: { 'image/png': 'not base64!' } });
  });

  it('a new message inserted into a read dialog is written canonically with an 8-hex id', () => {
    const d = readIpynb(nb([md('a', ['x'])]));
    const m = d.mkMessage({ content: 'new\nline', msgType: 'note' });
    assert.match(m.id, /^[0-9a-f]{8}$/);
    const out = writeIpynb(d);
    assert.ok(out.includes(stringifyCanonical(cellOfMessage(m), 2)));
    assert.equal(out, nb([md('a', ['x']), md(m.id, ['new\n', 'line'])]));
  });
});

describe('ipynb: reading (V008–V010, V014)', () => {
  const SEP = REPLY_SEP;

  it('V008 text after a second separator is not the reply (and, unlike the reference, not lost)', () => {
    const text = nb([md('p', 'q' + SEP + 'r1' + SEP + 'r2', { solveit_ai: true })]);
    const d = readIpynb(text);
    const m = d.messages[0];
    assert.deepEqual([m.msgType, m.content, aiRes(m), m.meta], ['prompt', 'q', 'r1', {}]);
    // DECISIONS "never lose what a user wrote": the tail survives an edit of the reply.
    m.output = 'new reply';
    assert.deepEqual(readIpynb(writeIpynb(d)).messages[0].content, 'q');
    assert.ok(writeIpynb(d).includes(JSON.stringify('r2')));
  });

  it('V009 solveit_ai wins over cell_type', () => {
    const text = nb([{ cell_type: 'code', id: 'c', metadata: { solveit_ai: true }, source: 'Q' + SEP + 'R', outputs: [], execution_count: null }]);
    const m = readIpynb(text).messages[0];
    assert.deepEqual([m.msgType, m.content, aiRes(m)], ['prompt', 'Q', 'R']);
  });

  it('V010 promoted metadata is removed from meta whatever its value', () => {
    const m = readIpynb(nb([md('n', ['a\n', 'b'], { skipped: 0, pinned: 1, x: 1 })])).messages[0];
    assert.deepEqual([m.msgType, m.content, m.skipped, m.pinned, m.meta], ['note', 'a\nb', 0, 1, { x: 1 }]);
  });

  it('V014 attachments and notebook metadata', () => {
    const text = nb([md('n', '', {}, { attachments: { 'a.png': { 'image/png': 'aGk=' } } })], { metadata: { kernelspec: { name: 'python3' } } });
    const d = readIpynb(text);
    const a = d.messages[0].attachments[0];
    assert.deepEqual([a.id, a.contentType, new TextDecoder().decode(a.data)], ['a.png', 'image/png', 'hi']);
    assert.deepEqual(d.meta, { kernelspec: { name: 'python3' } });
  });

  it('an invalid-base64 attachment is kept as unreadable media, not a failed read', () => {
    const text = nb([md('n', '', {}, { attachments: { x: { 'image/png': 'abcde' } } })]);
    const a = readIpynb(text).messages[0].attachments[0];
    assert.deepEqual([a.invalidBase64, a.data.length], ['abcde', 0]);
  });

  it('the file stem (or "dialog") names the dialog', () => {
    assert.equal(readIpynb(nb([])).name, 'dialog');
    assert.equal(readIpynb(nb([]), 'demo').name, 'demo');
  });

  it('legacy string outputs are parsed, keeping numbers', () => {
    const text = nb([{ cell_type: 'code', id: 'c', metadata: {}, source: 'x', outputs: JSON.stringify(codeOutput('1')).replace('"metadata":{}', '"metadata":{"n":1.0}'), execution_count: null }]);
    const { dialog, repairs } = readIpynbReport(text);
    assert.deepEqual(repairs, ['cell c: parsed legacy string outputs']);
    assert.deepEqual((dialog.messages[0].outputs[0] as JsonObject).metadata, { n: { [NUM_TAG]: '1.0' } });
  });
});

describe('ipynb: separators and the solveit_ai flag (DECISIONS rows 2–3)', () => {
  it('splitReply: standard form, no separator, second separator', () => {
    assert.deepEqual(splitReply('a' + REPLY_SEP + 'b'), { content: 'a', reply: 'b', sep: REPLY_SEP });
    assert.deepEqual(splitReply('plain'), { content: 'plain', reply: '' });
    assert.deepEqual(splitReply('a' + REPLY_SEP + 'b' + REPLY_SEP + 'c'), { content: 'a', reply: 'b', sep: REPLY_SEP, tail: REPLY_SEP + 'c' });
  });

  for (const line of ['##### Reply<!-- SOLVEIT_SEPARATOR_abc123 -->', '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR -->', '##### Reply<!-- SOLVEIT_SEPARATOR -->']) {
    it(`splitReply recognises ${line} and keeps its blank lines`, () => {
      assert.deepEqual(splitReply(`q\n\n${line}\n\nr`), { content: 'q', reply: 'r', sep: `\n\n${line}\n\n` });
      assert.deepEqual(splitReply(`q\n${line}\nr`), { content: 'q', reply: 'r', sep: `\n${line}\n` });
    });
  }

  it('a separator not on its own line is not one', () => {
    assert.deepEqual(splitReply('see ##### Reply<!-- SOLVEIT_SEPARATOR --> here').reply, '');
  });

  it('a markdown cell with a separator and no flag is a prompt; an unedited write adds no flag', () => {
    const text = nb([md('p', ['q\n', '\n', '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n', '\n', 'a'])]);
    const d = readIpynb(text);
    const m = d.messages[0];
    assert.deepEqual([m.msgType, m.content, aiRes(m)], ['prompt', 'q', 'a']);
    assert.equal(writeIpynb(d), text);
    // Edited, it still has a separator, so it stays flag-less; with no reply left, the flag is needed.
    m.content = 'q2';
    assert.deepEqual(cellOfMessage(m).metadata, {});
    m.output = '';
    assert.deepEqual(cellOfMessage(m).metadata, { solveit_ai: true });
  });

  it('an edited prompt keeps its separator form, an empty-reply separator and an odd flag value', () => {
    const sep = '\n##### Reply<!-- SOLVEIT_SEPARATOR_42 -->\n';
    const d = readIpynb(nb([md('p', 'q' + sep + 'r', { solveit_ai: 1 }), md('e', 'x' + REPLY_SEP, { solveit_ai: true })]));
    const [p, e] = d.messages;
    p.content = 'Q';
    e.content = 'X';
    const again = readIpynb(writeIpynb(d));
    assert.deepEqual(cellOfMessage(again.messages[0]).source, ['Q\n', '##### Reply<!-- SOLVEIT_SEPARATOR_42 -->\n', 'r']);
    assert.deepEqual(cellOfMessage(again.messages[0]).metadata, { solveit_ai: 1 });
    assert.deepEqual((cellOfMessage(again.messages[1]).source as string[]).join(''), 'X' + REPLY_SEP);
  });

  it('a falsy flag keeps the note a note and is written back', () => {
    const d = readIpynb(nb([md('n', 'a' + REPLY_SEP + 'b', { solveit_ai: false })]));
    const m = d.messages[0];
    assert.deepEqual([m.msgType, m.content, m.meta], ['note', 'a' + REPLY_SEP + 'b', {}]);
    m.content = 'c';
    assert.deepEqual(cellOfMessage(m).metadata, { solveit_ai: false });
  });

  it('new prompts get the standard separator', () => {
    const m = new Message({ msgType: 'prompt', content: 'q', output: 'r' });
    assert.equal((cellOfMessage(m).source as string[]).join(''), 'q' + REPLY_SEP + 'r');
  });
});

describe('ipynb: repairs on read (§10, V011)', () => {
  it('V011 repair messages, in order (duplicate id kept: DECISIONS "missing or duplicate cell ids")', () => {
    const text = JSON.stringify({
      cells: [
        {
          cell_type: 'code',
          id: 'a',
          metadata: {},
          source: '',
          outputs: [5, { output_type: 'weird' }, { output_type: 'stream', text: 't' }, { output_type: 'display_data', data: {} }, { output_type: 'execute_result', data: {}, execution_count: '7' }],
        },
        { cell_type: 'markdown', id: 'a', metadata: {}, source: '', outputs: [] },
      ],
    });
    const { dialog, repairs } = readIpynbReport(text);
    assert.deepEqual(repairs, [
      'added notebook metadata',
      'added notebook nbformat',
      'cell a: added execution_count',
      'cell a output 0: removed output (output must be a dict)',
      "cell a output 1: removed output (unknown output_type 'weird')",
      'cell a output 2: removed output (stream requires a str name)',
      'cell a output 3: set metadata',
      'cell a output 4: set metadata',
      'cell a output 4: set execution_count',
      'cell a: removed outputs',
      // The reference regenerates the id ("regenerated as <random>"); we keep it.
      'cell a: duplicate id, kept',
    ]);
    assert.deepEqual(dialog.messages.map((m) => m.id), ['a', 'a']);
    assert.equal(dialog.messages[0].outputs.length, 2);
    // Nothing edited: the repaired file still writes back its own bytes.
    assert.equal(writeIpynb(dialog), text);
  });

  it('output validity reasons', () => {
    const reasons = (outputs: Json[]) =>
      readIpynbReport(nb([{ cell_type: 'code', id: 'c', metadata: {}, source: '', outputs, execution_count: null }])).repairs;
    assert.deepEqual(reasons([{ output_type: 'stream', name: 'stdout', text: 5 }]), ['cell c output 0: removed output (stream requires text)']);
    assert.deepEqual(reasons([{ output_type: 'display_data', metadata: {}, data: 1 }]), ['cell c output 0: removed output (display_data requires a data dict)']);
    assert.deepEqual(reasons([{ output_type: 'error', ename: 'E', traceback: [] }]), ['cell c output 0: removed output (error requires str ename and evalue)']);
    assert.deepEqual(reasons([{ output_type: 'error', ename: 'E', evalue: '', traceback: [1] }]), ['cell c output 0: removed output (error requires a traceback list of str)']);
    assert.deepEqual(reasons([{ data: {} }]), ['cell c output 0: removed output (unknown output_type None)']);
    assert.deepEqual(reasons([{ output_type: 'stream', name: 'stdout', text: ['a', 'b'] }, { output_type: 'execute_result', metadata: {}, data: {}, execution_count: 3 }]), []);
  });

  it('badly shaped attachments and cells: precise messages naming the cell, nothing of the user lost', () => {
    const text = nb([
      md('n', 'see', {}, {
        attachments: {
          ok: { 'image/png': 'aGk=' },
          s: 'just a string',
          e: {},
          v: { 'image/png': 5 },
          b: { 'image/png': 'abcde' },
        },
      }),
      'stray',
      md('m', 'x'),
    ]);
    const { dialog, repairs } = readIpynbReport(text);
    // (The file is written with sorted keys, so the attachments come in the order b e ok s v.)
    assert.deepEqual(repairs, [
      "cell n: attachment 'b' has invalid base64, kept as unreadable media",
      "cell n: attachment 'e' kept as it is (an attachment needs a mime)",
      "cell n: attachment 's' kept as it is (an attachment must be a {mime: base64} dict)",
      "cell n: attachment 'v' kept as it is ('image/png' data must be a str or a list of str)",
      'cell 1: a string is not a cell, left out of the dialog (an edited save drops it)',
    ]);
    assert.deepEqual(dialog.messages[0].attachments.map((a) => a.id), ['b', 'ok']);
    assert.equal(writeIpynb(dialog), text);
    // Edited, the cell still carries every attachment entry it had, unreadable ones as they were.
    dialog.messages[0].content = 'see it';
    const cell = JSON.parse(writeIpynb(dialog)).cells[0];
    assert.deepEqual(cell.attachments, {
      ok: { 'image/png': 'aGk=' },
      s: 'just a string',
      e: {},
      v: { 'image/png': 5 },
      b: { 'image/png': 'abcde' },
    });
  });

  it('cell-level repairs: source, metadata, missing or unknown cell_type', () => {
    const text = nb([
      { id: 'x', metadata: [], source: ['a', 1, null, true, 1.5] },
      { cell_type: 'heading', id: 'h', metadata: {}, source: '# T', level: 1 },
      { cell_type: 'markdown', id: 'm', source: 'no metadata key' },
    ]);
    const { dialog, repairs } = readIpynbReport(text);
    assert.deepEqual(repairs, [
      'cell x: missing cell_type, read as raw',
      'cell x: coerced source to text',
      'cell x: reset non-dict metadata',
      "cell h: unknown cell_type 'heading', read as raw",
    ]);
    assert.deepEqual(dialog.messages.map((m) => [m.msgType, m.content]), [['raw', 'a1NoneTrue1.5'], ['raw', '# T'], ['note', 'no metadata key']]);
    // An edited unknown-type cell keeps its cell_type and its unknown keys.
    dialog.messages[1].content = '# U';
    const cell = JSON.parse(writeIpynb(dialog)).cells[1];
    assert.deepEqual(cell, { cell_type: 'heading', id: 'h', metadata: {}, source: ['# U'], level: 1 });
  });

  it('id-less cells: in-memory ids, written id-less unless edited', () => {
    const text = nb([{ cell_type: 'markdown', metadata: {}, source: 'a' }, { cell_type: 'markdown', metadata: {}, source: 'b' }]);
    const { dialog, repairs } = readIpynbReport(text);
    const [a, b] = dialog.messages;
    assert.match(a.id, /^[0-9a-f]{8}$/);
    assert.deepEqual(repairs, [`cell None: duplicate id, regenerated as ${b.id}`]);
    assert.equal(writeIpynb(dialog), text);
    b.content = 'B';
    const cells = JSON.parse(writeIpynb(dialog)).cells;
    assert.equal('id' in cells[0], false);
    assert.equal(cells[1].id, b.id);
  });

  it('an edited 4.4 file keeps nbformat_minor 4 while id-less cells remain, else becomes 4.5 (edge_missing_ids)', () => {
    const text = readFileSync(`${SHARED}/corpus/synthetic/edge_missing_ids.ipynb`, 'utf8');
    const d = readIpynb(text);
    assert.equal(writeIpynb(d), text);
    const minor = (s: string) => JSON.parse(s).nbformat_minor;
    const ids = (s: string) => JSON.parse(s).cells.map((c: JsonObject) => 'id' in c);
    // Editing one cell gives it an id; the other two stay id-less, so 4.5 would be invalid.
    d.messages[1].content = '2+2';
    let out = writeIpynb(d);
    assert.deepEqual(ids(out), [false, true, false]);
    assert.equal(minor(out), 4);
    assert.equal(writeIpynb(readIpynb(out)), out);
    // Also after a JSON clone of the origins (VS Code metadata).
    d.origin = JSON.parse(JSON.stringify(d.origin));
    assert.equal(minor(writeIpynb(d)), 4);
    // Once every cell carries an id, the file is 4.5.
    d.messages[0].content = 'an id now';
    d.messages[2].content = 'q2';
    out = writeIpynb(d);
    assert.deepEqual(ids(out), [true, true, true]);
    assert.equal(minor(out), 5);
    // Deleting cells: the unedited (id-less) one left keeps 4; editing it too makes the file 4.5.
    const e = readIpynb(text);
    e.removeMsgs([e.messages[0], e.messages[2]]);
    assert.equal(minor(writeIpynb(e)), 4);
    e.messages[0].content = '3+3';
    assert.equal(minor(writeIpynb(e)), 5);
    // An id-less cell pasted into a new dialog: no file minor to keep, so 4 (ids came with 4.5).
    const f = new Dialog([readIpynb(text).messages[0]]);
    assert.equal(minor(writeIpynb(f)), 4);
  });

  it('notebook-level repairs and unknown top-level keys', () => {
    const text = '{"cells": 3, "metadata": null, "zzz": [1.0], "aaa": {}}';
    const { dialog, repairs } = readIpynbReport(text);
    assert.deepEqual(repairs, ['reset non-list notebook cells', 'reset non-dict notebook metadata', 'added notebook nbformat']);
    assert.equal(writeIpynb(dialog), text);
    dialog.mkMessage({ id: 'n', msgType: 'note', content: 'x' });
    const out = writeIpynb(dialog);
    assert.equal(out, '{\n "aaa": {},\n "cells": [\n' + stringifyCanonical(cellOfMessage(dialog.messages[0]), 2).replace(/^/, '  ') + '\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5,\n "zzz": [\n  1.0\n ]\n}\n');
  });

  it('unreadable input throws DialogReadError with a one-line reason', () => {
    assert.throws(() => readIpynb('{"cells": ['), (e: unknown) => e instanceof DialogReadError && e.message === 'not JSON: Unexpected end of input at line 1 column 12');
    assert.throws(() => readIpynb('[]'), { name: 'DialogReadError', message: 'not a notebook: top level is an array' });
    assert.throws(() => readIpynb('"x"'), { message: 'not a notebook: top level is a string' });
    assert.throws(() => readIpynb('null'), { message: 'not a notebook: top level is null' });
    assert.throws(() => readIpynb(''), DialogReadError);
  });

  it('a UTF-8 BOM is stripped for parsing and kept on write', () => {
    const text = '\ufeff' + nb([md('a', 'x')]);
    const d = readIpynb(text);
    assert.equal(d.messages[0].content, 'x');
    assert.equal(writeIpynb(d), text);
    d.messages[0].content = 'y';
    assert.ok(writeIpynb(d).startsWith('\ufeff{\n "cells"'));
  });
});

describe('ipynb: lossless writing of edited dialogs', () => {
  const canonical = nb([
    md('n1', ['# Title']),
    { cell_type: 'code', execution_count: null, id: 'c1', metadata: {}, outputs: [{ data: { 'text/plain': ['1.0'] }, execution_count: 1, metadata: { x: { [NUM_TAG]: '1.0' } }, output_type: 'execute_result' }], source: ['1.0'] },
    md('p1', ['q\n', '\n', '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n', '\n', 'r'], { solveit_ai: true }),
  ]);

  it('changing one cell changes only that cell and the file stays valid', () => {
    const d = readIpynb(canonical);
    d.messages[1].content = '2.0';
    const out = writeIpynb(d);
    const a = canonical.split('\n');
    const b = out.split('\n');
    assert.equal(a.length, b.length);
    assert.deepEqual(a.map((l, i) => (l === b[i] ? null : [l, b[i]])).filter(Boolean), [['    "1.0"', '    "2.0"']]);
    JSON.parse(out);
  });

  it('in-place edits of nested metadata and outputs are noticed', () => {
    const d = readIpynb(canonical);
    ((d.messages[1].outputs[0] as JsonObject).metadata as JsonObject).y = 2;
    assert.notEqual(writeIpynb(d), canonical);
    const e = readIpynb(canonical);
    e.meta.k = 1;
    assert.notEqual(writeIpynb(e), canonical);
  });

  it('a non-canonical file, once edited, is written canonically except for unedited cells', () => {
    const text = '{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "x"},\r\n {"cell_type": "markdown", "id": "b", "metadata": {}, "source": "y"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}';
    const d = readIpynb(text);
    assert.equal(writeIpynb(d), text);
    d.messages[1].content = 'z';
    const out = writeIpynb(d);
    assert.equal(out, '{\n "cells": [\n  {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "x"},\n  ' + stringifyCanonical(cellOfMessage(d.messages[1]), 2) + '\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n');
    assert.equal(writeIpynb(readIpynb(out)), out);
  });

  it('moving or deleting cells rebuilds the list from the original cell texts', () => {
    const d = readIpynb(canonical);
    d.messages.reverse();
    const out = writeIpynb(d);
    assert.deepEqual(JSON.parse(out).cells.map((c: JsonObject) => c.id), ['p1', 'c1', 'n1']);
    d.removeMsgs(['c1']);
    assert.deepEqual(JSON.parse(writeIpynb(d)).cells.map((c: JsonObject) => c.id), ['p1', 'n1']);
  });

  it('origins survive JSON cloning (VS Code metadata) and the round trip stays byte-identical', () => {
    const d = readIpynb(canonical);
    const clone = (v: unknown) => JSON.parse(JSON.stringify(v));
    const copy = new Dialog(
      d.messages.map((m) => {
        const c = m.clone();
        c.origin = clone(m.origin);
        return c;
      }),
      d.name,
      clone(d.meta),
    );
    copy.origin = clone(d.origin);
    assert.equal(writeIpynb(copy), canonical);
    // Without the cached state, it is recomputed from the cell text.
    for (const m of copy.messages) delete m.origin!.state;
    assert.equal(writeIpynb(copy), canonical);
    copy.messages[0].content = '# Other';
    assert.equal(JSON.parse(writeIpynb(copy)).cells[0].source[0], '# Other');
  });

  it('fixed point: write(read(write(d))) === write(d)', () => {
    const d = new Dialog([
      new Message({ id: 'p', msgType: 'prompt', content: 'q\r\nx', output: promptOutput('r\n') }),
      new Message({ id: 'c', msgType: 'code', content: '', output: [{ output_type: 'stream', name: 'stdout', text: 'a\nb' }] }),
    ]);
    const w = writeIpynb(d);
    assert.equal(writeIpynb(readIpynb(w)), w);
  });
});

describe('ipynb: schemas (ipynbSchema.ts)', () => {
  it('the hand-written fast check agrees with the zod schemas on every corpus output', () => {
    let n = 0;
    for (const f of corpusFiles()) {
      let cells: unknown;
      try {
        cells = JSON.parse(readFileSync(f.path, 'utf8').replace(/^\ufeff/, '')).cells;
      } catch {
        continue;
      }
      for (const c of Array.isArray(cells) ? cells : []) {
        for (const o of Array.isArray(c?.outputs) ? c.outputs : []) {
          const schema = OUTPUT_SCHEMAS[o?.output_type];
          assert.equal(outputProblem(o) === null, !!schema && schema.safeParse(o).success, JSON.stringify(o).slice(0, 200));
          n++;
        }
      }
    }
    assert.ok(n > 1000, `${n} outputs checked`);
  });
});
