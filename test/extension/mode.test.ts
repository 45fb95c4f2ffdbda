// Continuing a dialog as Solveit would (issue 21, items 1, 2, 5, 6), in the real VS Code against the mock
// servers of both APIs through the real SDKs: the system prompt ends with the dialog's mode (both metadata
// forms, and the default), as the History tab shows it; Select Mode writes the form the file uses, one
// undo; thinking on a flagged prompt and not on others, streamed and saved as a think block the core
// reads back; a model that refuses thinking answers without, and the cell says so; `time_run` after a
// prompt and a code cell ran; the usage fold with a dollar figure, and the fenced form a dialog keeps.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Dialog, JsonObject, Message, TOKEN_TAG, aiRes, USAGE_INFO, fmt2hist, readIpynb, thinkingPart, writeIpynb } from '../../src/core';
import { StateMessage } from '../../src/shared/panelProtocol';
import { MockServer } from '../mocks/mockHttp';
import { cellOf, closeAll, execute, note, openDialog, readText, replyText, save, until, useMockProviders, wsUri, showDialog } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const TIME_RUN = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/;

let files = 0;
/** A fresh dialog `scratch/mode/N.ipynb` with this notebook metadata, opened and shown. */
async function dialogWith(meta: JsonObject, messages: Message[]): Promise<{ name: string; nb: vscode.NotebookDocument }> {
  const name = `scratch/mode/${++files}.ipynb`;
  await vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(writeIpynb(new Dialog(messages, '', meta))));
  const nb = await openDialog(name);
  await vscode.window.showNotebookDocument(nb);
  return { name, nb };
}

const prompt = (id: string, content: string, meta: JsonObject = {}) => new Message({ id, msgType: 'prompt', content, meta });
const lastBody = (s: MockServer<unknown>) => s.requests[s.requests.length - 1].body;
/** Resolves once the prompt shows its final reply (its usage record comes last). */
const answered = async (nb: vscode.NotebookDocument, id: string): Promise<string> => {
  const r = await until(() => (/token-usage-details|json \{\.usage\}/.test(replyText(cellOf(nb, id))) ? replyText(cellOf(nb, id)) : undefined), `the answer to ${id}`, 60000);
  return r!;
};
const savedMessage = async (name: string, id: string) => readIpynb(await readText(name)).messages.find((m) => m.id === id)!;

