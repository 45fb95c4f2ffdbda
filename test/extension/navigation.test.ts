// Navigation in the real VS Code: revealing messages, prompt symbols for the Outline, the sections
// views, and the Dialog panel driven through its message protocol (the webview's side is simulated by
// calling the host's `receive` with what the webview would post).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readIpynb } from '../../src/core/ipynb';
import { modelLimits, planRequest, requestPreview } from '../../src/extension/answer/request';
import { aiRes } from '../../src/core/model';
import { StateMessage, HostMessage, hostMessageSchema } from '../../src/shared/panelProtocol';
import { closeAll, dialogState, openDialog, ownCopies, readText, replyText, until, showDialog } from './helpers';

interface PanelHost {
  lastState: StateMessage;
  posted: HostMessage[];
  panel: vscode.WebviewPanel;
  update(): StateMessage;
  receive(m: unknown): Promise<void>;
}

async function select(nb: vscode.NotebookDocument, k: number): Promise<void> {
  const ed = await vscode.window.showNotebookDocument(nb, { viewColumn: vscode.ViewColumn.One });
  ed.selections = [new vscode.NotebookRange(k, k + 1)];
}

async function panelFor(nb: vscode.NotebookDocument, k: number): Promise<PanelHost> {
  await select(nb, k);
  const p = await vscode.commands.executeCommand<PanelHost>('dialogNotebook.showPanel');
  await select(nb, k);
  await until(() => p.lastState.dialog !== null && p.lastState.selected === dialogState(nb.cellAt(k)).id, 'the panel to follow the selection');
  return p;
}

