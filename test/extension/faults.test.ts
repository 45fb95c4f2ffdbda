// Faults never cost a reply (issue 28), in the real VS Code with auto save on, against the Anthropic mock
// misbehaving as real servers and networks do: the connection reset mid-stream, HTTP 500, 529 once then
// success, a line that is not JSON, a stream that stalls until the user stops it, a 5 MB reply, and a
// kernel that dies while a &`tool` call runs. Each leaves the previous reply (a stop after words arrived
// keeps them, marked interrupted, as the README says), a note on the cell saying what happened, every
// other cell untouched, the file on disk unchanged, and the next prompt answered normally.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Message, TOKEN_TAG, aiRes } from '../../src/core';
import { AnthropicScript } from '../mocks/anthropicServer';
import { MockProviders, cellArgs, cellOf, closeAll, execute, freshDialog as fresh, note, readText, replyText, savedDialog, until, useMockProviders } from './helpers';

const files = () => vscode.workspace.getConfiguration('files');

/** Auto save on (a second after an edit, as in the browser), for the calling suite. */
function autoSave(): void {
  before(() => files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global));
  after(() => files().update('autoSave', undefined, vscode.ConfigurationTarget.Global));
}

const prompt = (id: string, content: string, output = '') => new Message({ id, msgType: 'prompt', content, output });

/** Everything of a cell but a prompt's reply: what a fault must leave as it was. */
const cellJson = (c: vscode.NotebookCell) =>
  JSON.stringify({ text: c.document.getText(), kind: c.kind, lang: c.document.languageId, meta: c.metadata, outputs: c.outputs.map((o) => ({ meta: o.metadata, items: o.items.map((i) => [i.mime, Buffer.from(i.data).toString('base64')]) })) });

/** The state of a dialog before a fault: its file and its cells. */
async function snapshot(name: string, nb: vscode.NotebookDocument) {
  return { bytes: await readText(name), cells: nb.getCells().map(cellJson) };
}

/** After a fault: the prompt keeps `reply`, every cell is as it was, the file is unchanged, the next prompt is answered. */
async function leftIntact(ant: MockProviders['ant'], name: string, nb: vscode.NotebookDocument, before: Awaited<ReturnType<typeof snapshot>>, id: string) {
  assert.deepEqual(nb.getCells().map(cellJson), before.cells, 'every cell as it was');
  assert.equal(await readText(name), before.bytes, 'the file on disk unchanged');
  ant.enqueue({ text: ['The next answer.'] });
  await execute(nb, 'next0001');
  await until(() => replyText(cellOf(nb, 'next0001')).startsWith('The next answer.'), 'the next prompt answered');
  assert.equal(replyText(cellOf(nb, id)), 'Old reply.', 'the faulted prompt still keeps its reply');
}