describe('mode, thinking, time_run, usage (issue 21)', function () {
  this.timeout(240000);
  after(closeAll);
  const { ant, oai } = useMockProviders('anthropic:claude-sonnet-4-5', { reset: ['python', 'defaultMode'] });

  it('sends the mode’s instructions in the system prompt (both metadata forms, the default), as the History tab shows it', async () => {
    const cases: [JsonObject, RegExp][] = [
      [{ solveit_dialog_mode: 'concise', solveit_ver: 2 }, /Mode: concise\. Be terse/],
      [{ solveit: { mode: 'learning', ver: 2, use_thinking: false } }, /Mode: learning\. Act as a patient tutor/],
      [{}, /Mode: standard\./],
    ];
    for (const [meta, expected] of cases) {
      const { nb } = await dialogWith(meta, [prompt('prmt0001', 'Teach me.')]);
      ant.enqueue({ text: ['Sure.'] });
      await execute(nb, 'prmt0001');
      await answered(nb, 'prmt0001');
      const system = lastBody(ant).system as string;
      assert.match(system, /^You are a helpful assistant working with the user in a dialog/);
      assert.match(system, expected);
      // The History tab shows the whole system prompt, mode included.
      const p = await vscode.commands.executeCommand<{ lastState: StateMessage }>('dialogNotebook.showPanel');
      const shown = await until(() => (p.lastState.history?.promptId === 'prmt0001' && p.lastState.dialog === nb.uri.path.split('/').pop() ? p.lastState.history.system : undefined), 'the system prompt in the History tab');
      assert.equal(shown, system);
      await vscode.window.showNotebookDocument(nb);
    }
    // The setting is the mode of a dialog that names none.
    await settings().update('defaultMode', 'learning', vscode.ConfigurationTarget.Global);
    const { nb } = await dialogWith({}, [prompt('prmt0001', 'Again.')]);
    ant.enqueue({ text: ['Fine.'] });
    await execute(nb, 'prmt0001');
    await answered(nb, 'prmt0001');
    assert.match(lastBody(ant).system, /Mode: learning\./);
    await settings().update('defaultMode', undefined, vscode.ConfigurationTarget.Global);
  });

  it('Select Mode writes the form the file already uses (the dict for neither), as one undoable edit', async () => {
    const cases: [JsonObject, (meta: JsonObject) => void][] = [
      [{ solveit_dialog_mode: 'concise', solveit_ver: 2 }, (m) => (assert.equal(m.solveit_dialog_mode, 'learning'), assert.equal(m.solveit_ver, 2), assert.equal(m.solveit, undefined))],
      [{ solveit: { mode: 'concise', ver: 2, use_tools: true } }, (m) => (assert.deepEqual(m.solveit, { mode: 'learning', ver: 2, use_tools: true }), assert.equal(m.solveit_dialog_mode, undefined))],
      [{}, (m) => (assert.deepEqual(m.solveit, { mode: 'learning', ver: 2 }), assert.equal(m.solveit_dialog_mode, undefined))],
    ];
    for (const [meta, check] of cases) {
      const { name, nb } = await dialogWith(meta, [prompt('prmt0001', 'Q.')]);
      const before = await readText(name);
      const metaOf = () => JSON.stringify((nb.metadata.dialog as { meta: JsonObject }).meta);
      const was = metaOf();
      assert.equal(await vscode.commands.executeCommand('dialogNotebook.selectMode', 'learning'), 'learning');
      assert.ok(nb.isDirty);
      assert.ok(await save(nb));
      check((JSON.parse(await readText(name)) as { metadata: JsonObject }).metadata);
      // One undo step takes it back: the saved file is the original again.
      await showDialog(nb);
      await vscode.commands.executeCommand('undo');
      await until(() => metaOf() === was, 'the mode undone');
      assert.ok(await save(nb));
      assert.equal(await readText(name), before);
    }
  });

  it('thinks on the flagged prompt only: streamed, saved as a think block the core reads back as a thinking part', async () => {
    const { name, nb } = await dialogWith({}, [prompt('think001', 'Think hard.', { use_thinking: true }), prompt('plain001', 'Answer plainly.')]);
    ant.enqueue({ thinking: ['Let me ', 'consider.'], text: ['Forty-two.'], delayMs: 20 });
    await execute(nb, 'think001');
    const reply = await answered(nb, 'think001');
    const body = lastBody(ant);
    assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 8000 });
    assert.equal(body.max_tokens, 8000 + 8192, 'max_tokens raised so the budget fits');
    assert.ok(reply.startsWith('<!--think_start-->\n::: details\n\n## Thinking\n\nLet me consider.\n\n:::\n<!--think_end-->\n\nForty-two.'), reply);
    // The next prompt is not flagged: no thinking; the earlier think block is not sent as text.
    ant.enqueue({ text: ['Plain.'] });
    await execute(nb, 'plain001');
    await answered(nb, 'plain001');
    const plain = lastBody(ant);
    assert.equal(plain.thinking, undefined);
    assert.equal(plain.max_tokens, 8192);
    assert.ok(!JSON.stringify(plain.messages).includes('Let me consider'), 'thinking is never sent back as text');
    assert.ok(await save(nb));
    const saved = await savedMessage(name, 'think001');
    assert.deepEqual(fmt2hist(aiRes(saved), { keepThinking: true })[0].content[0], thinkingPart('Let me consider.', true));
    // Toggle Thinking sets the other prompt's flag (one edit), and then it thinks.
    await vscode.commands.executeCommand('dialogNotebook.toggleThinking', cellOf(nb, 'plain001').document.uri);
    assert.equal((cellOf(nb, 'plain001').metadata.dialog as { meta: JsonObject }).meta.use_thinking, true);
  });

  it('OpenAI-compatible: reasoning_effort when thinking, the reasoning saved as the think block', async () => {
    await settings().update('model', 'openai:gpt-e2e', vscode.ConfigurationTarget.Workspace);
    try {
      const { nb } = await dialogWith({ solveit: { mode: 'standard', ver: 2, use_thinking: true } }, [prompt('prmt0001', 'Reason.')]);
      oai.enqueue({ reasoning: ['Step one. ', 'Step two.'], text: ['Done.'] });
      await execute(nb, 'prmt0001');
      const reply = await answered(nb, 'prmt0001');
      assert.equal(lastBody(oai).reasoning_effort, 'medium');
      assert.match(reply, /^<!--think_start-->[\s\S]*Step one\. Step two\.[\s\S]*<!--think_end-->\n\nDone\./);
    } finally {
      await settings().update('model', 'anthropic:claude-sonnet-4-5', vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a model that refuses thinking answers without, and the cell says so', async () => {
    const { nb } = await dialogWith({}, [prompt('prmt0001', 'Think?', { use_thinking: true })]);
    const before = ant.requests.length;
    ant.enqueue({ status: 400, message: "'claude-sonnet-4-5' does not support thinking." }, { text: ['Answered without.'] });
    await execute(nb, 'prmt0001');
    const reply = await answered(nb, 'prmt0001');
    assert.ok(reply.startsWith('Answered without.'), reply);
    assert.equal(ant.requests.length - before, 2);
    assert.ok(ant.requests[before].body.thinking, 'asked with thinking first');
    assert.equal(lastBody(ant).thinking, undefined, 'then without');
    const n = (await until(() => note(nb, 'prmt0001'), 'the note on the cell'))!;
    assert.match(n.text, /answered without thinking/);
    assert.match(n.tooltip, /does not support thinking/);
  });

  it('writes the usage fold with the dollar cost; a dialog using the fenced block keeps it; time_run is stamped', async () => {
    const { name, nb } = await dialogWith({}, [prompt('prmt0001', 'Cost?')]);
    ant.enqueue({ text: ['Cheap.'], usage: { input: 1000, output: 100 } });
    const began = Date.now();
    await execute(nb, 'prmt0001');
    const reply = await answered(nb, 'prmt0001');
    assert.ok(reply.endsWith(`${TOKEN_TAG}<summary>$0.0045</summary>\n\n\`total=1,100 | in=1,000 | out=100 | cached=0.0% | $0.0045 | claude-sonnet-4-5\`\n\n</details>`), reply);
    const stamp = (cellOf(nb, 'prmt0001').metadata.dialog as { meta: JsonObject }).meta.time_run as string;
    assert.match(stamp, TIME_RUN);
    assert.ok(Math.abs(Date.parse(stamp) - began) < 60000, stamp);
    assert.ok(await save(nb));
    assert.equal((await savedMessage(name, 'prmt0001')).meta.time_run, stamp);

    const fenced = await dialogWith({}, [new Message({ id: 'old00001', msgType: 'prompt', content: 'Before.', output: `Old.\n\n\`\`\`json {.usage}\n{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}\n\`\`\`` }), prompt('prmt0002', 'Now.')]);
    ant.enqueue({ text: ['Fenced.'], usage: { input: 1000, output: 100 } });
    await execute(fenced.nb, 'prmt0002');
    const r2 = await answered(fenced.nb, 'prmt0002');
    assert.ok(r2.endsWith(`${USAGE_INFO}\n{"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100, "cost": 0.0045}\n\`\`\``), r2);
  });

  it('stamps time_run on a code cell that ran in the kernel', async () => {
    await settings().update('python', '/usr/bin/python3', vscode.ConfigurationTarget.Global);
    const { name, nb } = await dialogWith({}, [new Message({ id: 'code0001', msgType: 'code', content: 'print(6 * 7)' }), prompt('prmt0001', 'When did it run?')]);
    await execute(nb, 'code0001');
    const stamp = await until(() => (cellOf(nb, 'code0001').metadata.dialog as { meta?: JsonObject }).meta?.time_run as string | undefined, 'the time_run of the code cell', 180000);
    assert.match(stamp!, TIME_RUN);
    await until(() => cellOf(nb, 'code0001').outputs.length > 0, 'the output');
    assert.ok(await save(nb));
    const m = await savedMessage(name, 'code0001');
    assert.equal(m.meta.time_run, stamp);
    // The model sees when it ran: the code item's `time` attribute.
    ant.enqueue({ text: ['Just now.'] });
    await execute(nb, 'prmt0001');
    await answered(nb, 'prmt0001');
    assert.match(JSON.stringify(lastBody(ant).messages), /code0001\\" time=\\"2\d{3}-/);
  });
});