describe('navigation', function () {
  this.timeout(60000);
  const own = ownCopies();
  // closeAll reverts what a test changed, whichever group its editor ended up in, once its editor is active.
  afterEach(closeAll);

  it('revealMessage selects the cell of a message id', async () => {
    const nb = await openDialog(await own('sections.ipynb'));
    await vscode.window.showNotebookDocument(nb);
    const ok = await vscode.commands.executeCommand('dialogNotebook.revealMessage', nb.uri.toString(), 0, 's000000c');
    assert.equal(ok, true);
    assert.equal(dialogState(nb.cellAt(vscode.window.activeNotebookEditor!.selection.start)).id, 's000000c');
  });

  it('the sections views exist and can be focused', async () => {
    await openDialog(await own('sections.ipynb'));
    await vscode.commands.executeCommand('dialogNotebook.sections.focus');
    await vscode.commands.executeCommand('dialogNotebook.sectionsSidebar.focus');
  });

  it('each prompt cell is one document symbol named by its first line', async () => {
    const nb = await openDialog(await own('sections.ipynb'));
    const prompt = nb.getCells().find((c) => dialogState(c).id === 's0000005')!;
    const syms = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', prompt.document.uri);
    assert.equal(syms.length, 1);
    assert.equal(syms[0].name, '# prompt that looks like a heading');
  });

  it('the panel shows the history the prompt under the cursor would send (issue 9: the preview is the request)', async () => {
    const text = await readText(await own('basic.ipynb'));
    const nb = await openDialog(await own('basic.ipynb'));
    const p = await panelFor(nb, 5);
    const s = p.update();
    assert.ok(hostMessageSchema.safeParse(s).success, 'the state fits the protocol');
    assert.equal(s.history?.promptId, 'b0000006', `history of ${s.selected}: ${s.historyError ?? JSON.stringify(s.history)?.slice(0, 300)}`);
    const limits = modelLimits();
    const request = planRequest(readIpynb(text), 'b0000006', limits);
    assert.deepEqual(s.history, requestPreview(request, 'chat', limits), 'the default view is what is sent');
    // The prompt's own old reply is not sent, so the request ends with the prompt's user turn.
    assert.ok(s.history!.turns.length === 3 && s.history!.total > 0 && s.history!.turns[2].role === 'user');
    assert.ok(s.sections.length >= 1 && s.sections[0].label === 'Basic dialog');
    await p.receive({ type: 'setMode', mode: 'hist' });
    assert.deepEqual(p.lastState.history, requestPreview(request, 'hist', limits));
    await p.receive({ type: 'setMode', mode: 'chat' });
    const html = p.panel.webview.html;
    assert.match(html, /default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
  });

  it('the History tab follows a new prompt when the panel opens with it focused and the selection emptied (issue 47)', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    await select(nb, 2);
    await vscode.commands.executeCommand('dialogNotebook.addPrompt');
    await until(() => nb.cellCount === 11, 'the new prompt');
    const id = dialogState(nb.cellAt(3)).id!;
    await until(() => vscode.window.activeNotebookEditor?.selection.start === 3, 'the new prompt selected');
    // Esc in command mode empties VS Code's selection while the new prompt keeps the focus.
    vscode.window.activeNotebookEditor!.selections = [];
    const p = await vscode.commands.executeCommand<PanelHost>('dialogNotebook.showPanel');
    await until(() => p.lastState.history?.promptId === id, 'the History tab up to the new prompt');
    assert.equal(p.lastState.selected, id);
  });

  it('skipped messages show as skipped parts and leave the history', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    await vscode.commands.executeCommand('dialogNotebook.toggleSkipped', nb.cellAt(1));
    const p = await panelFor(nb, 2);
    const s = p.update();
    const first = s.history!.turns[0];
    assert.ok(first.parts.some((x) => x.kind === 'skipped' && x.text.includes('x = 21')), JSON.stringify(first.parts));
    assert.ok(!first.parts.some((x) => x.kind === 'text' && x.text.includes('x = 21')));
  });

  it('reveal from the panel selects the cell; malformed messages are ignored', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    const p = await panelFor(nb, 0);
    const n = p.posted.length;
    const v = nb.version;
    await p.receive({ type: 'reveal', id: 'b0000009' });
    await until(() => dialogState(nb.cellAt(vscode.window.activeNotebookEditor?.selection.start ?? 0)).id === 'b0000009', 'the reveal');
    await p.receive({ type: 'applyReply', promptId: 'b0000003', parts: [{ kind: 'note', text: 5 }] });
    await p.receive({ type: 'eval', code: 'alert(1)' });
    await p.receive('<script>');
    assert.equal(p.posted.length, n, 'nothing answered');
    assert.equal(nb.version, v, 'nothing changed');
  });

  it('applying reply parts writes the reply in its own wire format as one undo step', async () => {
    const text = await readText(await own('tools.ipynb'));
    const nb = await openDialog(await own('tools.ipynb'));
    const p = await panelFor(nb, 0);
    const reply = p.lastState.reply!;
    assert.equal(reply.promptId, 't0000001');
    // Unchanged parts give back the very same reply.
    await p.receive({ type: 'applyReply', promptId: reply.promptId, parts: reply.parts });
    assert.equal(replyText(nb.cellAt(0)), aiRes(readIpynb(text).messages[0]));
    const parts = structuredClone(reply.parts);
    const note = parts.find((x) => x.kind === 'note')!;
    if (note.kind === 'note') note.text = 'Checked:';
    parts.push({ kind: 'call', name: 'python', args: "code='3*3'", result: '9', toolId: '' });
    await p.receive({ type: 'applyReply', promptId: reply.promptId, parts });
    const last = p.posted.filter((m) => m.type === 'applied').pop();
    assert.deepEqual(last, { type: 'applied', ok: true, message: 'Reply updated.' });
    const now = replyText(nb.cellAt(0));
    assert.ok(now.includes('Checked:') && now.includes('3*3'), now);
    assert.equal((now.match(/```json \{\.tool\}|<details/g) ?? []).length, (aiRes(readIpynb(text).messages[0]).match(/```json \{\.tool\}|<details/g) ?? []).length + 1);
    await showDialog(nb);
    await vscode.commands.executeCommand('undo');
    await until(() => replyText(nb.cellAt(0)) === aiRes(readIpynb(text).messages[0]), 'undo');
    // A call that is not keyword=literal is refused, nothing changes.
    const bad = structuredClone(reply.parts);
    bad.push({ kind: 'call', name: 'python', args: 'code=open("x")', result: '', toolId: '' });
    const v = nb.version;
    await p.receive({ type: 'applyReply', promptId: reply.promptId, parts: bad });
    const refused = p.posted.filter((m) => m.type === 'applied').pop();
    assert.equal(refused?.type === 'applied' && refused.ok, false);
    assert.equal(nb.version, v);
  });
});
