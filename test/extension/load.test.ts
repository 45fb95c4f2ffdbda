// Load (issue 28): three dialogs answering at once, and two prompts of one dialog started together. The
// mock names in each reply the prompt it answers, so a reply that lands in another's cell shows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, TOKEN_TAG } from '../../src/core';
import { AnthropicStream } from '../mocks/anthropicServer';
import { cellOf, closeAll, execute, freshDialog, replyText, until, useMockProviders } from './helpers';

/** A reply of 20 words, 30 ms apart, naming the TAG-… of the prompt it answers. */
const NAMING: AnthropicStream = {
  text: [],
  textOf: (body) => {
    const tag = /TAG-\w+/.exec(JSON.stringify(body.messages[body.messages.length - 1]))?.[0] ?? 'TAG-none';
    return [`Answer to ${tag}:`, ...Array.from({ length: 20 }, (_, k) => ` w${k}`)];
  },
  delayMs: 30,
};

const prompt = (id: string, tag: string) => new Message({ id, msgType: 'prompt', content: `Answer ${tag}.`, output: 'Old reply.' });

/** Resolves once `id` shows its whole reply (its usage fold comes last); checks it answers `tag`. */
async function landed(nb: vscode.NotebookDocument, id: string, tag: string): Promise<void> {
  const reply = (await until(() => replyText(cellOf(nb, id)).includes(TOKEN_TAG) && replyText(cellOf(nb, id)), `the reply of ${tag}`, 120000)) as string;
  assert.ok(reply.startsWith(`Answer to ${tag}: w0 w1`), `${tag}'s cell holds its own reply: ${reply.slice(0, 60)}`);
  assert.ok(reply.includes(' w19'), `${tag}'s reply is whole`);
}

describe('answering under load', function () {
  this.timeout(240000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
  afterEach(closeAll);

  it('three dialogs answering at once: each reply lands in its own dialog', async () => {
    const dialogs = [];
    for (const k of [1, 2, 3]) dialogs.push((await freshDialog('load', [new Message({ id: 'note0001', msgType: 'note', content: `# Dialog ${k}` }), prompt('prmt0001', `TAG-d${k}`)])).nb);
    ant.enqueue(NAMING, NAMING, NAMING);
    await Promise.all(dialogs.map((nb) => execute(nb, 'prmt0001')));
    for (const [k, nb] of dialogs.entries()) {
      await landed(nb, 'prmt0001', `TAG-d${k + 1}`);
      assert.equal(cellOf(nb, 'note0001').document.getText(), `# Dialog ${k + 1}`);
      assert.equal(nb.cellCount, 2);
    }
  });

  it('two prompts of one dialog started together: each reply lands in its own cell', async () => {
    const { nb } = await freshDialog('load', [prompt('prmt0001', 'TAG-p1'), new Message({ id: 'note0001', msgType: 'note', content: 'Between.' }), prompt('prmt0002', 'TAG-p2')]);
    ant.enqueue(NAMING, NAMING);
    await Promise.all([execute(nb, 'prmt0001'), execute(nb, 'prmt0002')]);
    await landed(nb, 'prmt0001', 'TAG-p1');
    await landed(nb, 'prmt0002', 'TAG-p2');
    assert.equal(cellOf(nb, 'note0001').document.getText(), 'Between.');
    assert.equal(nb.cellCount, 3);
  });
});
