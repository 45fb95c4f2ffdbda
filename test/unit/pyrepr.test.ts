import { strict as assert } from 'node:assert';
import { NUM_TAG, parseJson } from '../../src/core/base';
import {
  parseLiteralCall,
  parsePyLiteral,
  PyBytes,
  PyComplex,
  PySet,
  pyRepr,
  pyStr,
  PyTuple,
  pyToJson,
  tryParsePyLiteral,
} from '../../src/core/python';

const num = (lex: string) => ({ [NUM_TAG]: lex });

describe('pyRepr (reply-format §9)', () => {
  const cases: [string, unknown, string][] = [
    ['V170', 'plain', "'plain'"],
    ['V171', "it's", `"it's"`],
    ['V172', 'say "hi"', `'say "hi"'`],
    ['V173', `both ' and "`, `'both \\' and "'`],
    ['V174', 'back\\slash', "'back\\\\slash'"],
    ['V175', 'nl\nand\ttab\r', "'nl\\nand\\ttab\\r'"],
    ['V176', '\u0000\u0007\u001b\u007f', "'\\x00\\x07\\x1b\\x7f'"],
    ['V177', 'é 中 🤖', "'é 中 🤖'"],
    ['V178', '\u2028\u200b\u00a0\u00ad', "'\\u2028\\u200b\\xa0\\xad'"],
    ['V179', 0, '0'],
    ['V180', -3, '-3'],
    ['V187', true, 'True'],
    ['V188', null, 'None'],
    ['V189', [1, 'a', null], "[1, 'a', None]"],
    ['V190', { k: [1, { z: false }] }, "{'k': [1, {'z': False}]}"],
    ['V191', [], '[]'],
  ];
  for (const [id, v, want] of cases) it(`${id}: ${JSON.stringify(v)}`, () => assert.equal(pyRepr(v), want));

  it('V181: big integers keep every digit (read through parseJson)', () => {
    assert.equal(pyRepr(parseJson('1180591620717411303424').value), '1180591620717411303424');
  });
  it('V182–V186: floats, tagged or plain', () => {
    assert.equal(pyRepr(parseJson('1.0').value), '1.0');
    assert.equal(pyRepr(0.1), '0.1');
    assert.equal(pyRepr(num('1e16')), '1e+16');
    assert.equal(pyRepr(1e-5), '1e-05');
    assert.equal(pyRepr(num('123456789012345.0')), '123456789012345.0');
    assert.equal(pyRepr(num('NaN')), 'nan');
    assert.equal(pyRepr(num('-Infinity')), '-inf');
  });
  it('astral non-printables, lone surrogates and the ASCII space', () => {
    assert.equal(pyRepr('\u{E0001} \ud800'), "'\\U000e0001 \\ud800'");
    assert.equal(pyRepr('\u3000'), "'\\u3000'");
  });
  it('tuples, sets, bytes, complex', () => {
    assert.equal(pyRepr(new PyTuple([1])), '(1,)');
    assert.equal(pyRepr(new PyTuple([])), '()');
    assert.equal(pyRepr(new PyTuple([1, 'a'])), "(1, 'a')");
    assert.equal(pyRepr(new PySet([])), 'set()');
    assert.equal(pyRepr(new PySet([1, 2])), '{1, 2}');
    assert.equal(pyRepr(new PyBytes(Uint8Array.from([97, 39, 0, 255, 10]))), `b"a'\\x00\\xff\\n"`);
    assert.equal(pyRepr(new PyComplex(1, 2)), '(1+2j)');
    assert.equal(pyRepr(new PyComplex(1, -2)), '(1-2j)');
    assert.equal(pyRepr(new PyComplex(0, 2)), '2j');
    assert.equal(pyRepr(new PyComplex(0, 1.5)), '1.5j');
  });
  it('pyStr is str(): strings raw, the rest repr', () => {
    assert.equal(pyStr('a\nb'), 'a\nb');
    assert.equal(pyStr([1, 'x']), "[1, 'x']");
  });
});

