// Inputs built to break the reader: nesting deeper than any real file, numbers where objects belong,
// user keys shaped like the reader's own number tag, lists too long to spread as arguments. Each gets a
// clear error or reads, and a save of what reads is a fixed point.
import { strict as assert } from 'node:assert';
import { JsonDepthError, MAX_JSON_DEPTH, parseJson, stringifyCanonical } from '../../src/core/base';
import { DialogReadError, readIpynb, readIpynbReport, writeIpynb } from '../../src/core/ipynb';
import { Dialog, Message } from '../../src/core/model';
import { parseLiteralCall, pyRepr, tryParsePyLiteral } from '../../src/core/python';
import { dlg2md } from '../../src/core/export';
import { fmt2hist, pyJsonDumps } from '../../src/core/reply';

const notebook = (cells: string, meta = '{}') => `{"cells": ${cells}, "metadata": ${meta}, "nbformat": 4, "nbformat_minor": 5}`;
const note = (more = '') => `{"cell_type": "markdown", "id": "n1", "metadata": {}, "source": "x"${more}}`;

/** Writes after an edit of every message, then checks that reading and writing again changes nothing. */
function editedFixedPoint(text: string): string {
  const d = readIpynb(text);
  for (const m of d.messages) m.content += '!';
  d.meta.edited = true;
  const once = writeIpynb(d);
  assert.equal(writeIpynb(readIpynb(once)), once, 'an unedited read of the save writes it back');
  const again = readIpynb(once);
  again.meta.edited = false;
  const twice = writeIpynb(again);
  assert.equal(writeIpynb(readIpynb(twice)), twice, 'and so does a second edited save');
  return once;
}

describe('hostile input: deep nesting', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('a file nested deeper than the limit is refused with one line saying where', () => {
    for (const text of [deep(5000), notebook(`[${note(`, "x": ${deep(3000)}`)}]`), notebook(`[${note(`, "x": [NaN, ${deep(3000)}]`)}]`)]) {
      assert.throws(
        () => readIpynb(text),
        (e: unknown) => e instanceof DialogReadError && /^too deep: nested deeper than 1000 levels at line 1 column \d+$/.test(e.message),
      );
    }
    assert.throws(() => parseJson(deep(MAX_JSON_DEPTH + 1)), JsonDepthError);
  });

  it('nesting up to the limit reads, writes and round-trips', () => {
    const meta = `{"x": ${deep(MAX_JSON_DEPTH - 4)}, "y": 1.0}`;
    const text = notebook(`[${note(`, "metadata": ${meta}`).replace('"metadata": {}, ', '')}]`);
    assert.equal(writeIpynb(readIpynb(text)), text);
    const out = editedFixedPoint(text);
    assert.ok(out.includes('"y": 1.0'));
    assert.equal(stringifyCanonical(parseJson(deep(MAX_JSON_DEPTH)).value).length > 0, true);
  });

  it('a reply whose tool block nests too deep is prose, not a crash', () => {
    const block = '```json {.tool}\n' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) + '\n```';
    assert.equal(fmt2hist(block).length, 1);
  });

  it('Python literals nested past the tokenizer limit are not literal calls', () => {
    assert.equal(parseLiteralCall(`f(x=${'['.repeat(100_000)}${']'.repeat(100_000)})`), null);
    assert.equal(tryParsePyLiteral('('.repeat(100_000) + ')'.repeat(100_000)), undefined);
    assert.equal(pyRepr(tryParsePyLiteral('['.repeat(150) + ']'.repeat(150))), '['.repeat(150) + ']'.repeat(150));
  });
});

