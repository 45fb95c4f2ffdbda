// Python's line boundaries (core/python/text.ts): the one definition `str.splitlines` and every
// line-ending check share.
import { strict as assert } from 'node:assert';
import { chompLine, endsWithLineBreak, hasRareLineBreak, pySplitlines } from '../../src/core/python';

// Python: [c for c in map(chr, range(0x10000)) if len(('a' + c + 'b').splitlines()) == 2]
const BREAKS = ['\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'];

describe('python: line boundaries', () => {
  it('splitlines breaks at each boundary, \\r\\n as one, and at nothing else', () => {
    for (const b of [...BREAKS, '\r\n']) assert.deepEqual(pySplitlines(`a${b}b${b}`, true), [`a${b}`, `b${b}`], JSON.stringify(b));
    for (const c of ['\t', '\x1f', '\x1b', '\u00a0', '\u2027', '\u202a']) assert.deepEqual(pySplitlines(`a${c}b`), [`a${c}b`], JSON.stringify(c));
    assert.deepEqual(pySplitlines('a\n\rb'), ['a', '', 'b']);
  });

  it('chompLine drops the one boundary a line ends with; endsWithLineBreak tells whether there is one', () => {
    for (const b of [...BREAKS, '\r\n']) {
      assert.equal(chompLine(`a${b}`), 'a');
      assert.equal(chompLine(`a${b}${b}`), `a${b}`);
      assert.ok(endsWithLineBreak(`a${b}`));
    }
    assert.equal(chompLine('a\n\r'), 'a\n');
    assert.equal(chompLine('a\x1f'), 'a\x1f');
    assert.ok(!endsWithLineBreak('a\x1f') && !endsWithLineBreak('') && !endsWithLineBreak('a\nb'));
  });

  it('hasRareLineBreak: any boundary but \\n', () => {
    for (const b of BREAKS) assert.equal(hasRareLineBreak(`a${b}b`), b !== '\n', JSON.stringify(b));
  });
});
