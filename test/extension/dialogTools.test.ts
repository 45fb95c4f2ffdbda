// The AI's dialog tools (issue 32) in the real VS Code, with the mock Anthropic server calling them and
// a real kernel for `python`: the cells change live as asked, each result reaches the model in the next
// request, the saved reply keeps every call with its result, every other cell is byte-identical on save,
// and Undo takes each edit back. Also the tools as Language Model Tools, through vscode.lm.invokeTool.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message, aiRes, fmt2hist, readIpynb, replyUsage } from '../../src/core';
import { cellOf, closeAll, execute, freshDialog as fresh, readText, replyText, save, showDialog, until, useMockProviders } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const freshDialog = (messages: Message[]) => fresh('dialogTools', messages);
const note = (id: string, content: string) => new Message({ id, msgType: 'note', content });
const code = (id: string, content: string) => new Message({ id, msgType: 'code', content });
const prompt = (id: string, content: string) => new Message({ id, msgType: 'prompt', content });

const answered = (nb: vscode.NotebookDocument, id: string) => until(() => replyUsage(replyText(cellOf(nb, id))) !== null && replyText(cellOf(nb, id)), 'the final reply', 120000);
const ids = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => (c.metadata.dialog as { id?: string } | undefined)?.id ?? '?');
const texts = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => c.document.getText());
/** The tool results the last user turn of a request holds, in order. */
const results = (body: { messages: { role: string; content: unknown }[] }) => {
  const last = body.messages[body.messages.length - 1];
  return (last.content as { type: string; tool_use_id: string; content: string }[]).filter((p) => p.type === 'tool_result').map((p) => p.content);
};
/** The cells of a saved file as JSON text, by id. */
const savedCells = async (name: string) => new Map((JSON.parse(await readText(name)) as { cells: { id: string }[] }).cells.map((c) => [c.id, JSON.stringify(c)]));

async function undo(nb: vscode.NotebookDocument): Promise<void> {
  await showDialog(nb);
  await vscode.commands.executeCommand('notebook.cell.quitEdit');
  await vscode.commands.executeCommand('undo');
}