describe('faults never cost a reply', function () {
  this.timeout(180000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
  autoSave();
  afterEach(closeAll);

  const freshDialog = () =>
    fresh('faults', [
      new Message({ id: 'note0001', msgType: 'note', content: '# Faults' }),
      prompt('prmt0001', 'Say hello.', 'Old reply.'),
      new Message({ id: 'code0001', msgType: 'code', content: 'print(1)' }),
      prompt('next0001', 'And then?'),
    ]);

  const failures: [string, AnthropicScript, RegExp][] = [
    ['the connection reset in the middle of the stream', { text: ['Half ', 'a ', 'reply ', 'and ', 'more'], delayMs: 50, fault: { after: 3, kind: 'reset' } }, /terminated|reset|Connection|socket|aborted/i],
    ['HTTP 500', { status: 500 }, /Internal server error/],
    ['a line in the stream that is not JSON', { text: ['Before ', 'the ', 'junk'], delayMs: 50, fault: { after: 2, kind: 'junk' } }, /JSON/i],
  ];
  for (const [what, script, why] of failures) {
    it(`${what}: the old reply stays, the cell says the answer failed`, async () => {
      const { name, nb } = await freshDialog();
      const before = await snapshot(name, nb);
      ant.enqueue(script);
      await execute(nb, 'prmt0001');
      const n = (await until(() => note(nb, 'prmt0001'), 'the note on the cell'))!;
      assert.match(n.text, /answer failed/);
      assert.match(n.tooltip, why);
      assert.match(n.tooltip, /previous reply was kept/);
      await until(() => replyText(cellOf(nb, 'prmt0001')) === 'Old reply.', 'the old reply back');
      assert.equal(cellOf(nb, 'prmt0001').executionSummary?.success, false);
      await leftIntact(ant, name, nb, before, 'prmt0001');
    });
  }

  it('529 overloaded once, then success: retried and answered', async () => {
    const { nb } = await freshDialog();
    const sent = ant.requests.length;
    ant.enqueue({ status: 529 }, { text: ['Answered after the overload.'] });
    const done = execute(nb, 'prmt0001');
    const wait = (await until(async () => (await note(nb, 'prmt0001'))?.text, 'the wait on the cell'))!;
    assert.match(wait, /retry 1\/8/);
    await done;
    await until(() => replyText(cellOf(nb, 'prmt0001')).startsWith('Answered after the overload.'), 'the answer');
    assert.equal(ant.requests.length - sent, 2);
    assert.equal(await note(nb, 'prmt0001'), undefined);
  });

  it('a stream that stalls: stop ends the run at once, the old reply stays, the cell says so', async () => {
    const { name, nb } = await freshDialog();
    const before = await snapshot(name, nb);
    const sent = ant.requests.length;
    // The stream opens and then sends nothing, for as long as the client waits.
    ant.enqueue({ text: ['Never sent.'], fault: { after: 0, kind: 'stall' } });
    const done = execute(nb, 'prmt0001');
    await until(() => ant.requests.length > sent, 'the request');
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', cellArgs(nb, 'prmt0001'));
    await done;
    assert.equal(await ant.requests[sent].closed, true, 'the stream was cut by the client');
    const n = (await until(() => note(nb, 'prmt0001'), 'the note on the cell'))!;
    assert.match(n.text, /stopped: old reply kept/);
    assert.equal(replyText(cellOf(nb, 'prmt0001')), 'Old reply.');
    await leftIntact(ant, name, nb, before, 'prmt0001');
  });

  it('a 5 MB reply lands whole and is saved; the next prompt is answered', async () => {
    const { name, nb } = await freshDialog();
    const pieces = Array.from({ length: 500 }, (_, k) => `${String(k).padStart(4, '0')}${'x'.repeat(10_000 - 5)}\n`);
    const whole = pieces.join('');
    ant.enqueue({ text: pieces });
    await execute(nb, 'prmt0001');
    await until(() => replyText(cellOf(nb, 'prmt0001')).includes(TOKEN_TAG), 'the whole reply', 120000);
    assert.ok(replyText(cellOf(nb, 'prmt0001')).startsWith(whole.trimEnd()), 'the reply, whole');
    await until(async () => {
      const m = (await savedDialog(name))?.messages.find((x) => x.id === 'prmt0001');
      return m && aiRes(m).startsWith(whole.trimEnd());
    }, 'the reply saved', 120000);
    ant.enqueue({ text: ['The next answer.'] });
    await execute(nb, 'next0001');
    await until(() => replyText(cellOf(nb, 'next0001')).startsWith('The next answer.'), 'the next prompt answered');
  });
});

describe('a kernel that dies while a tool runs', function () {
  this.timeout(300000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'], kernel: true });
  autoSave();
  afterEach(closeAll);

  it('the answer ends with the tool’s error, no hang; the old reply stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialog-faults-e2e-'));
    const pidFile = join(dir, 'pid');
    try {
      const slow = `def slow() -> str:\n    "Takes long."\n    import os, time\n    open(${JSON.stringify(pidFile)}, 'w').write(str(os.getpid()))\n    time.sleep(600)\n    return 'done'`;
      const { name, nb } = await fresh('faults', [
        new Message({ id: 'defs0001', msgType: 'code', content: slow }),
        prompt('useslow1', 'Run &`slow`.', 'Old reply.'),
        prompt('next0001', 'And then?'),
      ]);
      await execute(nb, 'defs0001');
      await until(() => cellOf(nb, 'defs0001').executionSummary?.success, 'slow defined', 120000);
      await until(() => !nb.isDirty, 'the dialog saved');
      const before = await snapshot(name, nb);
      ant.enqueue({ text: [], toolUse: { id: 'toolu_slow', name: 'slow', input: {} } });
      const done = execute(nb, 'useslow1');
      const pid = Number(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8'), 'the tool to run in the kernel', 120000));
      process.kill(pid, 'SIGKILL');
      await done;
      const n = (await until(() => note(nb, 'useslow1'), 'the note on the cell'))!;
      assert.match(n.text, /answer failed/);
      assert.match(n.tooltip, /kernel/i);
      await until(() => replyText(cellOf(nb, 'useslow1')) === 'Old reply.', 'the old reply back');
      assert.deepEqual(nb.getCells().map(cellJson), before.cells, 'every cell as it was');
      assert.equal(await readText(name), before.bytes, 'the file on disk unchanged');
      ant.enqueue({ text: ['The next answer.'] });
      await execute(nb, 'next0001');
      await until(() => replyText(cellOf(nb, 'next0001')).startsWith('The next answer.'), 'the next prompt answered');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
