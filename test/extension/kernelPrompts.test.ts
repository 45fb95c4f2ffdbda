// Prompts that use the dialog's kernel (issue 10), in the real VS Code with a real kernel and the mock
// model servers: a ``$`x` `` value goes with the history as vars_hist says; an ``&`add` `` function is a
// tool whose call runs in the kernel, its result goes back to the model and the saved reply holds call and
// result (Anthropic and OpenAI); the rounds stop at dialogNotebook.maxToolRounds; stopping the prompt
// while a tool runs interrupts the kernel. Needs Debian's jupyter-server and python3-ipykernel.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { INTERRUPTED, Message, aiRes, fmt2hist, readIpynb, replyUsage } from '../../src/core';
import { MockServer } from '../mocks/mockHttp';
import { cellArgs, cellOf, closeAll, execute, freshDialog as fresh, readText, replyText, save, until, useMockProviders } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');

const freshDialog = (messages: Message[]) => fresh('kernelPrompts', messages);

const code = (id: string, content: string) => new Message({ id, msgType: 'code', content });
const prompt = (id: string, content: string) => new Message({ id, msgType: 'prompt', content });
const ADD = 'def add(a: int, b: int) -> int:\n    "Add two numbers."\n    return a + b';
const bodies = (s: MockServer<unknown>) => s.requests.map((r) => r.body);
/** Resolves once the prompt shows its final reply (its usage record comes last). */
const answered = (nb: vscode.NotebookDocument, id: string, what: string) => until(() => replyUsage(replyText(cellOf(nb, id))) !== null && replyText(cellOf(nb, id)), what, 120000);

/** Saves (VS Code may refuse a save issued as the last update lands: it is tried again) and returns the saved reply. */
async function savedReply(nb: vscode.NotebookDocument, name: string, id: string): Promise<string> {
  assert.ok(await save(nb), 'the save');
  return aiRes(readIpynb(await readText(name)).messages.find((m) => m.id === id)!);
}

/** The tool calls and results a saved reply holds. */
const toolParts = (reply: string) =>
  fmt2hist(reply).flatMap((m) => m.content.filter((p) => p.type === 'tool_use' || p.type === 'tool_result').map((p) => ({ type: p.type, id: p.id, name: p.name, text: 'text' in p ? p.text : undefined })));

