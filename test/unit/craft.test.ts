import { strict as assert } from 'node:assert';
import { Dialog, Message, dialogFromTemplates, promptOutput } from '../../src/core/model';
import { CraftStore, EMPTY_CRAFT, craftContext, craftNotes } from '../../src/core/hist';
import { writeIpynb } from '../../src/core/ipynb';

const note = (content: string, extra: Partial<ConstructorParameters<typeof Message>[0]> = {}) => new Message({ msgType: 'note', content, ...extra });
const code = (content: string, extra: Partial<ConstructorParameters<typeof Message>[0]> = {}) => new Message({ msgType: 'code', content, ...extra });
const prompt = (content: string, reply: string) => new Message({ msgType: 'prompt', content, output: promptOutput(reply) });
const texts = (c: ReturnType<typeof craftContext>) => c.chat.map((m) => [m.role, m.content.map((p) => ('text' in p ? p.text : p.type)).join(' | ')]);

describe('CRAFT context', () => {
  const root = new Dialog([note('Use British spelling.'), code('x = 1'), prompt('Who are you?', 'A tutor.')]);
  const sub = new Dialog([code('def add(a, b): return a + b'), note('Hidden', { skipped: true }), code('y = 2', { skipped: true }), note('Sub notes.')]);

  it('sends the notes and prompts of every file, root-most first, each closed by an answered turn naming it', () => {
    const c = craftContext([{ name: 'CRAFT.ipynb', dialog: root }, { name: 'sub/CRAFT.ipynb', dialog: sub }]);
    const t = texts(c);
    assert.equal(t.length, 6);
    assert.match(t[0][1], /Use British spelling\..*\| Who are you\?/);
    assert.deepEqual(t[1], ['assistant', 'A tutor.']);
    assert.match(t[2][1], /CRAFT context of CRAFT\.ipynb/);
    assert.equal(t[3][0], 'assistant');
    assert.match(t[4][1], /Sub notes\./);
    assert.doesNotMatch(t[4][1], /Hidden|x = 1|def add/, 'skipped messages and code are not sent');
    assert.match(t[4][1], /CRAFT context of sub\/CRAFT\.ipynb/);
    assert.deepEqual(c.chat.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });

  it('runs the code cells (not the skipped ones) in order, with their file', () => {
    const c = craftContext([{ name: 'CRAFT.ipynb', dialog: root }, { name: 'sub/CRAFT.ipynb', dialog: sub }]);
    assert.deepEqual(c.code, [
      { name: 'CRAFT.ipynb', source: 'x = 1' },
      { name: 'sub/CRAFT.ipynb', source: 'def add(a, b): return a + b' },
    ]);
  });

  it('labels each file in the preview with its tokens, which count what is sent', () => {
    const c = craftContext([{ name: 'CRAFT.ipynb', dialog: root }, { name: 'sub/CRAFT.ipynb', dialog: sub }]);
    const labels = c.turns.flatMap((t) => t.parts.filter((p) => p.kind === 'craft').map((p) => p.text));
    assert.equal(labels.length, 2);
    assert.match(labels[0], /^CRAFT CRAFT\.ipynb: 2 messages, ~\d+ tokens$/);
    assert.match(labels[1], /^CRAFT sub\/CRAFT\.ipynb: 1 message,/);
    assert.equal(c.tokens, c.turns.reduce((n, t) => n + t.tokens, 0));
    assert.ok(c.tokens > 0);
  });

  it('leaves an unreadable file out and says which', () => {
    const c = craftContext([{ name: 'bad/CRAFT.ipynb', error: 'not JSON' }, { name: 'sub/CRAFT.ipynb', dialog: sub }]);
    assert.deepEqual(c.unreadable, ['bad/CRAFT.ipynb: not JSON']);
    assert.equal(c.chat.length, 2);
    assert.deepEqual(craftNotes(c), [{ kind: 'craft', text: 'CRAFT left out, it could not be read: bad/CRAFT.ipynb: not JSON' }]);
  });

  it('a file of code alone adds no turn; no file, nothing', () => {
    const c = craftContext([{ name: 'CRAFT.ipynb', dialog: new Dialog([code('z = 3')]) }]);
    assert.deepEqual(c.chat, []);
    assert.equal(c.tokens, 0);
    assert.equal(c.code.length, 1);
    assert.equal(craftContext([]), EMPTY_CRAFT);
  });
});

describe('TEMPLATE files', () => {
  it('a new dialog holds every template in order, copied with fresh ids, and the mode in metadata.solveit', () => {
    const a = new Dialog([note('A', { id: 'aaaa0001' })]);
    const b = new Dialog([code('import os', { id: 'bbbb0001' }), note('B', { id: 'bbbb0002' })]);
    const d = dialogFromTemplates([a, b], 'learning');
    assert.deepEqual(d.messages.map((m) => m.content), ['A', 'import os', 'B']);
    assert.ok(d.messages.every((m) => /^[0-9a-f]{8}$/.test(m.id) && !['aaaa0001', 'bbbb0001', 'bbbb0002'].includes(m.id)));
    assert.equal(new Set(d.messages.map((m) => m.id)).size, 3);
    assert.equal(a.messages[0].id, 'aaaa0001', 'the templates are not changed');
    assert.deepEqual(JSON.parse(writeIpynb(d)).metadata, { solveit: { mode: 'learning', ver: 2 } });
  });
  it('with no template, one empty prompt', () => {
    assert.deepEqual(dialogFromTemplates([], 'standard').messages.map((m) => [m.msgType, m.content]), [['prompt', '']]);
  });
});

describe('CraftStore', () => {
  const file = (name: string) => ({ name, dialog: new Dialog([note(`${name} note`)]) });
  it('reads a file once per stamp and rebuilds the context only when a file changed', async () => {
    const store = new CraftStore();
    const reads: string[] = [];
    const read = async (key: string) => {
      reads.push(key);
      return file(key);
    };
    const a = await store.context('d', [{ key: 'A', stamp: '1' }, { key: 'B', stamp: '1' }], read);
    assert.deepEqual(reads, ['A', 'B']);
    assert.equal(await store.context('d', [{ key: 'A', stamp: '1' }, { key: 'B', stamp: '1' }], read), a, 'unchanged: the same context');
    assert.equal(store.known('d'), a);
    assert.deepEqual(reads, ['A', 'B']);
    const b = await store.context('d', [{ key: 'A', stamp: '1' }, { key: 'B', stamp: '2' }], read);
    assert.deepEqual(reads, ['A', 'B', 'B']);
    assert.notEqual(b, a);
    const c = await store.context('d', [{ key: 'B', stamp: '2' }], read);
    assert.equal(c.chat.length, 2, 'a file gone is gone');
    store.forget('d');
    assert.equal(store.known('d'), EMPTY_CRAFT);
  });
});
