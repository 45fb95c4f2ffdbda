// The palette surgery commands in the real VS Code, on corpus dialogs: each is one edit (one undo
// restores the notebook), refuses without changing anything when it cannot act, and saves the bytes
// the core predicts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { planMoveSection } from '../../src/core/surgery';
import { applyEdit } from '../../src/core/surgery';
import { dlg2py } from '../../src/core/model';
import { dlg2md } from '../../src/core/export';
import { aiRes } from '../../src/core/model';
import { closeAll, dialogState, openDialog, ownCopies, readText, replyText, save, setCellText, until, showDialog } from './helpers';


interface Result {
  ok: boolean;
  message: string;
}

async function select(nb: vscode.NotebookDocument, start: number, end = start + 1): Promise<vscode.NotebookEditor> {
  const ed = await vscode.window.showNotebookDocument(nb);
  ed.selections = [new vscode.NotebookRange(start, end)];
  return ed;
}

const ids = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => dialogState(c).id);
const run = (cmd: string, ...args: unknown[]) => vscode.commands.executeCommand<Result>(`dialogNotebook.${cmd}`, ...args);

async function undo(nb: vscode.NotebookDocument): Promise<void> {
  await showDialog(nb);
  await vscode.commands.executeCommand('undo');
}

describe('surgery commands', function () {
  this.timeout(60000);
  const own = ownCopies();
  afterEach(closeAll);

  it('moveDown moves the selection one cell down as one undo step; the save keeps every cell byte for byte', async () => {
    const before = await readText(await own('basic.ipynb'));
    const nb = await openDialog(await own('basic.ipynb'));
    const order = ids(nb);
    await select(nb, 1, 3);
    const r = await run('moveDown');
    assert.equal(r.ok, true, r.message);
    assert.deepEqual(ids(nb), [order[0], order[3], order[1], order[2], ...order.slice(4)]);
    await undo(nb);
    await until(() => ids(nb)[1] === order[1], 'undo');
    assert.deepEqual(ids(nb), order);
    await select(nb, 1, 3);
    assert.equal((await run('moveDown')).ok, true);
    assert.ok(await save(nb));
    const d = readIpynb(before);
    const [a, b, c] = d.messages.splice(1, 3);
    d.messages.splice(1, 0, c, a, b);
    assert.equal(await readText(await own('basic.ipynb')), writeIpynb(d), 'the saved file is the core move of the read file');
  });

  it('moveUp on the first cell refuses and changes nothing', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    const v = nb.version;
    await select(nb, 0);
    const r = await run('moveUp');
    assert.equal(r.ok, false);
    assert.match(r.message, /already at the top/);
    assert.equal(nb.version, v);
    assert.equal(nb.isDirty, false);
  });

  it('moveSectionUp moves a heading with its section as the core plans it; one undo restores', async () => {
    const text = await readText(await own('sections.ipynb'));
    const nb = await openDialog(await own('sections.ipynb'));
    const order = ids(nb);
    const k = order.indexOf('s000000a');
    await select(nb, k);
    const r = await run('moveSectionUp');
    assert.equal(r.ok, true, r.message);
    const d = readIpynb(text);
    applyEdit(d, planMoveSection(d, 's000000a', 'up'));
    assert.deepEqual(ids(nb), d.messages.map((m) => m.id));
    assert.ok(ids(nb).indexOf('s000000a') < k, 'the heading moved up');
    assert.equal(ids(nb)[ids(nb).indexOf('s000000a') + 1], 's000000b', 'its section came along');
    await undo(nb);
    await until(() => ids(nb).indexOf('s000000a') === k, 'undo');
    assert.deepEqual(ids(nb), order);
  });

  it('moveSectionDown at the end of its parent refuses with the reason', async () => {
    const nb = await openDialog(await own('sections.ipynb'));
    await select(nb, ids(nb).indexOf('s000000a'));
    const r = await run('moveSectionDown');
    assert.equal(r.ok, false);
    assert.match(r.message, /already last/);
    assert.equal(nb.isDirty, false);
  });

  it('splitCell splits at a position into two messages; one undo restores the cell', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    const n = nb.cellCount;
    const text = nb.cellAt(0).document.getText();
    await select(nb, 0);
    const cut = Array.from(text.split('\n\n')[0]).length + 2; // the start of the second paragraph
    const r = await run('splitCell', nb.cellAt(0), cut);
    assert.equal(r.ok, true, r.message);
    assert.equal(nb.cellCount, n + 1);
    assert.equal(nb.cellAt(0).document.getText() + '\n\n' + nb.cellAt(1).document.getText(), text);
    assert.equal(dialogState(nb.cellAt(0)).id, 'b0000001', 'the first piece keeps the id');
    await undo(nb);
    await until(() => nb.cellCount === n, 'undo');
    assert.equal(nb.cellAt(0).document.getText(), text);
  });

  it('splitCell without a cursor or position refuses', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    await select(nb, 4);
    const r = await run('splitCell');
    assert.equal(r.ok, false);
    assert.equal(nb.isDirty, false);
  });

  it('mergeCells merges the selection into the first message; undo splits it again', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    const order = ids(nb);
    const [a, b] = [nb.cellAt(1).document.getText(), nb.cellAt(4).document.getText()];
    await select(nb, 4, 6);
    const r = await run('mergeCells', undefined, true); // code + prompt: the question answered yes
    assert.equal(r.ok, true, r.message);
    assert.equal(nb.cellCount, order.length - 1);
    assert.equal(dialogState(nb.cellAt(4)).id, order[4]);
    assert.ok(nb.cellAt(4).document.getText().includes('print("hi")'));
    await undo(nb);
    await until(() => nb.cellCount === order.length, 'undo');
    assert.deepEqual(ids(nb), order);
    assert.equal(nb.cellAt(1).document.getText(), a);
    assert.equal(nb.cellAt(4).document.getText(), b);
  });

  it('explodeReply lays the reply out as tagged cells; saving writes the very same bytes', async () => {
    const before = await readText(await own('tools.ipynb'));
    const nb = await openDialog(await own('tools.ipynb'));
    const n = nb.cellCount;
    const reply = replyText(nb.cellAt(0));
    const r = await run('explodeReply', nb.cellAt(0));
    assert.equal(r.ok, true, r.message);
    const parts = readIpynb(before).messages[0];
    assert.ok(aiRes(parts).length > 0);
    assert.equal(replyText(nb.cellAt(0)), '', 'the prompt shows no reply while exploded');
    const added = nb.cellCount - n;
    assert.ok(added >= 3, `${added} cells`);
    for (let k = 1; k <= added; k++) assert.equal((dialogState(nb.cellAt(k)) as { extra?: Record<string, unknown> }).extra?.explodedFrom, 't0000001');
    assert.equal(nb.cellAt(2).document.getText(), "python(code='1+1')");
    assert.ok(await save(nb));
    assert.equal(await readText(await own('tools.ipynb')), before, 'exploded cells are written back as the reply');
    const back = await run('implodeReply', nb.cellAt(2));
    assert.equal(back.ok, true, back.message);
    assert.equal(nb.cellCount, n);
    assert.equal(replyText(nb.cellAt(0)), reply);
  });

  it('an edited exploded part is saved inside the reply, in the wire style the reply had', async () => {
    const nb = await openDialog(await own('tools.ipynb'));
    assert.equal((await run('explodeReply', nb.cellAt(0))).ok, true);
    await setCellText(nb.cellAt(1), 'Let me check carefully:');
    assert.ok(await save(nb));
    const d = readIpynb(await readText(await own('tools.ipynb')));
    const saved = aiRes(d.messages[0]);
    assert.ok(saved.includes('Let me check carefully:'), saved.slice(0, 200));
    assert.equal(d.messages.length, readIpynb(await readText('tools.ipynb')).messages.length, 'no exploded cell reaches the file');
    assert.ok(saved.includes("```json {.tool}") || saved.includes('<details'), 'tool blocks kept');
  });

  it('explodeReply refuses on a prompt without a reply and on a tool name that is not Python', async () => {
    const basic = await openDialog(await own('basic.ipynb'));
    const r1 = await run('explodeReply', basic.cellAt(5));
    assert.equal(r1.ok, false);
    assert.match(r1.message, /no reply/);
    await closeAll();
    const tools = await openDialog(await own('tools.ipynb'));
    const r2 = await run('explodeReply', tools.cellAt(6));
    assert.equal(r2.ok, false);
    assert.match(r2.message, /foo-bar/);
    assert.equal(tools.isDirty, false);
  });

  it('copy and paste between dialogs carries attachments; cut removes as one undo step', async () => {
    const media = await openDialog(await own('media.ipynb'));
    await select(media, 1);
    assert.equal((await run('copyMessages')).ok, true);
    const attachments = (dialogState(media.cellAt(1)) as { attachments?: { id: string }[] }).attachments ?? [];
    assert.ok(attachments.length >= 1);
    const [srcText, srcId] = [media.cellAt(1).document.getText(), dialogState(media.cellAt(1)).id];
    const basic = await openDialog(await own('basic.ipynb'));
    const n = basic.cellCount;
    await select(basic, 0);
    const r = await run('pasteMessages');
    assert.equal(r.ok, true, r.message);
    assert.equal(basic.cellCount, n + 1);
    const pasted = basic.cellAt(1);
    assert.equal(pasted.document.getText(), srcText);
    assert.notEqual(dialogState(pasted).id, srcId, 'a fresh id');
    assert.deepEqual(((dialogState(pasted) as { attachments?: { id: string }[] }).attachments ?? []).map((a) => a.id), attachments.map((a) => a.id));
    assert.ok(await save(basic));
    const saved = JSON.parse(await readText(await own('basic.ipynb'))) as { cells: { attachments?: Record<string, unknown> }[] };
    assert.deepEqual(Object.keys(saved.cells[1].attachments ?? {}).sort(), attachments.map((a) => a.id).sort());

    await select(basic, 2, 4);
    const before = ids(basic);
    assert.equal((await run('cutMessages')).ok, true);
    assert.deepEqual(ids(basic), [...before.slice(0, 2), ...before.slice(4)]);
    await undo(basic);
    await until(() => basic.cellCount === before.length, 'undo');
    assert.deepEqual(ids(basic), before);
  });

  it('findMessages reveals the first match (text, /regex/, type:)', async () => {
    const nb = await openDialog(await own('basic.ipynb'));
    const hit = await vscode.commands.executeCommand<{ id: string; index: number }>('dialogNotebook.findMessages', { query: 'type:prompt /x\\*2/' });
    assert.equal(hit?.id, 'b0000003');
    assert.equal(vscode.window.activeNotebookEditor?.selection.start, hit.index);
    const none = await vscode.commands.executeCommand('dialogNotebook.findMessages', { query: 'type:raw print' });
    assert.equal(none, undefined);
    assert.equal(nb.isDirty, false);
  });

  it('exportPython and exportMarkdown give dlg2py and dlg2md of the dialog', async () => {
    const text = await readText(await own('export.ipynb'));
    await openDialog(await own('export.ipynb'));
    const py = await vscode.commands.executeCommand<vscode.TextDocument>('dialogNotebook.exportPython');
    assert.equal(py.getText(), dlg2py(readIpynb(text)));
    assert.equal(py.languageId, 'python');
    await vscode.window.showNotebookDocument(vscode.workspace.notebookDocuments.find((d) => d.uri.path.endsWith('export.ipynb'))!);
    const md = await vscode.commands.executeCommand<vscode.TextDocument>('dialogNotebook.exportMarkdown');
    assert.equal(md.getText(), dlg2md(readIpynb(text)));
  });

  it('validate puts each problem on its cell in the Problems view', async () => {
    const nb = await openDialog(await own('edge_duplicate_ids.ipynb'));
    const problems = await vscode.commands.executeCommand<{ index: number; message: string }[]>('dialogNotebook.validate');
    assert.ok(problems.length >= 2, JSON.stringify(problems));
    assert.ok(problems.every((p) => /duplicate message id dup1/.test(p.message)));
    // Listed as "cell N" of the dialog (problemLinks.ts says why not on the cell's own URI).
    const ofDialog = (d: vscode.NotebookDocument) => vscode.languages.getDiagnostics().filter(([u]) => u.scheme === 'dialog-problem' && u.path.startsWith(`${d.uri.path}/`));
    const diags = ofDialog(nb).filter(([u]) => u.path.endsWith('/cell 2')).flatMap(([, list]) => list);
    assert.equal(diags.length, 1);
    assert.match(diags[0].message, /duplicate/);
    await closeAll();
    const ok = await openDialog(await own('basic.ipynb'));
    assert.deepEqual(await vscode.commands.executeCommand('dialogNotebook.validate'), []);
    assert.equal(ofDialog(ok).length, 0);
  });
});
