// Model vectors V015–V069 (spec/test-vectors.md "Model (dialog)") and the edge rules of spec/model.md.
import { strict as assert } from 'node:assert';
import { Attachment, Dialog, DialogError, Message, MessageInit, codeOutput, freshId, isMsgType, newUuid, promptOutput } from '../../src/core/model';
import { headerInfo, headerLevel, sectionMsgs } from '../../src/core/model';
import {
  addOutput, aiRes, clearOutput, getOutputMds, hasError, mkDispdata, mkError, mkExecresult, mkJmsg, mkStream, msg2out,
} from '../../src/core/model';
import {
  copyExport, directive, directives, dlg2py, exportFilter, exported, hasDirective, metaExported, setMetaExported,
  toggleExported, updateExport,
} from '../../src/core/model';
import { UNSET, deepMerge, updateMessage } from '../../src/core/model';
import { mergeContent, mergeMetas, mergeParts } from '../../src/core/model';
import { humanize, preview, showMsgs, summ } from '../../src/core/model';
import { validateDialog, validateMessage } from '../../src/core/model';
import { JsonObject, stringifyCanonical } from '../../src/core/base';

const msg = (content: string, msgType = 'code', more: MessageInit = {}) => new Message({ content, msgType, ...more });
const note = (content: string, id?: string) => msg(content, 'note', { id });
const throwsMsg = (f: () => unknown, text: string) =>
  assert.throws(f, (e: unknown) => e instanceof DialogError && e.message === text);

describe('model: sections', () => {
  const cases: [string, string, [number, string | null]][] = [
    ['V015', '# Top', [1, 'Top']],
    ['V016', '#not a heading', [0, null]],
    ['V017', '## Sub  \nmore', [2, 'Sub  ']],
    ['V018', '  ## Indented', [2, 'Indented']],
    ['V019', '    ## Code', [0, null]],
    ['V020', '#', [0, null]],
    ['V021', '# ', [1, '']],
    ['V022', '####### seven', [0, null]],
    ['V023', '#\nfoo', [1, 'foo']],
    ['V024', '## Sub ##', [2, 'Sub ##']],
  ];
  for (const [v, text, want] of cases) it(`${v} headerInfo(${JSON.stringify(text)})`, () => assert.deepEqual(headerInfo(text), want));

  it('headerInfo uses Python \\s and Python . (only \\n ends the heading)', () => {
    assert.deepEqual(headerInfo('#\u00a0x'), [1, 'x']);
    assert.deepEqual(headerInfo('#\x1fx'), [1, 'x']);
    assert.deepEqual(headerInfo('#\ufeffx'), [0, null]);
    assert.deepEqual(headerInfo('# a\rb\u2028c\nd'), [1, 'a\rb\u2028c']);
    assert.deepEqual(headerInfo('\t# tab'), [0, null]);
    assert.deepEqual(headerInfo('   # Deep'), [1, 'Deep']);
    assert.deepEqual(headerInfo(''), [0, null]);
  });

  const sd = () => {
    const h1 = note('# Top', 'h1');
    const a = note('body', 'a');
    const h2 = note('## Sub\ndetail below', 'h2');
    const b = msg('x=1', 'code', { id: 'b' });
    const h3 = note('# Next', 'h3');
    return { h1, a, h2, b, h3, all: [h1, a, h2, b, h3] };
  };
  it('V025 sectionMsgs from a level-1 head', () => {
    const s = sd();
    assert.deepEqual(sectionMsgs(s.all, s.h1).map((m) => m.id), ['h1', 'a', 'h2', 'b']);
    assert.deepEqual(s.all.map(headerLevel), [1, 0, 2, 0, 1]);
  });
  it('V026 sectionMsgs from a level-2 head', () => {
    const s = sd();
    assert.deepEqual(sectionMsgs(s.all, s.h2).map((m) => m.id), ['h2', 'b']);
  });
  it('V027 sectionMsgs of a non-heading is itself', () => {
    const s = sd();
    assert.deepEqual(sectionMsgs(s.all, s.a).map((m) => m.id), ['a']);
  });
  it('sectionMsgs respects the pool and rejects a head outside it', () => {
    const s = sd();
    assert.deepEqual(sectionMsgs([s.h1, s.b, s.h3], s.h1).map((m) => m.id), ['h1', 'b']);
    assert.throws(() => sectionMsgs([s.a], s.h1), DialogError);
  });
  it('V028 only notes have header levels', () => assert.equal(headerLevel(msg('# comment', 'code')), 0));
});

