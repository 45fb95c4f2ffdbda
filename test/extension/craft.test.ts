// CRAFT.ipynb files (issue 21 §3) in the real VS Code with a real kernel and the mock Anthropic server:
// the notes and prompts of the CRAFT files of a dialog's folder and its parents, root-most first, go
// before the dialog's messages without becoming cells, labelled in the History tab; their code runs in
// the dialog's kernel first, so ``$`var` `` names what it defines; a changed CRAFT file counts from the
// next prompt; an unreadable one is left out and named on the cell and in the History tab.
// Needs Debian's jupyter-server and python3-ipykernel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Dialog, Message, promptOutput, writeIpynb, replyUsage } from '../../src/core';
import { StateMessage } from '../../src/shared/panelProtocol';
import { cellOf, closeAll, execute, note, openDialog, replyText, until, useMockProviders, wsUri } from './helpers';

const write = (name: string, d: Dialog | string) => vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(typeof d === 'string' ? d : writeIpynb(d)));
const answered = (nb: vscode.NotebookDocument, id: string) => until(() => replyUsage(replyText(cellOf(nb, id))) !== null && replyText(cellOf(nb, id)), 'the answer', 120000);
type Body = { messages: { role: string; content: { type: string; text?: string }[] }[] };
const sent = (b: Body) => b.messages.map((m) => `${m.role}: ${m.content.map((p) => p.text ?? p.type).join(' | ')}`);

const ROOT = new Dialog([
  new Message({ msgType: 'note', content: 'CRAFT-ROOT-NOTE: answer in haiku.' }),
  new Message({ msgType: 'code', content: 'craft_x = 40 + 2' }),
]);
const SUB = new Dialog([
  new Message({ msgType: 'prompt', content: 'CRAFT-SUB-Q', output: promptOutput('CRAFT-SUB-A') }),
  new Message({ msgType: 'code', content: 'craft_y = craft_x + 1' }),
  new Message({ msgType: 'code', content: 'def craft_add(a: int, b: int) -> int:\n    "Add two numbers."\n    return a + b' }),
]);

describe('CRAFT.ipynb', function () {
  this.timeout(300000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'], kernel: true });
  let n = 0;
  /** A dialog in scratch/craft/sub/ (two CRAFT files above it) with one prompt. */
  async function dialog(text: string): Promise<vscode.NotebookDocument> {
    const name = `scratch/craft/sub/${++n}.ipynb`;
    await write(name, new Dialog([new Message({ id: 'ask00001', msgType: 'prompt', content: text })]));
    const nb = await openDialog(name);
    await vscode.window.showNotebookDocument(nb);
    return nb;
  }

  before(async () => {
    await write('scratch/craft/CRAFT.ipynb', ROOT);
    await write('scratch/craft/sub/CRAFT.ipynb', SUB);
  });
  afterEach(closeAll);
  after(async () => {
    await vscode.workspace.fs.delete(wsUri('scratch/craft'), { recursive: true });
  });

  it('sends both CRAFT files root-most first, before the dialog, and runs their code in its kernel for $`var` and &`fn`', async () => {
    const nb = await dialog('What is $`craft_y`? &`craft_add` may help.');
    ant.enqueue({ text: ['Forty-three.'] });
    const before = ant.requests.length;
    await execute(nb, 'ask00001');
    await answered(nb, 'ask00001');
    const lines = sent(ant.requests[before].body as Body);
    assert.match(lines[0], /^user: .*CRAFT-ROOT-NOTE.*CRAFT context of scratch\/craft\/CRAFT\.ipynb/);
    assert.equal(lines[1], 'assistant: Understood: I will keep this context in mind.');
    assert.match(lines[2], /^user: CRAFT-SUB-Q$/);
    assert.equal(lines[3], 'assistant: CRAFT-SUB-A');
    assert.match(lines[4], /CRAFT context of scratch\/craft\/sub\/CRAFT\.ipynb/);
    // The kernel ran both files' code, in order, before the prompt read its value.
    assert.match(lines[6], /<variable name="craft_y" type="int">43<\/variable>/);
    assert.match(lines[lines.length - 1], /What is \$`craft_y`\?/);
    const tools = (ant.requests[before].body as { tools?: { name: string }[] }).tools ?? [];
    assert.deepEqual(tools.map((t) => t.name), ['craft_add'], 'a CRAFT-defined function is a tool');
    assert.ok(!lines.some((l) => l.includes('craft_x = 40')), 'CRAFT code is run, not sent');
    assert.equal(nb.cellCount, 1, 'the CRAFT messages are not cells of the dialog');
    assert.equal(await note(nb, 'ask00001'), undefined);

    // The History tab shows them first, labelled, with their tokens.
    const p = await vscode.commands.executeCommand<{ lastState: StateMessage }>('dialogNotebook.showPanel');
    const labels = () => p.lastState.history?.turns.flatMap((t) => t.parts).filter((x) => x.kind === 'craft').map((x) => x.text) ?? [];
    await until(() => labels().length === 2, 'the CRAFT parts in the History tab');
    assert.match(labels()[0], /^CRAFT scratch\/craft\/CRAFT\.ipynb: 1 message, ~\d+ tokens$/);
    assert.match(labels()[1], /^CRAFT scratch\/craft\/sub\/CRAFT\.ipynb: 1 message, ~\d+ tokens$/);
    assert.equal(p.lastState.history?.turns[0].parts[0].kind, 'craft');
  });

  it('a changed CRAFT file counts from the next prompt; an unreadable one is left out and named', async () => {
    const nb = await dialog('Hello.');
    await write('scratch/craft/sub/CRAFT.ipynb', new Dialog([new Message({ msgType: 'note', content: 'CRAFT-SUB-CHANGED' })]));
    ant.enqueue({ text: ['Hi.'] });
    let before = ant.requests.length;
    await execute(nb, 'ask00001');
    await answered(nb, 'ask00001');
    let lines = sent(ant.requests[before].body as Body);
    assert.ok(lines.some((l) => l.includes('CRAFT-SUB-CHANGED')) && !lines.some((l) => l.includes('CRAFT-SUB-Q')), lines.join('\n'));

    await write('scratch/craft/sub/CRAFT.ipynb', '{ not a notebook');
    ant.enqueue({ text: ['Hi again.'] });
    before = ant.requests.length;
    await execute(nb, 'ask00001');
    await until(() => replyText(cellOf(nb, 'ask00001')).includes('Hi again.') && replyUsage(replyText(cellOf(nb, 'ask00001'))) !== null, 'the second answer', 120000);
    lines = sent(ant.requests[before].body as Body);
    assert.ok(lines[0].includes('CRAFT-ROOT-NOTE'), 'the readable file is still sent');
    assert.ok(!lines.some((l) => l.includes('CRAFT-SUB')), 'the unreadable one is not');
    const cellNote = (await until(() => note(nb, 'ask00001'), 'the note on the cell'))!;
    assert.match(cellNote.text, /CRAFT unreadable/);
    assert.match(cellNote.tooltip, /scratch\/craft\/sub\/CRAFT\.ipynb/);
    const p = await vscode.commands.executeCommand<{ lastState: StateMessage }>('dialogNotebook.showPanel');
    await until(() => p.lastState.history?.turns.some((t) => t.parts.some((x) => x.kind === 'craft' && x.text.includes('could not be read: scratch/craft/sub/CRAFT.ipynb'))), 'the History tab naming the file');
    await write('scratch/craft/sub/CRAFT.ipynb', SUB);
  });
});
