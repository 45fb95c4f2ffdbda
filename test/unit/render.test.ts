import { strict as assert } from 'node:assert';
import { Message, codeOutput, promptOutput } from '../../src/core/model';
import { aiFmt, aiOutput, normalizeTextLatex, renderOutputAi, renderOutputsAi, stripToolBlocks, tokenEstimate } from '../../src/core/hist';
import { cleanCliOutput, stripAnsi } from '../../src/core/base';
import { JsonObject } from '../../src/core/base';

const stream = (text: string | string[], name = 'stdout'): JsonObject => ({ output_type: 'stream', name, text });
const disp = (data: JsonObject): JsonObject => ({ output_type: 'display_data', metadata: {}, data });
const res = (data: JsonObject): JsonObject => ({ output_type: 'execute_result', metadata: {}, data, execution_count: 1 });
const err = (traceback: string[]): JsonObject => ({ output_type: 'error', ename: 'E', evalue: '', traceback });
const code = (text: string) => new Message({ msgType: 'code', content: 'x', output: codeOutput(text) });

describe('render: render_outputs_ai', () => {
  const cases: [string, JsonObject[], string][] = [
    ['V070', [stream('Hello\rBye\n')], 'Bye\n'],
    ['V071', [stream('abc\bd\n')], 'abd\n'],
    ['V072', [stream('abc\b')], 'abc'],
    ['V073', [stream('10%\r'), stream('50%\r'), stream('100%\n')], '100%\n'],
    ['V074', [stream('a\r\nb\r\n')], 'a\nb\n'],
    ['V075', [stream('\u001b[31mred\u001b[0m\n')], 'red\n'],
    ['V076', [stream('before\u001b[?1049hscreen\u001b[?1049lafter\n')], 'after\n'],
    ['V077', [res({ 'text/plain': '42' }), stream('out1\n'), disp({ 'text/plain': 'disp' }), stream('err\n', 'stderr'), err(['tb']), stream('out2\n')],
      'disp\nout1\nout2\n\nerr\n\n42\ntb'],
    ['V078', [disp({ 'image/png': 'AAAA' })], ''],
    ['V079', [disp({ 'image/png': 'AAAA' }), disp({ 'image/jpeg': 'AAAA' })], '\n'],
    ['V080', [disp({ 'text/html': '<b>x</b>', 'text/markdown': '**x**' })], '**x**'],
    ['V081', [disp({ 'text/html': '<b>hi</b>', 'text/plain': 'hi' })], '<b>hi</b>'],
    ['V082', [disp({ 'application/javascript': 'alert(1)' })], '<script>alert(1)</script>'],
    ['V083', [disp({ 'application/json': { a: 1 } })], ''],
    ['V086', [err(['\u001b[31mTraceback\u001b[0m', 'line2'])], 'Traceback\nline2'],
    ['V087', [res({ 'text/plain': ['a\n', 'b'] })], 'a\nb'],
    ['V088', [stream('a\n'), stream('b\n'), res({ 'text/plain': ['42'] })], 'a\nb\n\n42'],
    ['V089', [{ output_type: 'weird' }], "Error: Failed to parse unknown output - {'output_type': 'weird'}"],
    ['V090', [], ''],
  ];
  for (const [v, outs, want] of cases) it(`${v}`, () => assert.equal(renderOutputsAi(outs), want));

  // V084/V085 record the reference's re-delimiting; DECISIONS "LaTeX outputs": verbatim by default,
  // re-delimiting is the `latex: 'delimit'` option.
  it('V084 latex verbatim by default (DECISIONS), delimited as an option', () => {
    assert.equal(renderOutputsAi([disp({ 'text/latex': '$x^2$' })]), '$x^2$');
    assert.equal(renderOutputsAi([disp({ 'text/latex': '$x^2$' })], null, { latex: 'delimit' }), '\\(x^2\\)');
  });
  it('V085 latex list joined', () => {
    assert.equal(renderOutputsAi([disp({ 'text/latex': ['$x^', '2$'] })]), '$x^2$');
    assert.equal(renderOutputsAi([disp({ 'text/latex': ['$x^', '2$'] })], null, { latex: 'delimit' }), '\\(x^2\\)');
  });
  it('non-list or non-object input renders as empty', () => {
    assert.equal(renderOutputsAi('nope'), '');
    assert.equal(renderOutputsAi(['nope']), '');
  });
  it('seed: renderers override gets the raw data', () => {
    const up = (d: unknown) => String(d).toUpperCase();
    assert.equal(renderOutputAi(disp({ 'text/latex': '$x^2$' }), { 'text/latex': up }), '$X^2$');
    assert.equal(renderOutputAi(res({ 'text/plain': '"42"' })), '"42"');
    assert.equal(renderOutputAi(res({ 'text/plain': '' })), '');
  });
  it('streams with other names are dropped; alternate screen without exit is blank', () => {
    assert.equal(renderOutputsAi([stream('x\n', 'other'), disp({ 'text/plain': 'd' })]), 'd');
    assert.equal(cleanCliOutput('a\u001b[?1049hb'), '');
    assert.equal(cleanCliOutput('\babc'), 'abc');
    assert.equal(cleanCliOutput('abcdef\rXY'), 'XY');
    assert.equal(stripAnsi('\u001b]0;title\u0007x'), '\u001b]0;title\u0007x');
  });
  it('strip_ansi: a CSI sequence does not cross a newline (the reference regex uses `.*?`)', () => {
    assert.equal(stripAnsi('a\u001b[31mred\u001b[0m'), 'ared');
    assert.equal(stripAnsi('\u001b[\nA'), '\u001b[\nA');
    assert.equal(stripAnsi('\u001b[1\n\u001b[2mx'), '\u001b[1\nx');
  });
  it('clean_cli_output: trailing \\r runs are dropped, even long ones', () => {
    assert.equal(cleanCliOutput('ab\r\r\nc\rd\r'), 'ab\nd');
    assert.equal(cleanCliOutput('\r'.repeat(200_000) + 'x\n'), 'x\n');
  });
});

