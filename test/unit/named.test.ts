// Refusal texts name messages by their first line (src/extension/commands/named.ts).
import * as assert from 'node:assert/strict';
import { Dialog, Message } from '../../src/core/model';
import { named } from '../../src/extension/commands/named';

describe('named', () => {
  const d = new Dialog([
    new Message({ id: 'aa13699a', msgType: 'note', content: '## Setup\n\nmore' }),
    new Message({ id: 'aa13699ab', msgType: 'code', content: 'x = 1' }),
    new Message({ id: 'e0', msgType: 'note', content: '' }),
  ]);

  it('replaces each id of the dialog by its message first line, longest id first', () => {
    assert.equal(named('cannot move aa13699a up: it is already first', d), 'cannot move "## Setup" up: it is already first');
    assert.equal(named('aa13699ab: no', d), '"x = 1": no');
  });

  it('leaves ids inside other words, and text without ids, alone', () => {
    assert.equal(named('xaa13699a and aa13699a-1', d), 'xaa13699a and aa13699a-1');
    assert.equal(named('nothing here', d), 'nothing here');
  });

  it('names an empty message by its type', () => {
    assert.equal(named('cannot move e0 down', d), 'cannot move the empty note down');
  });
});
