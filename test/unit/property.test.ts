// Properties of reading and writing, over generated dialogs: a small dialog with any JSON value (any
// number lexeme, escaped lone surrogates, keys shaped like internal tags) put into any of its fields.
// Reading gives a dialog or a DialogReadError, never another throw; an unedited read writes the same
// bytes; a canonical save is a fixed point; the projections give a result or their documented error.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DialogReadError, readIpynbReport, writeIpynb } from '../../src/core/ipynb';
import { Dialog, DialogError } from '../../src/core/model';
import { dlg2chat, dlg2hist } from '../../src/core/hist';
import { dlg2md } from '../../src/core/export';
import { buildOutline, outlineItem } from '../../src/core/outline';
import { ReplyError, replyParts } from '../../src/core/reply';

const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
const TOOL = '```json {.tool}\n{\n  "id": "call_1",\n  "name": "add",\n  "args": {\n    "a": 1.0\n  },\n  "result": "2"\n}\n```';
const DETAILS =
  "<details class='tool-usage-details'>\n<summary>f()</summary>\n\n```json\n" +
  '{"id": "call_2", "call": {"function": "f", "arguments": {"x": [1, "y"]}}, "result": "ok"}\n```\n\n</details>';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The dialog every case starts from: each kind of cell, outputs, an attachment, notebook metadata. */
const BASE = {
  cells: [
    { cell_type: 'markdown', id: 'n0000001', metadata: {}, source: ['# Title\n', '\n', 'A note ![](attachment:a.png)'], attachments: { 'a.png': { 'image/png': PNG } } },
    { cell_type: 'markdown', id: 'p0000001', metadata: { solveit_ai: true, pinned: true }, source: [`Ask\n\n${SEP}\n\nSure.\n\n${TOOL}\n\n${DETAILS}\n\nDone.`] },
    {
      cell_type: 'code',
      execution_count: 3,
      id: 'c0000001',
      metadata: { skipped: false },
      outputs: [
        { name: 'stdout', output_type: 'stream', text: ['hi\n'] },
        { data: { 'image/png': PNG, 'text/plain': ['<Figure>'] }, metadata: {}, output_type: 'display_data' },
        { data: { 'text/plain': ['4'] }, execution_count: 3, metadata: {}, output_type: 'execute_result' },
        { ename: 'E', evalue: 'v', output_type: 'error', traceback: ['tb'] },
      ],
      source: ['x = 2\n', 'x * 2'],
    },
    { cell_type: 'raw', id: 'r0000001', metadata: {}, source: 'raw text' },
  ],
  metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning' },
  nbformat: 4,
  nbformat_minor: 5,
};

type Path = (string | number)[];

/** Every place a value can go: each existing value, and a new key in each object. */
function paths(v: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(v)) v.forEach((x, k) => out.push(...paths(x, [...at, k])));
  else if (v && typeof v === 'object') {
    out.push([...at, 'new_key']);
    for (const k of Object.keys(v)) out.push(...paths((v as Record<string, unknown>)[k], [...at, k]));
  }
  return out;
}
const PATHS = paths(BASE).filter((p) => p.length > 0);
const MARK = '\u0000MARK';

/** BASE as Solveit writes it, with the JSON text `value` at `path`. */
function dialogWith(path: Path, value: string): string {
  const copy = JSON.parse(JSON.stringify(BASE)) as Record<string | number, unknown>;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  o[path[path.length - 1]] = MARK;
  return JSON.stringify(copy, null, 1).replace(JSON.stringify(MARK), value) + '\n';
}

const numberText = fc.constantFrom('0', '-0', '7', '1.0', '-2.5', '1e400', '-1e400', '1e21', '1E5', '12345678901234567890', 'NaN', 'Infinity', '-Infinity', '3', '-1');
const stringText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"\\ud83d"', '"a\\udc00"', '"\\ufeffbom"', '"$dlg:num"', '"x\\r\\ny"', '"markdown"', '"code"', '"raw"', '"stream"', '"display_data"', '"execute_result"', '"image/png"', '"text/plain"', `"${SEP}"`, '"attachment:a.png"'),
);
const keyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('$dlg:num', '$dlg:$dlg:x', '__proto__', 'constructor', 'cell_type', 'source', 'metadata', 'outputs', 'output_type', 'data', 'text', 'id', 'attachments', 'solveit_ai', 'pinned', 'skipped', 'execution_count', 'name'),
);
const { value: jsonText } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, numberText, stringText, fc.constantFrom('true', 'false', 'null'), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`),
  object: fc.array(fc.tuple(keyText, tie('value')), { maxLength: 4 }).map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`),
}));

const mutatedDialog = fc.tuple(fc.constantFrom(...PATHS), jsonText as fc.Arbitrary<string>).map(([p, v]) => dialogWith(p, v));

/** The save of a dialog whose every cell was edited: canonical text, storage hints still used. */
function canonical(d: Dialog): string {
  d.origin = undefined;
  for (const m of d.messages) if (m.origin) m.origin = { ...m.origin, text: '' };
  return writeIpynb(d);
}

/** Runs a projection; its documented errors count as results. */
function project(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof DialogError || e instanceof ReplyError)) throw e;
  }
}

describe('properties of reading and writing', function () {
  this.timeout(60000);
  // A fixed seed keeps `npm test` deterministic; `npm run fuzz` explores with seeds of its own.
  const params = { seed: 14, numRuns: 300 };

  it('the base dialog reads without repairs and writes its own bytes', () => {
    const text = JSON.stringify(BASE, null, 1) + '\n';
    const r = readIpynbReport(text);
    assert.deepEqual(r.repairs, []);
    assert.equal(writeIpynb(r.dialog), text);
  });

  it('any value in any field: a dialog or a DialogReadError, and an unedited read writes the same bytes', () => {
    fc.assert(
      fc.property(mutatedDialog, (text) => {
        let d: Dialog;
        try {
          d = readIpynbReport(text).dialog;
        } catch (e) {
          assert.ok(e instanceof DialogReadError, `not a DialogReadError: ${String(e)}`);
          assert.ok(!e.message.includes('\n'), 'one line');
          return;
        }
        assert.equal(writeIpynb(d), text);
      }),
      params,
    );
  });

  it('a save is a fixed point: read, write canonically, read and write again gives the same bytes', () => {
    fc.assert(
      fc.property(mutatedDialog, (text) => {
        let once: string;
        try {
          once = canonical(readIpynbReport(text).dialog);
        } catch (e) {
          if (e instanceof DialogReadError) return;
          throw e;
        }
        const again = readIpynbReport(once).dialog;
        assert.equal(writeIpynb(again), once, 'an unedited read of the save');
        assert.equal(canonical(again), once, 'a canonical save of the save');
      }),
      params,
    );
  });

  it('the projections of whatever reads give a result or their documented error', () => {
    fc.assert(
      fc.property(mutatedDialog, (text) => {
        let d: Dialog;
        try {
          d = readIpynbReport(text).dialog;
        } catch {
          return;
        }
        project(() => dlg2hist(d, { supports_vision: true }));
        project(() => dlg2chat(d));
        project(() => dlg2md(d));
        project(() => buildOutline(d.messages.map((m, k) => outlineItem(m, k))));
        for (const m of d.messages) if (m.msgType === 'prompt') project(() => replyParts(m));
      }),
      params,
    );
  });
});
