// promptAt (core/hist/preview.ts): which prompt the panel previews for the selected message.
import { strict as assert } from 'node:assert';
import { Dialog, Message } from '../../src/core/model';
import { promptAt } from '../../src/core/hist';

const dialog = (types: string) => new Dialog([...types].map((t) => new Message({ msgType: { p: 'prompt', c: 'code', n: 'note' }[t] })));

describe('promptAt', () => {
  const d = dialog('ncpcnp');
  it('a prompt is its own', () => {
    assert.equal(promptAt(d, 2), 2);
    assert.equal(promptAt(d, 5), 5);
  });
  it('else the nearest prompt above', () => {
    assert.equal(promptAt(d, 3), 2);
    assert.equal(promptAt(d, 4), 2);
  });
  it('else the next one below', () => {
    assert.equal(promptAt(d, 0), 2);
    assert.equal(promptAt(d, 1), 2);
  });
  it('indices out of range clamp to the ends; -1 when there is no prompt', () => {
    assert.equal(promptAt(d, 99), 5);
    assert.equal(promptAt(d, -1), 2);
    assert.equal(promptAt(dialog('ncn'), 1), -1);
    assert.equal(promptAt(new Dialog(), 0), -1);
  });
});