describe('model: outputs', () => {
  it('V029 hasError', () => {
    const m = msg('1/0', 'code', { output: [{ output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: [] }] });
    assert.equal(hasError(m), true);
    assert.equal(hasError(msg('x', 'code', { output: codeOutput('1') })), false);
    const p = msg('q', 'prompt', { output: [{ output_type: 'error', ename: 'E', evalue: '', traceback: [] }] });
    assert.equal(hasError(p), false);
  });
  it('V030 getOutputMds', () => {
    const outs: JsonObject[] = [
      { output_type: 'stream', name: 'stdout', text: 'plain\n' },
      { output_type: 'display_data', metadata: {}, data: { 'text/markdown': '*hi*' } },
      { output_type: 'execute_result', metadata: {}, data: { 'text/markdown': '**lo**' }, execution_count: 1 },
    ];
    assert.deepEqual(getOutputMds(outs), ['*hi*', '**lo**']);
    assert.deepEqual(getOutputMds(null), []);
    assert.deepEqual(getOutputMds([]), []);
  });
  it('aiRes: first is_ai_res output, list values joined, non-prompts empty', () => {
    assert.equal(aiRes(msg('q', 'prompt', { output: 'It is 3.' })), 'It is 3.');
    const p = msg('q', 'prompt', {
      output: [
        { output_type: 'display_data', metadata: {}, data: { 'text/markdown': 'other' } },
        { output_type: 'display_data', metadata: { is_ai_res: true }, data: { 'text/markdown': ['a\n', 'b'] } },
        { output_type: 'display_data', metadata: { is_ai_res: true }, data: { 'text/markdown': 'second' } },
      ],
    });
    assert.equal(aiRes(p), 'a\nb');
    assert.equal(aiRes(msg('x', 'code', { output: promptOutput('r') })), '');
    assert.equal(aiRes(msg('q', 'prompt')), '');
  });

  it('V061 a pending wait-clear empties the output on the next message', () => {
    const m = msg('x', 'code', { output: [] });
    addOutput(m, mkStream('hi\n'));
    addOutput(m, mkExecresult({ 'text/plain': '2' }));
    assert.equal(m.outputs.length, 2);
    clearOutput(m, true);
    assert.equal(m.outputs.length, 2);
    addOutput(m, mkStream('fresh\n'));
    assert.deepEqual(m.output, [{ output_type: 'stream', name: 'stdout', text: 'fresh\n' }]);
  });
  it('V062 an update replaces only the first output with that display id', () => {
    const m = msg('x', 'code');
    addOutput(m, mkDispdata({ 'text/plain': 'v1' }, null, 'd1'));
    addOutput(m, mkDispdata({ 'text/plain': 'v1b' }, null, 'd1'));
    const upd = mkJmsg('update_display_data', { data: { 'text/plain': 'v2' }, transient: { display_id: 'd1' } });
    const before = JSON.stringify(upd);
    addOutput(m, upd);
    assert.deepEqual(m.output, [
      { output_type: 'display_data', metadata: { did: 'd1' }, data: { 'text/plain': 'v2' } },
      { output_type: 'display_data', metadata: { did: 'd1' }, data: { 'text/plain': 'v1b' } },
    ]);
    assert.equal(JSON.stringify(upd), before, "the caller's message is not mutated");
  });
  it('an update with no matching output is appended; an update without display id is an error', () => {
    const m = msg('x', 'code');
    addOutput(m, mkJmsg('update_display_data', { data: { 'text/plain': 'v' }, transient: { display_id: 'zz' } }));
    assert.deepEqual(m.outputs.map((o) => (o.metadata as JsonObject).did), ['zz']);
    assert.throws(() => addOutput(m, mkJmsg('update_display_data', { data: {} })), DialogError);
  });
  it('V063 a trailing semicolon (after rstrip) suppresses execute_result', () => {
    const m = msg('2+2;  ', 'code', { output: [] });
    assert.equal(addOutput(m, mkExecresult({ 'text/plain': '4' })), undefined);
    assert.deepEqual(m.output, []);
    addOutput(m, mkStream('still\n'));
    assert.equal(m.outputs.length, 1);
  });
  it('input requests go to onInput and are never stored; trunc transforms', () => {
    const m = msg('input()', 'code');
    const seen: unknown[] = [];
    const r = addOutput(m, mkJmsg('input_request', { prompt: 'Name?', password: false }), { onInput: (j) => (seen.push(j), 'ok') });
    assert.equal(r, 'ok');
    assert.equal(seen.length, 1);
    assert.deepEqual(m.output, []);
    addOutput(m, mkStream('x'.repeat(10)), { trunc: (o) => ({ ...o, text: (o.text as string).slice(0, 4) }) });
    assert.deepEqual(m.output, [{ output_type: 'stream', name: 'stdout', text: 'xxxx' }]);
  });
  it('msg2out maps the four types, takes the type from the header, and rejects others', () => {
    assert.deepEqual(msg2out(mkError('E', 'v', ['tb'])), { output_type: 'error', ename: 'E', evalue: 'v', traceback: ['tb'] });
    const j = mkExecresult({ 'text/plain': '1' }, { a: 1 }, 7);
    delete j.msg_type;
    assert.deepEqual(msg2out(j), { output_type: 'execute_result', metadata: { a: 1 }, data: { 'text/plain': '1' }, execution_count: 7 });
    const noCount = mkJmsg('execute_result', { data: {} });
    assert.equal(msg2out(noCount).execution_count, null);
    throwsMsg(() => msg2out(mkJmsg('clear_output', { wait: false })), "Unrecognized output msg type: 'clear_output'");
  });
  it('clearOutput now resets, and bumps the version so caches drop', () => {
    const m = msg('x', 'code', { output: codeOutput('1') });
    const v = m.version;
    clearOutput(m);
    assert.deepEqual(m.output, []);
    assert.ok(m.version > v);
    const n = msg('t', 'note');
    clearOutput(n);
    assert.equal(n.output, '');
  });
});