describe('hostile input: numbers where objects belong', () => {
  it('a number standing for a cell is reported and left out, whatever its lexeme', () => {
    for (const lex of ['NaN', '1e21', '1.0', '-0', '12345678901234567890']) {
      const text = notebook(`[${lex}, ${note()}]`);
      const { dialog, repairs } = readIpynbReport(text);
      assert.deepEqual(repairs, ['cell 0: a number is not a cell, left out of the dialog (an edited save drops it)'], lex);
      assert.equal(dialog.messages.length, 1);
      assert.equal(writeIpynb(dialog), text, lex);
    }
    assert.throws(() => readIpynb('1.0'), { message: 'not a notebook: top level is a number' });
  });

  it('a tagged number as cell metadata, output data or attachments is not taken for an object', () => {
    const code = (data: string) =>
      `{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {}, "outputs": [{"output_type": "display_data", "data": ${data}, "metadata": {}}], "source": "x"}`;
    for (const lex of ['-0', '1.0', '1e400']) {
      const meta = readIpynbReport(notebook(`[${note().replace('"metadata": {}', `"metadata": ${lex}`)}]`));
      assert.deepEqual(meta.repairs, ['cell n1: reset non-dict metadata'], lex);
      assert.deepEqual(meta.dialog.messages[0].meta, {});
      const data = readIpynbReport(notebook(`[${code(lex)}]`));
      assert.equal(data.dialog.messages[0].outputs.length, 0, lex);
      for (const text of [notebook(`[${note(`, "attachments": ${lex}`)}]`), notebook(`[${code(lex)}]`), notebook(`[${note()}]`, lex)]) {
        assert.equal(writeIpynb(readIpynb(text)), text, 'unedited: the same bytes');
        editedFixedPoint(text);
      }
    }
  });
});

describe('hostile input: attachment bundles of several mime types', () => {
  it('are kept as written, so a save is a fixed point and loses none of them', () => {
    const text = notebook(`[${note(', "attachments": {"a": {"x/y": {}, "image/png": "iVBORw0KGgo="}}')}]`);
    const { repairs } = readIpynbReport(text);
    assert.deepEqual(repairs, ["cell n1: attachment 'a' kept as it is (more than one mime type)"]);
    const out = editedFixedPoint(text);
    assert.deepEqual(JSON.parse(out).cells[0].attachments, { a: { 'image/png': 'iVBORw0KGgo=', 'x/y': {} } });
  });
});

describe('hostile input: user data shaped like the number tag', () => {
  const tagLike = '{"x": {"$dlg:num": "hello"}, "$dlg:$dlg:y": [1.0], "$dlg:num": "1.5"}';

  it('in metadata, it is written back as the object it is', () => {
    const text = notebook(`[${note().replace('"metadata": {}', `"metadata": ${tagLike}`)}]`, tagLike);
    const out = editedFixedPoint(text);
    const d = JSON.parse(out) as { metadata: unknown; cells: { metadata: unknown }[] };
    assert.deepEqual(d.metadata, { ...JSON.parse(tagLike), edited: true });
    assert.deepEqual(d.cells[0].metadata, JSON.parse(tagLike));
  });

  it('at the top level of the notebook, beside the nbformat keys', () => {
    const text = `{"$dlg:num": "2", "cells": [${note()}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`;
    assert.deepEqual(JSON.parse(editedFixedPoint(text))['$dlg:num'], '2');
  });

  it('in a tool call and in a Python literal', () => {
    const v = parseJson(tagLike).value;
    assert.equal(pyJsonDumps(v), '{"x": {"$dlg:num": "hello"}, "$dlg:$dlg:y": [1.0], "$dlg:num": "1.5"}');
    assert.equal(pyRepr(v), "{'x': {'$dlg:num': 'hello'}, '$dlg:$dlg:y': [1.0], '$dlg:num': '1.5'}");
    assert.equal(pyRepr(tryParsePyLiteral("{'$dlg:num': 'hello'}")), "{'$dlg:num': 'hello'}");
    assert.equal(pyRepr(tryParsePyLiteral("{'$dlg:num': 'a', 1: 2}")), "{'$dlg:num': 'a', 1: 2}");
  });
});

describe('hostile input: lists too long to spread', () => {
  it('more cells sharing an id than a call takes arguments', () => {
    // V8 takes about 125,000 spread arguments; each duplicate id is one repair line.
    const n = 130_000;
    const cell = '{"cell_type": "raw", "id": "a", "metadata": {}, "source": ""}';
    const { repairs } = readIpynbReport(notebook(`[${Array(n).fill(cell).join(',')}]`));
    assert.equal(repairs.length, n - 1);
  });

  it('a code cell with more backtick runs than a call takes arguments', () => {
    const md = dlg2md(new Dialog([new Message({ msgType: 'code', content: '`` '.repeat(200_000) })]));
    assert.ok(md.startsWith('```python\n'));
  });
});