describe('render: normalize_text_latex', () => {
  const cases: [string, string, string, boolean?][] = [
    ['V091', '\\(x + y\\)', '\\(x + y\\)'],
    ['V092', '$$x + y$$', '\\[x + y\\]'],
    ['V093', '$x + y$', '\\(x + y\\)'],
    ['V094', 'x^2 + y^2', '\\(x^2 + y^2\\)'],
    ['V095', '\\begin{align}E = mc^2\\end{align}', '\\[\\begin{align}E = mc^2\\end{align}\\]'],
    ['V096', '\\text{Price is: \\$5.00}', '\\(\\text{Price is: \\$5.00}\\)'],
    ['V097', '\\[x + y\\]', '$$x + y$$', true],
  ];
  for (const [v, inp, want, dollars] of cases) it(v, () => assert.equal(normalizeTextLatex(inp, dollars), want));
  it('empty stays empty', () => assert.equal(normalizeTextLatex(''), ''));
});

describe('render: code ai_output (literal re-eval)', () => {
  const cases: [string, string, string][] = [
    ['V098', '"42"', '42'], ['V099', "'hello'", 'hello'], ['V100', '42\n', '42'], ['V101', '1e3', '1000.0'],
    ['V102', '0x10', '16'], ['V103', '[1, 2]', '[1, 2]'], ['V104', "{'a':[1,2.50]}", "{'a': [1, 2.5]}"],
    ['V105', 'hello world', 'hello world'], ['V106', '1e16', '1e+16'], ['V107', '1e-5', '1e-05'], ['V108', '-0.0', '-0.0'],
    ["V109", "'a' 'b'", 'ab'], ['V110', '1+2j', '(1+2j)'], ['V111', 'True', 'True'], ['V112', '007', '007'],
    ['V113', 'a\nb\n', 'a\nb\n'], ['V114', 'None', 'None'],
  ];
  for (const [v, inp, want] of cases) it(v, () => assert.equal(aiOutput(code(inp)), want));
  it('seed: no output yet is empty; notes are empty', () => {
    assert.equal(aiOutput(new Message({ msgType: 'code', content: '1+1' })), '');
    assert.equal(aiOutput(new Message({ msgType: 'note', content: 'n' })), '');
  });
  it('the cache follows output changes', () => {
    const m = code('1');
    assert.equal(aiOutput(m), '1');
    m.output = codeOutput('2');
    assert.equal(aiOutput(m), '2');
  });
});

describe('render: ai_fmt', () => {
  it('V115', () => assert.equal(aiFmt('Hi.\n*[Response interrupted]*'), 'Hi.'));
  it('V116', () => assert.equal(aiFmt('*[Response interrupted]*'), '*[Response interrupted]*'));
  it('V117', () => assert.equal(aiFmt('  \n'), '<output result="pending" reason="incomplete"/>'));
  it('V118', () => assert.equal(aiFmt('a\n*[Response interrupted]*\n*[Response interrupted]*'), 'a\n*[Response interrupted]*'));
  it('V119', () => assert.equal(aiFmt('A\n```json {.tool}\n{}\n```\nB\n```json {.usage}\n{}\n```\nC', true), 'A\nB\nC'));
  it('strip_tools keeps the surrounding text and other fences', () => {
    assert.equal(stripToolBlocks('```json {.tool}\n{}\n```\nDone.'), 'Done.');
    assert.equal(stripToolBlocks('```py\nx\n```\n'), '```py\nx\n```\n');
    assert.equal(stripToolBlocks('````\n```json {.tool}\n{}\n```\n````'), '````\n```json {.tool}\n{}\n```\n````');
  });
  it('seed: legacy <details> tool blocks are stripped too (reply-format §10 port decision)', () => {
    const d = JSON.stringify({ id: 'x1', server: false, call: { function: 'python', arguments: { code: '1+1' } }, result: '2' });
    const dtl = `<details class='tool-usage-details' markdown='1'>\n<summary><code>python(...)</code></summary>\n\n\`\`\`json\n${d}\n\`\`\`\n\n</details>`;
    assert.equal(aiFmt(`${dtl}\nDone.`, true), 'Done.');
  });
  it('V120', () => {
    const m = new Message({ msgType: 'prompt', content: 'test', output: promptOutput('Ok!\n\n*[Response interrupted]*\n') });
    assert.equal(aiOutput(m), 'Ok!');
  });
  it('V121', () => assert.equal(aiOutput(new Message({ msgType: 'prompt', content: 'e', output: [] })), '<output result="pending" reason="incomplete"/>'));
  it('prompt ai_output keeps tool blocks', () => {
    const r = 'A\n```json {.tool}\n{}\n```\nB';
    assert.equal(aiOutput(new Message({ msgType: 'prompt', content: 'q', output: promptOutput(r) })), r);
  });
});

describe('render: tokenEstimate', () => {
  it('is about a quarter of the length, rounded up', () => {
    assert.equal(tokenEstimate(''), 0);
    assert.equal(tokenEstimate('abcde'), 2);
  });
});