describe('model: directives and export', () => {
  it('V045 exported: content directive, meta switch, none, note', () => {
    const ms = [
      msg('#| export\ndef f(): pass'),
      msg('def h(): pass', 'code', { meta: { nbdev: { export: 'true' } } }),
      msg('def g(): pass'),
      msg('#| export\nx', 'note'),
    ];
    assert.deepEqual(ms.map(exported), [true, true, false, true]);
  });
  it('V046 any export value counts', () => assert.equal(exported(msg('#| export: false\nx')), true));
  it('directive parsing: names, values, bare true, leading block only, meta overridden', () => {
    const m = msg('%%time\n\n#| export mod\n# | eval: false\n#|hide: true\nx = 1\n#| late', 'code', { meta: { nbdev: { eval: 'true', k: 'v' } } });
    assert.deepEqual(directives(m), { export: 'mod', eval: 'false', hide: '', k: 'v' });
    assert.equal(directive(m, 'late', 'dflt'), 'dflt');
    assert.equal(hasDirective(m, 'hide'), true);
    assert.equal(hasDirective(m, 'late'), false);
  });
  it('non-string meta directive values are an error with the Python list repr', () =>
    throwsMsg(
      () => directives(msg('x', 'code', { meta: { nbdev: { export: true } } })),
      "`nbdev` metadata directive values must be str (e.g 'true'/'false'), got non-str for: ['export']",
    ));
  it('metaExported / setMetaExported never touch the content', () => {
    const m = msg('#| export\nx', 'code', { meta: { nbdev: { exports: 'true', hide: 'true' } } });
    assert.equal(metaExported(m), true);
    setMetaExported(m, false);
    assert.deepEqual(m.meta, { nbdev: { hide: 'true' } });
    assert.equal(m.content, '#| export\nx');
    setMetaExported(m, true);
    assert.deepEqual(m.meta, { nbdev: { hide: 'true', export: 'true' } });
    const n = msg('x', 'code', { meta: { nbdev: { export: 'true' } } });
    setMetaExported(n, false);
    assert.deepEqual(n.meta, {});
  });
  it('V047 update(export=true) moves the content directive into meta', () => {
    const m = msg('#| export\ndef h(): pass');
    updateMessage(m, {}, { export: true });
    assert.deepEqual({ content: m.content, meta: m.meta }, { content: 'def h(): pass', meta: { nbdev: { export: 'true' } } });
  });
  it('V048 update(export=false, mergemeta, content)', () => {
    const m = msg('#| export\ndef h(): pass');
    updateMessage(m, {}, { export: true });
    updateMessage(m, { content: 'def h2(): pass' }, { export: false, mergemeta: { k: { a: 1 } } });
    assert.deepEqual({ content: m.content, meta: m.meta, exported: exported(m) }, { content: 'def h2(): pass', meta: { k: { a: 1 } }, exported: false });
  });
  it('V049 mergemeta: null deletes, objects merge', () => {
    const m = msg('x', 'code', { meta: { a: { b: 1, c: 2 } } });
    updateMessage(m, {}, { mergemeta: { a: { b: null, d: 3 }, e: 5 } });
    assert.deepEqual(m.meta, { a: { c: 2, d: 3 }, e: 5 });
    assert.deepEqual(deepMerge({ a: 1 }, { a: { x: null } }), { a: { x: null } });
  });
  it('V050 update(export=true) re-renders the other directives canonically, magics first', () => {
    const m = msg('%%time\n#|hide\n#| export\nx');
    updateExport(m, true);
    assert.deepEqual({ content: m.content, meta: m.meta }, { content: '%%time\n#| hide\nx', meta: { nbdev: { export: 'true' } } });
  });
  it('updateMessage: declared fields only, UNSET skips, order kept, bad call changes nothing', () => {
    const m = msg('a', 'code', { output: codeOutput('1'), extra: { time_run: 't0' } });
    throwsMsg(() => updateMessage(m, { content: 'b', colour: 'red' }), "'colour' is not a declared Message field; use mergemeta= for custom metadata");
    assert.equal(m.content, 'a');
    updateMessage(m, { content: UNSET, time_run: 't1', msgType: 'prompt', output: 'reply' });
    assert.equal(m.content, 'a');
    assert.equal(m.extra.time_run, 't1');
    assert.equal(aiRes(m), 'reply');
    updateMessage(m, { meta: { x: 1, skipped: 1 } });
    assert.deepEqual(m.meta, { x: 1 });
    assert.equal(m.skipped, 1);
  });
  it('V051 dlg2py joins exported code only, directives as written', () => {
    const d = new Dialog([
      msg('#| export\ndef f(): pass'),
      msg('def g(): pass', 'code', { meta: { nbdev: { export: 'true' } } }),
      msg('def h(): pass'),
      msg('#| export\nexported note', 'note'),
    ]);
    assert.equal(dlg2py(d), '#| export\ndef f(): pass\n\ndef g(): pass');
  });
  it('V052 copyExport copies the export line', () => assert.equal(copyExport('def g(): pass', '#|exports: mymod\ndef f(): pass'), '#|exports: mymod\ndef g(): pass'));
  it('V053 copyExport leaves a target that starts with #|', () => assert.equal(copyExport('#| hide\nx', '#| export\ny'), '#| hide\nx'));
  it('copyExport quirks: #| exporti… matches, a last line without newline does not', () => {
    assert.equal(copyExport('s', '#| exportish\n'), '#| exportish\ns');
    assert.equal(copyExport('s', '#| export'), 's');
    assert.equal(copyExport('s', ' #| export\n'), 's');
  });
  it('exportFilter: exported messages, else every non-pinned one', () => {
    const a = msg('#| export\na', 'code', { id: 'a' });
    const b = msg('b', 'code', { id: 'b', pinned: 1 });
    const c = msg('c', 'code', { id: 'c' });
    assert.deepEqual(exportFilter([a, b, c]).map((m) => m.id), ['a']);
    assert.deepEqual(exportFilter([b, c]).map((m) => m.id), ['c']);
  });
  // DECISIONS row "export directive": toggling edits the form the message already uses, else the content.
  it('toggleExported edits the form in use (DECISIONS "export directive")', () => {
    const meta = msg('def h(): pass', 'code', { meta: { nbdev: { export: 'true' } } });
    assert.equal(toggleExported(meta), false);
    assert.deepEqual([meta.content, meta.meta], ['def h(): pass', {}]);
    const cont = msg('%%time\n#|export\n#| hide\nx');
    assert.equal(toggleExported(cont), false);
    assert.deepEqual([cont.content, cont.meta, exported(cont)], ['%%time\n#| hide\nx', {}, false]);
    assert.equal(toggleExported(cont), true);
    assert.equal(cont.content, '%%time\n#| export\n#| hide\nx');
    const plain = msg('def g(): pass');
    assert.equal(toggleExported(plain), true);
    assert.deepEqual([plain.content, plain.meta], ['#| export\ndef g(): pass', {}]);
    const withMeta = msg('y', 'code', { meta: { nbdev: { hide: 'true' } } });
    toggleExported(withMeta);
    assert.deepEqual([withMeta.content, withMeta.meta], ['y', { nbdev: { hide: 'true', export: 'true' } }]);
    assert.equal(exported(withMeta), true);
  });
});