describe('parsePyLiteral (ai-projections §5)', () => {
  const ok: [string, string][] = [
    ['"42"', "'42'"],
    ["'hello'", "'hello'"],
    ['42\n', '42'],
    ['1e3', '1000.0'],
    ['0x10', '16'],
    ["{'a':[1,2.50]}", "{'a': [1, 2.5]}"],
    ['1e16', '1e+16'],
    ['1+2j', '(1+2j)'],
    ['-1-2j', '(-1-2j)'],
    ['  (1, 2)  # trailing comment\n', '(1, 2)'],
    ['(1,)', '(1,)'],
    ['()', '()'],
    ['[1,\n 2]', '[1, 2]'],
    ["{1, 2, 1}", '{1, 2}'],
    ['set()', 'set()'],
    ["{1: 'a', (1, 2): None}", "{1: 'a', (1, 2): None}"],
    ["r'a\\d' u'x' 'y'", "'a\\\\dxy'"],
    ["'''tri\nple'''", "'tri\\nple'"],
    ["'\\x41\\u00e9\\U0001F916\\101\\d\\n'", "'Aé🤖A\\\\d\\n'"],
    ["b'ab\\x00'", "b'ab\\x00'"],
    ['1_000', '1000'],
    ['.5', '0.5'],
    ['1.', '1.0'],
    ['-0x1F', '-31'],
    ['00', '0'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['True', 'True'],
  ];
  for (const [src, want] of ok) it(`accepts ${JSON.stringify(src)}`, () => assert.equal(pyRepr(parsePyLiteral(src)), want));
  const bad = ['007', 'hello world', 'a\nb\n', "f'x'", 'x', '1 2', '--1', "'a' b'b'", '[1,', 'set(1)', '1+2', 'not 1'];
  for (const src of bad) it(`rejects ${JSON.stringify(src)}`, () => assert.equal(tryParsePyLiteral(src), undefined));
  it('keeps int vs float in the json.ts number model', () => {
    assert.deepEqual(parsePyLiteral('1.0'), num('1.0'));
    assert.equal(parsePyLiteral('2.5'), 2.5);
    assert.equal(parsePyLiteral('3'), 3);
    assert.deepEqual(parsePyLiteral('18446744073709551616'), num('18446744073709551616'));
  });
});

describe('parseLiteralCall (reply-format §12)', () => {
  const cases: [string, string, unknown][] = [
    ['V196', "python(code='1+1')", { name: 'python', arguments: { code: '1+1' } }],
    ['V197', 'a . b(x=1)', { name: 'a.b', arguments: { x: 1 } }],
    ['V198', 'f(1)', null],
    ['V199', 'f(**d)', null],
    ['V201', "f(x=-1, y=None, z=[1,{'a':2}])", { name: 'f', arguments: { x: -1, y: null, z: [1, { a: 2 }] } }],
    ['V202', 'f(x=1); g()', null],
    ['V203', 'x = 1', null],
    ['V204', '#| export\nf(x=1)', { name: 'f', arguments: { x: 1 } }],
    ['V205', "f(x='a' 'b')", { name: 'f', arguments: { x: 'ab' } }],
    ['V206', 'f(x=0x1F)', { name: 'f', arguments: { x: 31 } }],
  ];
  for (const [id, src, want] of cases) {
    it(`${id}: ${JSON.stringify(src)}`, () => {
      const got = parseLiteralCall(src);
      assert.deepEqual(got && { name: got.name, arguments: pyToJson(got.arguments) }, want);
    });
  }
  it('V200: a tuple argument maps to a JSON list', () => {
    const got = parseLiteralCall('f(x=(1,2))')!;
    assert.deepEqual(pyToJson(got.arguments), { x: [1, 2] });
  });
  it('comments and newlines inside the parentheses; trailing comma; repeated keyword keeps the last', () => {
    const got = parseLiteralCall('f(\n  a=1,  # one\n  b=2,\n  a=3,\n)  # done\n')!;
    assert.deepEqual(pyToJson(got.arguments), { a: 3, b: 2 });
    assert.deepEqual(Object.keys(got.arguments), ['b', 'a']);
  });
  it('non-literal values, starred args and non-name callees are not literal calls (port decision)', () => {
    for (const src of ['f(x=y)', "f(x=f'{y}')", 'f(*a)', 'f()()', 'f(x=1)\ng(y=2)', 'class(x=1)', 'f(class=1)', 'f(x==1)']) {
      assert.equal(parseLiteralCall(src), null, src);
    }
    assert.deepEqual(parseLiteralCall('f()'), { name: 'f', arguments: {} });
  });
  it('sets, bytes and complex values parse but are not JSON serialisable', () => {
    const c = parseLiteralCall('f(s={1})')!;
    assert.throws(() => pyToJson(c.arguments), /Object of type set is not JSON serializable/);
    assert.throws(() => pyToJson(parseLiteralCall("f(b=b'x')")!.arguments), /Object of type bytes/);
    assert.throws(() => pyToJson(parseLiteralCall('f(c=1j)')!.arguments), /Object of type complex/);
  });
});
