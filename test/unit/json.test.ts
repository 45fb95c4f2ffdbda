import { strict as assert } from 'node:assert';
import { parseJson, stringifyCanonical, pyFloatRepr, JsonSyntaxError, jsonEqual } from '../../src/core/base';

describe('json: number-preserving reader, canonical writer', () => {
  it('keeps 1.0 apart from 1 and big integers exact', () => {
    const text = '{"a": 1.0, "b": 1, "c": 123456789012345678901234567890, "d": 0.5, "e": 1E5, "f": 1e-07}';
    const v = parseJson(text).value;
    assert.equal(stringifyCanonical(v), '{\n "a": 1.0,\n "b": 1,\n "c": 123456789012345678901234567890,\n "d": 0.5,\n "e": 100000.0,\n "f": 1e-07\n}');
  });
  it('writes floats as Python repr', () => {
    const cases: [number, string][] = [[1e16, '1e+16'], [1e-5, '1e-05'], [0.0001, '0.0001'], [123456789012345.0, '123456789012345.0'], [1.5e300, '1.5e+300'], [-0.0, '-0.0'], [0.1, '0.1'], [1.25e-4, '0.000125']];
    for (const [v, s] of cases) assert.equal(pyFloatRepr(v), s, String(v));
  });
  it('sorts keys by code point and escapes like Python with ensure_ascii=False', () => {
    const v = parseJson('{"b": "\\u2028\\u007f\\u0001", "a": [], "c": {}}').value;
    assert.equal(stringifyCanonical(v), '{\n "a": [],\n "b": "\u2028\u007f\\u0001",\n "c": {}\n}');
    assert.equal(stringifyCanonical({ '\uffff': 1, '\u{1F916}': 2 }), '{\n "\uffff": 1,\n "\u{1F916}": 2\n}');
  });
  it('reports line and column of a syntax error', () => {
    assert.throws(() => parseJson('{\n "a": 1,\n "b" 2\n}'), (e: unknown) => e instanceof JsonSyntaxError && e.line === 3 && e.column === 6);
  });
  it('keeps "__proto__" as an ordinary key', () => {
    const v = parseJson('{"__proto__": {"x": 1}}').value;
    assert.ok(jsonEqual(v, JSON.parse('{"__proto__": {"x": 1}}')));
    assert.equal(stringifyCanonical(v), '{\n "__proto__": {\n  "x": 1\n }\n}');
  });
});