describe('model: merge', () => {
  it('V054 mergeContent per source type and target', () => {
    const p = msg('Sum?', 'prompt', { output: 'It is 3.' });
    assert.deepEqual(
      [mergeContent(p, 'note'), mergeContent(p, 'code'), mergeContent(msg('x=1'), 'note'), mergeContent(msg('r', 'raw'), 'note')],
      ['## AI Prompt\nSum?\n## AI Response\nIt is 3.', 'Sum?', '```python\nx=1\n```', '```plaintext\nr\n```'],
    );
  });
  const abc = () => ({
    A: msg('#| export\ndef a(): pass'),
    B: msg('#| export\ndef b(): pass', 'code', { meta: { nbdev: { eval: 'false' }, k: 1 } }),
    C: msg('def c(): pass', 'code', { meta: { k: 2 } }),
  });
  it('V055 mergeParts [A,B,C]', () => {
    const { A, B, C } = abc();
    const [content, meta] = mergeParts([A, B, C]);
    assert.equal(content, '#| export\ndef a(): pass\n\ndef b(): pass\n\ndef c(): pass');
    assert.deepEqual(meta, { k: 1, nbdev: { eval: 'false' } });
    assert.deepEqual(Object.keys(meta), ['k', 'nbdev']);
  });
  it('V056 mergeParts [C,A]: a later export moves into metadata', () => {
    const { A, C } = abc();
    assert.deepEqual(mergeParts([C, A]), ['def c(): pass\n\ndef a(): pass', { k: 2, nbdev: { export: 'true' } }]);
  });
  it('mergeParts keeps cell magics of later sources; mergeMetas is first-wins', () => {
    assert.equal(mergeParts([msg('a'), msg('%%time\n#| hide\n\nb')])[0], 'a\n\n%%time\nb');
    assert.deepEqual(mergeMetas([{ a: 1, nbdev: { x: '1' } }, null, { a: 2, b: 3, nbdev: { x: '2', y: '3' } }]), { a: 1, nbdev: { x: '1', y: '3' }, b: 3 });
  });
});

