// Answering prompts in the real VS Code (issue 9), against local mock servers of Anthropic's and
// OpenAI's streaming APIs through the real SDKs: the dialog controller runs a prompt with no kernel pick,
// the reply streams in and is saved in Solveit's format; stop keeps what arrived with the marker; a rate
// limit is waited out (shown on the cell); a rejected key changes nothing; a long history is cut as the
// policy says, exactly as the History tab shows it; Undo after a rerun restores the old reply.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { INTERRUPTED, Message, REPLY_SEP, TOKEN_TAG, aiRes, readIpynb } from '../../src/core';
import { TRUNCATED_MARK } from '../../src/core/answer';
import { StateMessage } from '../../src/shared/panelProtocol';
import { MockServer } from '../mocks/mockHttp';
import { MOCK_KEYS, cellArgs, cellOf, closeAll, execute, freshDialog as fresh, note, readText, replyText, save, until, useMockProviders, showDialog } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');

/** A fresh dialog in scratch/answer/: a note, a prompt with an old reply, a code cell, a prompt without reply. */
const freshDialog = (extra: Message[] = []) =>
  fresh('answer', [
    ...extra,
    new Message({ id: 'note0001', msgType: 'note', content: '# Answers' }),
    new Message({ id: 'prmt0001', msgType: 'prompt', content: 'Say hello.', output: 'Old reply.' }),
    new Message({ id: 'code0001', msgType: 'code', content: 'print(1)' }),
    new Message({ id: 'prmt0002', msgType: 'prompt', content: 'Say more.' }),
  ]);

const lastBody = (s: MockServer<unknown>) => s.requests[s.requests.length - 1].body;