describe('prompts using the kernel', function () {
  this.timeout(300000);
  const { ant, oai } = useMockProviders('anthropic:claude-e2e', { reset: ['maxToolRounds'], kernel: true });
  // A test may switch to OpenAI: each starts on Anthropic.
  beforeEach(() => vscode.commands.executeCommand('dialogNotebook.selectModel', 'anthropic:claude-e2e'));
  afterEach(closeAll);

  it('a prompt quoting $`x` sends its value from the kernel, typed, with the history', async () => {
    const { nb } = await freshDialog([code('setx0001', 'x = 41+1'), prompt('askx0001', 'What is $`x`?')]);
    ant.enqueue({ text: ['It is 42.'] });
    const before = ant.requests.length;
    await vscode.commands.executeCommand('notebook.execute', nb.uri); // the code only (issue 20)
    await execute(nb, 'askx0001');
    await answered(nb, 'askx0001', 'the answer');
    assert.equal(ant.requests.length, before + 1);
    const body = ant.requests[before].body;
    const first = JSON.stringify(body.messages[0].content);
    assert.ok(first.includes(`<variables>The 'variables' section provides values of: $\`x\`<variable name=\\"x\\" type=\\"int\\">42</variable></variables>`), first);
    assert.deepEqual(body.messages[1], { role: 'assistant', content: [{ type: 'text', text: 'Understood, I will use these variable values.' }] });
    assert.match(JSON.stringify(body.messages[body.messages.length - 1]), /What is \$`x`\?/);
    assert.equal(body.tools, undefined, 'no & reference: no tools');
  });

  for (const provider of ['anthropic', 'openai'] as const) {
    it(`&\`add\` round trip (${provider}): the call runs in the kernel, the model gets 3, the saved reply holds call and result`, async () => {
      if (provider === 'openai') await vscode.commands.executeCommand('dialogNotebook.selectModel', 'openai:gpt-e2e');
      const { name, nb } = await freshDialog([code('defa0001', ADD), prompt('useadd01', 'Add 1 and 2 with &`add`.')]);
      const server: MockServer<unknown> = provider === 'anthropic' ? ant : oai;
      const callId = provider === 'anthropic' ? 'toolu_e2e_add' : 'call_e2e_add';
      if (provider === 'anthropic') ant.enqueue({ text: ['Let me add.'], toolUse: { id: callId, name: 'add', input: { a: 1, b: 2 } } }, { text: ['1 + 2 = 3.'] });
      else oai.enqueue({ text: ['Let me add.'], toolCalls: [{ id: callId, name: 'add', arguments: { a: 1, b: 2 } }] }, { text: ['1 + 2 = 3.'] });
      const before = server.requests.length;
      await vscode.commands.executeCommand('notebook.execute', nb.uri);
      await execute(nb, 'useadd01');
      await answered(nb, 'useadd01', 'the final answer');
      const [ask, again] = bodies(server).slice(before);
      assert.equal(server.requests.length, before + 2, 'asked twice: the call, then with its result');
      const params = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] };
      if (provider === 'anthropic') {
        assert.deepEqual(ask.tools, [{ name: 'add', description: 'Add two numbers.', input_schema: params }]);
        assert.equal(ask.tool_choice, undefined);
        const last = again.messages[again.messages.length - 1];
        assert.deepEqual(last, { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: '3' }] });
        assert.deepEqual(again.messages[again.messages.length - 2].content[1], { type: 'tool_use', id: callId, name: 'add', input: { a: 1, b: 2 } });
      } else {
        assert.deepEqual(ask.tools, [{ type: 'function', function: { name: 'add', description: 'Add two numbers.', parameters: params } }]);
        assert.deepEqual(again.messages[again.messages.length - 1], { role: 'tool', tool_call_id: callId, content: '3' });
      }
      const reply = await savedReply(nb, name, 'useadd01');
      assert.ok(reply.startsWith('Let me add.\n\n```json {.tool}\n'), reply);
      assert.ok(reply.includes('1 + 2 = 3.'), reply);
      assert.deepEqual(toolParts(reply), [
        { type: 'tool_use', id: callId, name: 'add', text: undefined },
        { type: 'tool_result', id: callId, name: 'add', text: '3' },
      ]);
      assert.match(reply, /"args": \{\n {4}"a": 1,\n {4}"b": 2\n {2}\}/);
    });
  }

  it('a tool that raises returns its error to the model; after maxToolRounds the model is offered no tool', async () => {
    await settings().update('maxToolRounds', 1, vscode.ConfigurationTarget.Global);
    try {
      const { nb } = await freshDialog([code('defb0001', 'def boom(n: int) -> int:\n    "Fails."\n    raise ValueError(f"no {n}")'), prompt('useboom1', 'Try &`boom`.')]);
      ant.enqueue({ text: [], toolUse: { id: 'toolu_boom', name: 'boom', input: { n: 7 } } }, { text: ['It failed.'] });
      const before = ant.requests.length;
      await vscode.commands.executeCommand('notebook.execute', nb.uri);
      await execute(nb, 'useboom1');
      await answered(nb, 'useboom1', 'the final answer');
      const again = ant.requests[before + 1].body;
      assert.deepEqual(again.messages[again.messages.length - 1].content, [{ type: 'tool_result', tool_use_id: 'toolu_boom', content: 'ValueError: no 7' }]);
      assert.deepEqual(again.tool_choice, { type: 'none' }, 'the round limit reached: no more calls');
      assert.match(replyText(cellOf(nb, 'useboom1')), /"result": "ValueError: no 7"/);
    } finally {
      await settings().update('maxToolRounds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('stopping the prompt while a tool runs interrupts the kernel; the reply keeps the call, marked interrupted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialog-kprompt-e2e-'));
    const started = join(dir, 'started');
    try {
      const slow = `def slow() -> str:\n    "Takes long."\n    import time\n    open(${JSON.stringify(started)}, 'w').close()\n    time.sleep(600)\n    return 'done'`;
      const { nb } = await freshDialog([code('defs0001', slow), prompt('useslow1', 'Run &`slow`.'), code('after001', 'print("kernel alive")')]);
      await execute(nb, 'defs0001');
      await until(() => cellOf(nb, 'defs0001').executionSummary?.success, 'slow defined', 120000);
      ant.enqueue({ text: [], toolUse: { id: 'toolu_slow', name: 'slow', input: {} } });
      const done = execute(nb, 'useslow1');
      await until(() => existsSync(started), 'the tool to run in the kernel', 120000);
      await vscode.commands.executeCommand('notebook.cell.cancelExecution', cellArgs(nb, 'useslow1'));
      await done;
      await until(() => replyText(cellOf(nb, 'useslow1')).includes(INTERRUPTED), 'the interrupted reply', 60000);
      const reply = replyText(cellOf(nb, 'useslow1'));
      assert.match(reply, /"name": "slow"/);
      assert.match(reply, /"result": "KeyboardInterrupt/);
      // The kernel was interrupted, not left sleeping: the next cell runs at once.
      await execute(nb, 'after001');
      await until(
        () =>
          cellOf(nb, 'after001')
            .outputs.flatMap((o) => o.items)
            .some((i) => new TextDecoder().decode(i.data).includes('kernel alive')),
        'the next cell to run',
        60000,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