describe('model: previews', () => {
  it('V031 prompt with a reply', () => assert.equal(preview(msg('q', 'prompt', { id: 'ac71fcba', output: 'Edited reply' })), 'ac71fcba:p:q\n> Edited reply'));
  it('V032 newline runs become ¶', () => assert.equal(preview(note('a\n\n\n  \nb\n  c', 'i1')), 'i1:n:a¶b¶  c'));
  it('V033 cut lines end …[size of the text]', () => {
    const p = preview(note('z'.repeat(300), 'i2'), 80);
    assert.equal(p, 'i2:n:' + 'z'.repeat(69) + '…[300]');
    assert.equal(Array.from(p).length, 80);
  });
  it('V034 output hint = length of the Python repr of the output', () =>
    assert.equal(preview(msg('x=1', 'code', { id: 'c398e29c', output: codeOutput('y'.repeat(500)) })), 'c398e29c:c:x=1 ⇒ out(601)'));
  it('V035 empty raw with rec_kind', () => assert.equal(preview(msg('', 'raw', { id: 'r0', meta: { rec_kind: 'system:compact_boundary' } })), 'r0:r:<system:compact_boundary>'));
  it('V036 meta directive tag', () => assert.equal(preview(msg('def h(): pass', 'code', { id: 'e3', meta: { nbdev: { export: 'true' } } })), 'e3:c[export]:def h(): pass'));
  it('preview details: sep, name=value tags, code points, reply cut by its own size', () => {
    assert.equal(preview(msg('x', 'code', { id: 'e', meta: { nbdev: { export: 'true', eval: 'false' } } }), 180, '-'), 'e:c[export eval=false]-x');
    assert.equal(preview(note('🤖'.repeat(20), 'u'), 10), 'u:n:' + '🤖' + '…[20]');
    const p = preview(msg('q', 'prompt', { id: 'p', output: 'w'.repeat(50) }), 20);
    assert.equal(p, 'p:p:q\n> ' + 'w'.repeat(13) + '…[50]');
    assert.equal(preview(msg('a\r\nb', 'code', { id: 'c' })), 'c:c:a\r¶b');
  });
  const hz: [string, number, string][] = [
    ['V037', 999, '999'], ['V038', 1000, '1k'], ['V039', 1049, '1k'], ['V040', 1050, '1.1k'],
    ['V041', 1250, '1.2k'], ['V042', 9200, '9.2k'], ['V043', 999999, '1000k'], ['V044', 1234567, '1.2M'],
  ];
  for (const [v, n, s] of hz) it(`${v} humanize(${n})`, () => assert.equal(humanize(n), s));
  it('humanize: ties to even on exact values, T is the last suffix', () => {
    assert.equal(humanize(1350), '1.4k');
    assert.equal(humanize(1750), '1.8k');
    assert.equal(humanize(0), '0');
    assert.equal(humanize(2e15), '2000T');
    assert.equal(humanize(-1250), '-1.2k');
  });
  it('showMsgs with rows, summ', () => {
    const ms = [note('a', 'n1'), note('b', 'n2'), note('c', 'n3')];
    assert.equal(showMsgs(ms, 180, 2), 'n1:n:a\nn2:n:b\n…(1 more)');
    assert.equal(showMsgs(ms), 'n1:n:a\nn2:n:b\nn3:n:c');
    const m = msg('x'.repeat(100), 'code', { output: codeOutput('1') });
    assert.equal(summ(m), 'x'.repeat(95) + '… ⇒ ' + "[{'output_type': 'execute_result', 'metadata': {}, 'data': …");
  });
});