describe('answering prompts', function () {
  this.timeout(180000);
  after(closeAll);
  const { ant, oai } = useMockProviders('anthropic:claude-e2e', { reset: ['contextWindow', 'maxReplyTokens'] });

  it('runs a prompt with no kernel pick: the reply streams in, and is saved in Solveit’s format', async () => {
    const { name, nb } = await freshDialog();
    const pieces = Array.from({ length: 60 }, (_, k) => `word${k} `);
    ant.enqueue({ text: pieces, delayMs: 20, usage: { input: 42, output: 60 } });
    const seen = new Set<string>();
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook === nb) seen.add(replyText(cellOf(nb, 'prmt0002')));
    });
    const began = performance.now();
    try {
      await execute(nb, 'prmt0002');
      await until(() => replyText(cellOf(nb, 'prmt0002')).includes(TOKEN_TAG), 'the reply with its usage fold');
    } finally {
      sub.dispose();
    }
    const took = performance.now() - began;
    const reply = replyText(cellOf(nb, 'prmt0002'));
    assert.ok(reply.startsWith(pieces.join('').trimEnd()), reply);
    // Shown while it streamed (how often depends on how fast this machine's notebook takes updates).
    const partial = [...seen].filter((r) => r && !r.includes(TOKEN_TAG));
    assert.ok(partial.length >= 1, 'the reply streamed in');
    assert.ok(partial.length < pieces.length && partial.length <= took / 100 + 2, `at most 10 a second (${partial.length} updates in ${Math.round(took)} ms)`);
    for (const r of partial) assert.ok(reply.startsWith(r), `a partial reply is the start of the reply: ${r}`);
    // The request: the system prompt, the dialog up to the prompt (its old reply is history), the model.
    const body = lastBody(ant);
    assert.equal(body.model, 'claude-e2e');
    assert.match(body.system, /dialog/);
    assert.equal(body.messages[body.messages.length - 1].role, 'user');
    assert.match(JSON.stringify(body.messages), /Say hello\.[\s\S]*Old reply\.[\s\S]*Say more\./);
    // Saved: the separator, the reply, the usage fold, as Solveit writes them.
    assert.ok(nb.isDirty);
    assert.ok(await save(nb));
    const saved = await readText(name);
    const m = readIpynb(saved).messages.find((x) => x.id === 'prmt0002')!;
    assert.equal(aiRes(m), reply);
    const cell = (JSON.parse(saved) as { cells: { id: string; source: string[] }[] }).cells.find((c) => c.id === 'prmt0002')!;
    assert.equal(cell.source.join(''), `Say more.${REPLY_SEP}${reply}`, 'the prompt, the separator, the reply');
    // A dialog whose replies record no usage gets Solveit's fold; this model has no known price: tokens only.
    assert.ok(reply.endsWith(`${TOKEN_TAG}<summary>102 tokens</summary>\n\n\`total=102 | in=42 | out=60 | cached=0.0% | claude-e2e\`\n\n</details>`), reply);
  });

  it('stop keeps what arrived, followed by the interrupted marker', async () => {
    const { nb } = await freshDialog();
    ant.enqueue({ text: ['Partial', ' answer'], delayMs: 10, holdOpen: true });
    const done = execute(nb, 'prmt0002');
    await until(() => replyText(cellOf(nb, 'prmt0002')).includes('Partial answer'), 'the partial reply');
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', cellArgs(nb, 'prmt0002'));
    await done;
    await until(() => replyText(cellOf(nb, 'prmt0002')).endsWith(INTERRUPTED), 'the marker');
    assert.match(replyText(cellOf(nb, 'prmt0002')), /^Partial answer\n[\s\S]*\*\[Response interrupted\]\*$/);
  });

  it('a rate limit is waited out, the wait shown on the cell, then answered', async () => {
    const { nb } = await freshDialog();
    const before = ant.requests.length;
    ant.enqueue({ status: 429, headers: { 'retry-after': '2' } }, { text: ['After the wait.'] });
    const done = execute(nb, 'prmt0002');
    const wait = (await until(async () => (await note(nb, 'prmt0002'))?.text, 'the wait on the cell'))!;
    assert.match(wait, /rate limited: retry 1\/8 in 2 s/);
    await done;
    await until(() => replyText(cellOf(nb, 'prmt0002')).startsWith('After the wait.'), 'the answer after the wait');
    assert.equal(ant.requests.length - before, 2);
    assert.equal(await note(nb, 'prmt0002'), undefined, 'the note goes once the answer comes');
  });

  it('a rejected key says so, keeps the old reply and leaves the file clean', async () => {
    const { nb } = await freshDialog();
    await vscode.commands.executeCommand('dialogNotebook.setApiKey', 'anthropic', 'sk-ant-wrong-key');
    try {
      await execute(nb, 'prmt0001');
      await until(() => cellOf(nb, 'prmt0001').executionSummary?.success === false, 'the failed run');
      const n = (await until(() => note(nb, 'prmt0001'), 'the error on the cell'))!;
      assert.match(n.text, /API key rejected/);
      assert.match(n.tooltip, /Anthropic rejected the API key \(401\)/);
      assert.ok(!n.tooltip.includes('sk-ant-wrong-key'), 'the key is never shown');
      assert.equal(replyText(cellOf(nb, 'prmt0001')), 'Old reply.');
      assert.equal(nb.isDirty, false);
    } finally {
      await vscode.commands.executeCommand('dialogNotebook.setApiKey', 'anthropic', MOCK_KEYS.anthropic);
    }
  });

  it('Undo after a rerun restores the old reply', async () => {
    const { nb } = await freshDialog();
    ant.enqueue({ text: ['A new reply.'] });
    await execute(nb, 'prmt0001');
    await until(() => replyText(cellOf(nb, 'prmt0001')).startsWith('A new reply.'), 'the new reply');
    await showDialog(nb);
    await vscode.commands.executeCommand('undo');
    await until(() => replyText(cellOf(nb, 'prmt0001')) === 'Old reply.', 'the old reply back');
    assert.equal(cellOf(nb, 'prmt0001').document.getText(), 'Say hello.');
  });

  it('a history over budget is cut as the policy says, and the History tab shows that very request', async () => {
    const long = new Message({ id: 'long0001', msgType: 'note', content: `Oldest: ${'lorem ipsum '.repeat(2000)}LAST WORDS` });
    const older = new Message({ id: 'old00001', msgType: 'note', content: 'The very first note.' });
    const { nb } = await freshDialog([older, long]);
    // Input window = reply + safety buffer + 400 tokens of history.
    await settings().update('maxReplyTokens', 1000, vscode.ConfigurationTarget.Global);
    await settings().update('contextWindow', 1000 + 5000 + 400, vscode.ConfigurationTarget.Global);
    try {
      ant.enqueue({ text: ['Short answer.'] });
      await execute(nb, 'prmt0002');
      await until(() => replyText(cellOf(nb, 'prmt0002')).startsWith('Short answer.'), 'the answer');
      const sent = JSON.stringify(lastBody(ant).messages);
      assert.ok(sent.includes(TRUNCATED_MARK), 'the long note is cut');
      assert.ok(sent.includes('LAST WORDS'), 'keeping its end');
      assert.ok(!sent.includes('Oldest:'), 'not its start');
      assert.ok(!sent.includes('The very first note.'), 'older messages are left out');
      assert.ok(sent.includes('Say hello.') && sent.includes('Say more.'));
      // The History tab (chat mode) for that prompt: the same turns, the verdicts marked.
      const ed = await vscode.window.showNotebookDocument(nb, { viewColumn: vscode.ViewColumn.One });
      const k = cellOf(nb, 'prmt0002').index;
      ed.selections = [new vscode.NotebookRange(k, k + 1)];
      const p = await vscode.commands.executeCommand<{ lastState: StateMessage; receive(m: unknown): Promise<void> }>('dialogNotebook.showPanel');
      await p.receive({ type: 'setMode', mode: 'chat' });
      const h = (await until(() => (p.lastState.history?.mode === 'chat' && p.lastState.history.promptId === 'prmt0002' ? p.lastState.history : undefined), 'the chat preview'))!;
      assert.deepEqual(h.leftOut?.map((m) => m.id), ['old00001']);
      assert.deepEqual(h.cut?.map((m) => m.id), ['long0001']);
      assert.ok(h.turns.some((t) => t.parts.some((x) => x.kind === 'cut')));
      assert.equal(p.lastState.budget, 400);
      // Each turn the tab shows is the request's turn (Anthropic: user/assistant turns, text blocks).
      const body = lastBody(ant).messages as { role: string; content: { type: string; text?: string }[] }[];
      const tab = h.turns.map((t) => ({ role: t.role, text: t.parts.filter((x) => x.kind === 'text').map((x) => x.text) }));
      const req = body.map((m) => ({ role: m.role, text: m.content.filter((c) => c.type === 'text').map((c) => c.text) }));
      assert.deepEqual(req.slice(0, -1), tab.slice(0, -1).map((t) => ({ role: t.role, text: t.text.filter((x) => x.trim()) })));
      assert.deepEqual(req[req.length - 1], { role: 'user', text: tab[tab.length - 1].text.filter((x) => x.trim()) });
    } finally {
      await settings().update('contextWindow', undefined, vscode.ConfigurationTarget.Global);
      await settings().update('maxReplyTokens', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('answers through an OpenAI-compatible endpoint', async () => {
    const { nb } = await freshDialog();
    await vscode.commands.executeCommand('dialogNotebook.selectModel', 'openai:gpt-e2e');
    try {
      oai.enqueue({ text: ['From ', 'OpenAI.'], usage: { prompt: 20, completion: 2 } });
      await execute(nb, 'prmt0002');
      await until(() => replyText(cellOf(nb, 'prmt0002')).startsWith('From OpenAI.'), 'the answer');
      assert.equal(lastBody(oai).model, 'gpt-e2e');
      assert.match(replyText(cellOf(nb, 'prmt0002')), /`total=22 \| in=20 \| out=2 \| cached=0\.0% \| gpt-e2e`/);
    } finally {
      await vscode.commands.executeCommand('dialogNotebook.selectModel', 'anthropic:claude-e2e');
    }
  });

  it('answers with a model VS Code offers (vscode.lm), where a test may contribute one', async function () {
    // `lm.registerLanguageModelChatProvider` (VS Code 1.104+, newer than the 1.90 typings) needs the
    // vendor declared under `contributes.languageModelChatProviders` of the registering extension.
    const lm = vscode.lm as unknown as { registerLanguageModelChatProvider?: (vendor: string, provider: object) => vscode.Disposable };
    const TextPart = (vscode as unknown as { LanguageModelTextPart?: new (text: string) => object }).LanguageModelTextPart;
    if (!lm.registerLanguageModelChatProvider || !TextPart) this.skip();
    let sent = '';
    const model = { id: 'e2e-model', name: 'E2E Model', family: 'e2e', version: '1', maxInputTokens: 100_000, maxOutputTokens: 1000, capabilities: {} };
    let reg: vscode.Disposable | undefined;
    let refused = '';
    try {
      reg = lm.registerLanguageModelChatProvider('dialog-e2e', {
        provideLanguageModelChatInformation: () => [model],
        provideLanguageModelChatResponse: async (_m: unknown, messages: unknown, _o: unknown, progress: { report(p: object): void }) => {
          sent = JSON.stringify(messages);
          progress.report(new TextPart('From the editor.'));
        },
        provideTokenCount: async (_m: unknown, text: unknown) => Math.ceil(JSON.stringify(text).length / 4),
      });
    } catch (e) {
      refused = String(e);
    }
    // VS Code 1.139 refuses the registration in its window (extension host log: "Chat model provider
    // uses UNKNOWN vendor dialog-e2e."), so no model appears; with a declaring test extension it would.
    const found = refused ? false : await until(async () => (await vscode.lm.selectChatModels({ id: 'e2e-model' })).length, 'the contributed model', 10000).then(() => true, () => false);
    if (!found) {
      console.log(`    LM API path not testable from here: ${refused || 'the model of vendor dialog-e2e never appeared (an undeclared vendor)'}`);
      reg?.dispose();
      this.skip();
    }
    const { nb } = await freshDialog();
    await vscode.commands.executeCommand('dialogNotebook.selectModel', 'vscode-lm:e2e-model');
    try {
      await execute(nb, 'prmt0002');
      await until(() => replyText(cellOf(nb, 'prmt0002')).startsWith('From the editor.'), 'the answer');
      assert.match(sent, /Say more\./);
    } finally {
      reg?.dispose();
      await vscode.commands.executeCommand('dialogNotebook.selectModel', 'anthropic:claude-e2e');
    }
  });
});