describe('the AI works on the dialog: dialog tools', function () {
  this.timeout(300000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'], reset: ['tools.confirm', 'maxToolRounds'], kernel: true });
  afterEach(closeAll);

  it('Use tools on: the model adds a note, finds by regex, replaces a string; live, recorded, undoable, the rest untouched', async () => {
    const { name, nb } = await freshDialog([note('plan0001', '# Plan\nWork out x.'), code('setx0001', 'x = 21'), prompt('ask00001', 'Summarise and fix x.'), note('tail0001', 'A note below.')]);
    assert.equal(await vscode.commands.executeCommand('dialogNotebook.toggleTools'), true, 'Toggle Tools turns the switch on');
    assert.equal((nb.metadata.dialog as { meta: { solveit: { use_tools: boolean } } }).meta.solveit.use_tools, true);
    assert.ok(await save(nb));
    const before = await savedCells(name);
    ant.enqueue(
      {
        text: ['Let me look.'],
        toolUses: [
          { id: 'toolu_add', name: 'add_msg', input: { content: 'Summary: x is 21.' } },
          { id: 'toolu_find', name: 'find_msgs', input: { re_pattern: 'x = \\d+', context: 0 } },
        ],
      },
      { text: [], toolUse: { id: 'toolu_fix', name: 'msg_str_replace', input: { id: 'setx0001', old_str: '21', new_str: '6' } } },
      { text: ['Done.'] },
    );
    const sent = ant.requests.length;
    await execute(nb, 'ask00001');
    await answered(nb, 'ask00001');
    const [ask, second, third] = ant.requests.slice(sent).map((r) => r.body);
    const offered = (ask.tools as { name: string }[]).map((t) => t.name);
    for (const t of ['curr_dialog', 'view_dlg', 'find_msgs', 'read_msg', 'view_msg', 'add_msg', 'update_msg', 'del_msgs', 'msg_str_replace', 'msg_strs_replace', 'msg_insert_line', 'msg_replace_lines', 'msg_del_lines', 'python']) assert.ok(offered.includes(t), `offered ${t}`);
    // The note went after the prompt answered (the current message), in the open notebook.
    const added = ids(nb)[3];
    assert.deepEqual(ids(nb), ['plan0001', 'setx0001', 'ask00001', added, 'tail0001']);
    assert.match(added, /^[0-9a-f]{8}$/);
    assert.equal(cellOf(nb, added).document.getText(), 'Summary: x is 21.');
    assert.equal(cellOf(nb, 'setx0001').document.getText(), 'x = 6');
    // Each result reached the model in the next request.
    assert.deepEqual(results(second), [added, "[{'id': 'setx0001', 'msg_type': 'code', 'content': 'x = 21', 'output': ''}]"]);
    assert.deepEqual(results(third), ['@@ -1 +1 @@\n-x = 21\n+x = 6']);
    // The saved reply keeps every call with its result; the untouched cells are byte-identical.
    assert.ok(await save(nb));
    const saved = readIpynb(await readText(name));
    const reply = aiRes(saved.messages.find((m) => m.id === 'ask00001')!);
    const calls = fmt2hist(reply).flatMap((m) => m.content).filter((p) => p.type === 'tool_result').map((p) => [p.name, 'text' in p ? p.text : '']);
    assert.deepEqual(calls.map((c) => c[0]), ['add_msg', 'find_msgs', 'msg_str_replace']);
    assert.equal(calls[0][1], added);
    const after = await savedCells(name);
    for (const id of ['plan0001', 'tail0001']) assert.equal(after.get(id), before.get(id), `${id} unchanged`);
    // Undo: the reply, then the replacement, then the note.
    await undo(nb);
    await until(() => !replyText(cellOf(nb, 'ask00001')).includes('Done.'), 'the reply undone');
    await undo(nb);
    await until(() => cellOf(nb, 'setx0001').document.getText() === 'x = 21', 'the replacement undone');
    await undo(nb);
    await until(() => nb.cellCount === 4, 'the note undone');
    assert.deepEqual(ids(nb), ['plan0001', 'setx0001', 'ask00001', 'tail0001']);
  });

  it('without the switch a prompt naming &`python` gets that tool only: print(6*7) runs in the kernel and the model reads 42', async () => {
    await settings().update('tools.confirm', 'never', vscode.ConfigurationTarget.Global);
    const { nb } = await freshDialog([prompt('py000001', 'Compute with &`python`.')]);
    ant.enqueue({ text: [], toolUse: { id: 'toolu_py', name: 'python', input: { code: 'print(6*7)' } } }, { text: ['It is 42.'] });
    const sent = ant.requests.length;
    await execute(nb, 'py000001');
    await answered(nb, 'py000001');
    const [ask, again] = ant.requests.slice(sent).map((r) => r.body);
    assert.deepEqual((ask.tools as { name: string }[]).map((t) => t.name), ['python']);
    assert.deepEqual(results(again), ['42\n']);
    assert.match(replyText(cellOf(nb, 'py000001')), /"result": "42/);
  });

  it('a prompt with no switch and no reference gets no tools', async () => {
    const { nb } = await freshDialog([prompt('none0001', 'Just answer.')]);
    ant.enqueue({ text: ['Fine.'] });
    const sent = ant.requests.length;
    await execute(nb, 'none0001');
    await answered(nb, 'none0001');
    assert.equal(ant.requests[sent].body.tools, undefined);
  });

  it('del_msgs deletes (confirm never) as one undoable edit; a bad id is an error to the model and changes nothing', async () => {
    await settings().update('tools.confirm', 'never', vscode.ConfigurationTarget.Global);
    const { nb } = await freshDialog([note('keep0001', 'Keep me.'), note('gone0001', 'Delete me.'), prompt('del00001', 'Tidy up with &`[del_msgs, msg_str_replace]`.')]);
    const cells = texts(nb);
    ant.enqueue(
      { text: [], toolUses: [{ id: 'toolu_bad', name: 'msg_str_replace', input: { id: 'nope0000', old_str: 'a', new_str: 'b' } }, { id: 'toolu_del', name: 'del_msgs', input: { ids: 'gone0001' } }] },
      { text: ['Deleted.'] },
    );
    const sent = ant.requests.length;
    await execute(nb, 'del00001');
    await answered(nb, 'del00001');
    assert.deepEqual(results(ant.requests[sent + 1].body), ["Error: no message id: 'nope0000'", "['gone0001']"]);
    assert.deepEqual(ids(nb), ['keep0001', 'del00001']);
    assert.equal(cellOf(nb, 'keep0001').document.getText(), 'Keep me.');
    await undo(nb); // the reply
    await undo(nb); // the deletion
    await until(() => nb.cellCount === 3, 'the deletion undone');
    assert.deepEqual(texts(nb), cells);
  });

  it('del_msgs asks first by default: the call denied (VS Code under test refuses modals), the model reads "denied by the user" and nothing changes', async () => {
    await settings().update('tools.confirm', undefined, vscode.ConfigurationTarget.Global);
    const { nb } = await freshDialog([note('gone0002', 'Delete me?'), prompt('del00002', 'Delete with &`del_msgs`.')]);
    ant.enqueue({ text: [], toolUse: { id: 'toolu_del2', name: 'del_msgs', input: { ids: 'gone0002' } } }, { text: ['It was denied.'] });
    const sent = ant.requests.length;
    await execute(nb, 'del00002');
    await answered(nb, 'del00002');
    assert.deepEqual(results(ant.requests[sent + 1].body), ['denied by the user']);
    assert.deepEqual(ids(nb), ['gone0002', 'del00002']);
    assert.equal(cellOf(nb, 'gone0002').document.getText(), 'Delete me?');
  });
});

describe('the dialog tools for VS Code agents (Language Model Tools)', function () {
  this.timeout(120000);
  before(() => vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global));
  after(async () => {
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('tools.confirm', undefined, vscode.ConfigurationTarget.Global);
    await closeAll();
  });

  it('vscode.lm.tools lists dialog_<tool>; invokeTool reads the active dialog with its ids and adds a message to it', async () => {
    const { nb } = await freshDialog([note('lmno0001', '# Agents'), code('lmco0001', 'y = 1')]);
    await until(() => vscode.lm.tools.some((t) => t.name === 'dialog_view_dlg'), 'the dialog tools registered');
    const names = vscode.lm.tools.map((t) => t.name);
    for (const t of ['dialog_view_dlg', 'dialog_add_msg', 'dialog_find_msgs', 'dialog_del_msgs', 'dialog_python']) assert.ok(names.includes(t), t);
    const text = async (r: vscode.LanguageModelToolResult) => r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const view = await text(await vscode.lm.invokeTool('dialog_view_dlg', { input: {}, toolInvocationToken: undefined }));
    assert.match(view, /<markdown id="lmno0001"># Agents<\/markdown><code id="lmco0001">y = 1<\/code>/);
    await settings().update('tools.confirm', 'never', vscode.ConfigurationTarget.Global);
    const id = await text(await vscode.lm.invokeTool('dialog_add_msg', { input: { content: 'From an agent.', placement: 'at_end' }, toolInvocationToken: undefined }));
    assert.match(id, /^[0-9a-f]{8}$/);
    await until(() => nb.cellCount === 3, 'the message added');
    assert.equal(cellOf(nb, id).document.getText(), 'From an agent.');
    const bad = await text(await vscode.lm.invokeTool('dialog_view_msg', { input: { id: 'zzzz0000' }, toolInvocationToken: undefined }));
    assert.equal(bad, "Error: no message id: 'zzzz0000'");
  });
});