describe('model: validate', () => {
  it('V057 bad output entry quotes the cut repr', () =>
    throwsMsg(() => validateMessage(msg('x', 'code', { id: 'c', output: [{ no_type: 1 }] })), `c: bad output entry "{'no_type': 1}"`));
  it('V058 note with output', () => throwsMsg(() => validateMessage(msg('n', 'note', { id: 'n', output: 'x' })), 'n: note message must not carry output'));
  it('V059 unknown type', () => throwsMsg(() => validateMessage(msg('x', 'heading', { id: 'h' })), "h: unknown msg_type 'heading'"));
  it('V060 duplicate ids, sorted', () => {
    const d = new Dialog(['b', 'a', 'b', 'a'].map((id) => note('x', id)));
    throwsMsg(() => validateDialog(d), 'duplicate message id(s): a, b');
  });
  it('valid messages and dialogs are returned; other rules', () => {
    const m = msg('1+1', 'code', { id: 1, output: [] });
    assert.equal(validateMessage(m), m);
    assert.equal(m.id, '1');
    const d = new Dialog([m, note('t', 'n')]);
    assert.equal(validateDialog(d), d);
    const bad = msg('x', 'code', { id: 'm' });
    (bad as unknown as { meta: unknown }).meta = { x: new Set([1]) };
    throwsMsg(() => validateMessage(bad), 'm: meta not JSON-serializable: Object of type Set is not JSON serializable');
    const noId = msg('some long content that goes past thirty', 'code');
    noId.id = '';
    throwsMsg(() => validateMessage(noId), "message missing id: 'some long content that goes p…'");
    const big = msg('x', 'code', { id: 'c', output: [{ t: 'y'.repeat(80) }] });
    throwsMsg(() => validateMessage(big), `c: bad output entry "{'t': '${'y'.repeat(42)}…"`);
    const dm = new Dialog([], 'd', { f: (() => 1) as unknown as JsonObject });
    throwsMsg(() => validateDialog(dm), 'dialog meta not JSON-serializable: Object of type function is not JSON serializable');
  });
  it('isMsgType knows the four types and nothing else', () => {
    assert.deepEqual(['code', 'note', 'prompt', 'raw', 'heading', '', undefined, 1].map(isMsgType), [true, true, true, true, false, false, false, false]);
  });
});

describe('model: Dialog basics (model.ts, shared contract)', () => {
  it('freshId: 8 lowercase hex characters that `taken` does not claim', () => {
    const seen: string[] = [];
    const id = freshId((k) => (seen.push(k), seen.length < 3));
    assert.equal(seen.length, 3, 'asks again while taken');
    assert.equal(id, seen[2]);
    assert.match(id, /^[0-9a-f]{8}$/);
  });
  it('seed: insert_after puts messages right after a message of its dialog', () => {
    const d = new Dialog();
    const [m1] = ['first', 'second', 'third'].map((c) => d.mkMessage({ content: c }));
    m1.insertAfter([new Message({ content: 'inserted1' }), new Message({ content: 'inserted2' })]);
    assert.deepEqual(d.messages.map((m) => m.content), ['first', 'inserted1', 'inserted2', 'second', 'third']);
    assert.ok(d.messages.every((m) => m.dlg === d));
    assert.throws(() => new Message().insertAfter([]), /belongs to a dialog/);
  });
  it('seed: mk_messages pastes deep copies with fresh ids after an anchor (attachments included)', () => {
    const d = new Dialog();
    const att = new Attachment(new Uint8Array([1, 2]), 'image/png', 'img1.png');
    const m1 = d.mkMessage({ content: '1', msgType: 'note', attachments: [att] });
    const m2 = d.mkMessage({ content: '2', msgType: 'note' });
    const pasted = d.mkMessages([m1, m2], { after: m2 });
    assert.deepEqual(d.messages.map((m) => m.content), ['1', '2', '1', '2']);
    assert.ok(pasted.every((p, k) => p.id !== [m1, m2][k].id && p.dlg === d));
    assert.equal(pasted[0].attachments[0].id, 'img1.png');
    pasted[0].attachments[0].data[0] = 9;
    assert.equal(att.data[0], 1, 'the copy does not share bytes with the original');
    d.mkMessages([m2], { before: m1 });
    assert.deepEqual(d.messages.map((m) => m.content), ['2', '1', '2', '1', '2']);
  });
  it('mk_message: a code output given as JSON text keeps its numbers; export sets the metadata switch', () => {
    const d = new Dialog();
    const m = d.mkMessage({ content: 'x', output: '[{"output_type": "execute_result", "metadata": {}, "data": {"text/plain": "1"}, "execution_count": 1.0}]', export: true });
    assert.equal(stringifyCanonical((m.outputs[0] as JsonObject).execution_count), '1.0');
    assert.deepEqual(m.meta, { nbdev: { export: 'true' } });
    assert.deepEqual(d.mkMessage({ content: 'y', output: '' }).output, []);
  });
  it('V064 attachment ids have UUID-4 shape', () => {
    for (let k = 0; k < 50; k++) assert.match(newUuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it('V069 mkMessage placement: an unknown `after` inserts at the start', () => {
    const d = new Dialog([note('a', 'a'), note('b', 'b')]);
    d.mkMessage({ id: 'x1', content: '', after: 'zz' });
    d.mkMessage({ id: 'x2', content: '', before: 'zz' });
    d.mkMessage({ id: 'x3', content: '', idx: 1 });
    assert.deepEqual(d.messages.map((m) => m.id), ['x1', 'x3', 'a', 'b', 'x2']);
  });
});
