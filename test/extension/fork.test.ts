// Forks in the real VS Code (issue 11): Fork Here writes and opens the fork with its lineage and leaves
// the parent's bytes alone, never overwrites a file the user keeps, refuses duplicate ids; the Lineage
// tree shows the family and opens a fork at its split; Compare with Parent opens a diff (or says the
// parent is missing); Overview shows one line per message and follows edits.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LineageNode } from '../../src/core/fork';
import type { LineageProvider } from '../../src/extension/fork/lineageView';
import { closeAll, copyOf, dialogState, openDialog, readText, replyText, setCellText, until, useMockProviders, wsUri, writeText } from './helpers';

interface ForkResult {
  ok: boolean;
  message: string;
  uri?: vscode.Uri;
}

interface NotebookJson {
  metadata: { dialog_lineage?: Record<string, unknown> };
  cells: { id?: string; source: string[] }[];
}

const fork = (cell: vscode.NotebookCell, o: object) => vscode.commands.executeCommand<ForkResult>('dialogNotebook.forkHere', cell, o);
const ids = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => dialogState(c).id);
const fileName = (p: string) => p.replace(/^.*\//, '');
/** `scratch/3-basic.ipynb` → `scratch/3-basic.<suffix>.ipynb`. */
const beside = (p: string, suffix: string) => p.replace(/\.ipynb$/, `.${suffix}.ipynb`);
/** For states that follow file events and editor opens, slow on a loaded machine. */
const WAIT = 60000;
const notebookAt = (uri: vscode.Uri) => vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());

async function lineage(): Promise<{ provider: LineageProvider; nodes: Map<string, { node: LineageNode; parent?: string }> }> {
  const provider = (await vscode.commands.executeCommand<LineageProvider>('dialogNotebook.lineageTree'))!;
  const nodes = new Map<string, { node: LineageNode; parent?: string }>();
  const walk = async (ns: LineageNode[], parent?: string) => {
    for (const n of ns) {
      nodes.set(n.path, { node: n, parent });
      await walk(await provider.getChildren(n), n.path);
    }
  };
  await walk(await provider.getChildren());
  return { provider, nodes };
}

describe('forks', function () {
  // Each test opens two to four dialogs, each open taking many seconds on a loaded machine.
  this.timeout(180000);
  let parent = '';
  // VS Code activates its markdown extension when a dialog's notes are first edited; on a busy machine
  // that load stalls the extension host past a save's deadline and VS Code cancels the save.
  before(async () => {
    await vscode.extensions.getExtension('vscode.markdown-language-features')?.activate();
  });
  beforeEach(async () => {
    parent = await copyOf('basic.ipynb');
  });
  afterEach(closeAll);

  it('Fork Here opens the fork with the messages up to the cell and its lineage; the parent keeps its bytes', async () => {
    const before = await readText(parent);
    const nb = await openDialog(parent);
    const target = wsUri(beside(parent, 'fork-1'));
    const r = await fork(nb.cellAt(2), { target, whole: true });
    assert.ok(r?.ok, r?.message);
    const f = notebookAt(target);
    assert.ok(f, 'the fork is open');
    assert.deepEqual(ids(f), ['b0000001', 'b0000002', 'b0000003']);
    await until(() => {
      const ed = vscode.window.activeNotebookEditor;
      return ed?.notebook === f && ed.selection.start === 2;
    }, 'the fork shown at its split', WAIT);
    const [p, c] = [JSON.parse(before) as NotebookJson, JSON.parse(await readText(beside(parent, 'fork-1'))) as NotebookJson];
    const differs = c.cells.findIndex((cell, k) => JSON.stringify(cell) !== JSON.stringify(p.cells[k]));
    assert.deepEqual(c.cells, p.cells.slice(0, 3), `the kept cells as the parent stores them; cell ${differs}: ${JSON.stringify(c.cells[differs])} in the fork, ${JSON.stringify(p.cells[differs])} in the parent`);
    const l = c.metadata.dialog_lineage!;
    assert.deepEqual({ ...l, time: undefined }, { parent: fileName(parent), parent_msg: 'b0000003', split: 2, time: undefined });
    assert.ok(!Number.isNaN(Date.parse(String(l.time))));
    assert.equal(await readText(parent), before, "the parent's bytes");
    assert.ok(!nb.isDirty);
  });

  it('saves a dialog with unsaved changes first when told to, and keeps the first k and last n', async () => {
    const nb = await openDialog(parent);
    await setCellText(nb.cellAt(6), 'an edited prompt');
    assert.ok(nb.isDirty);
    const target = wsUri(beside(parent, 'cut'));
    const r = await fork(nb.cellAt(6), { target, firstK: 1, lastN: 2, save: true });
    assert.ok(r?.ok, r?.message);
    assert.ok(!nb.isDirty, 'saved');
    assert.ok((await readText(parent)).includes('an edited prompt'));
    const f = notebookAt(target)!;
    assert.deepEqual(ids(f), ['b0000001', 'b0000006', 'b0000007']);
    assert.equal(f.cellAt(2).document.getText(), 'an edited prompt');
    const l = (JSON.parse(await readText(beside(parent, 'cut'))) as NotebookJson).metadata.dialog_lineage!;
    assert.deepEqual([l.split, l.first_k, l.last_n], [6, 1, 2]);
  });

  it('never overwrites an existing file unless told to, nor the parent', async () => {
    const nb = await openDialog(parent);
    const kept = beside(parent, 'kept');
    await writeText(kept, 'keep me');
    const declined = await fork(nb.cellAt(1), { target: wsUri(kept), whole: true, overwrite: false });
    assert.equal(declined?.ok, false);
    assert.match(declined!.message, /exists/);
    assert.equal(await readText(kept), 'keep me');
    const before = await readText(parent);
    const self = await fork(nb.cellAt(1), { target: nb.uri, whole: true, overwrite: true });
    assert.equal(self?.ok, false);
    assert.equal(await readText(parent), before);
    const r = await fork(nb.cellAt(1), { target: wsUri(kept), whole: true, overwrite: true });
    assert.ok(r?.ok, r?.message);
    assert.equal((JSON.parse(await readText(kept)) as NotebookJson).cells.length, 2);
  });

  it('refuses a dialog with duplicate ids, writing nothing', async () => {
    const dup = await copyOf('edge_duplicate_ids.ipynb');
    const nb = await openDialog(dup);
    const target = wsUri(beside(dup, 'fork-1'));
    const r = await fork(nb.cellAt(0), { target, whole: true });
    assert.equal(r?.ok, false);
    assert.match(r!.message, /duplicate message id/);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(target)));
  });

  it('the Lineage tree shows the family; a click opens a fork at its split', async () => {
    const nb = await openDialog(parent);
    const child = wsUri(beside(parent, 'fork-1'));
    assert.ok((await fork(nb.cellAt(4), { target: child, whole: true }))?.ok);
    const grandchild = wsUri(beside(parent, 'fork-2'));
    assert.ok((await fork(notebookAt(child)!.cellAt(1), { target: grandchild, whole: true }))?.ok);
    const { provider, nodes } = (await until(async () => {
      const t = await lineage();
      return t.nodes.has(grandchild.path) ? t : undefined;
    }, 'the forks in the tree', WAIT))!;
    assert.equal(nodes.get(nb.uri.path)?.parent, undefined, 'the parent is a root');
    assert.equal(nodes.get(child.path)?.parent, nb.uri.path);
    assert.equal(nodes.get(grandchild.path)?.parent, child.path);
    // The tree view may rebuild the tree meanwhile (a refresh): a node of the build before keeps its parent.
    await provider.getChildren();
    const item = provider.getTreeItem(nodes.get(child.path)!.node);
    // Under its parent a fork is named by what its name adds, with its split message's first line.
    assert.equal(item.label, 'fork-1');
    assert.equal(item.description, '5 msgs · split@4: print("hi")');
    assert.match(String(item.tooltip), new RegExp(fileName(beside(parent, 'fork-1')).replace(/\./g, '\\.')));
    assert.ok(item.command);
    await closeAll();
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    await until(() => {
      const ed = vscode.window.activeNotebookEditor;
      return ed?.notebook.uri.toString() === child.toString() && ed.selection.start === 4;
    }, 'the fork opened at its split', WAIT);
  });

  it('Compare with Parent opens a diff of both from the split on', async () => {
    const nb = await openDialog(parent);
    const target = wsUri(beside(parent, 'fork-1'));
    assert.ok((await fork(nb.cellAt(2), { target, whole: true }))?.ok);
    const r = await vscode.commands.executeCommand<ForkResult>('dialogNotebook.compareWithParent', target);
    assert.ok(r?.ok, r?.message);
    const diff = (await until(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'dialog-compare'),
      'a diff tab',
      WAIT,
    ))!;
    const input = diff.input as vscode.TabInputTextDiff;
    const [left, right] = await Promise.all([input.original, input.modified].map((u) => vscode.workspace.openTextDocument(u)));
    assert.ok(left.getText().startsWith('::: prompt\nWhat is x*2?'), 'the parent from the split');
    assert.ok(left.getText().includes('plain raw text'), 'the rest of the parent');
    assert.ok(right.getText().startsWith('::: prompt\nWhat is x*2?'), 'the fork from the split');
    assert.ok(!right.getText().includes('plain raw text'));
  });

  it('Compare with Parent says so when the parent is missing, and the tree shows it missing', async () => {
    // A message with a fresh id: no other dialog of the workspace holds it, so nothing can stand in for the
    // parent. Written into the file before it opens: a save of the open dialog can be given up by VS Code
    // on a busy machine (its save participants' deadline), which the fork's own save then is too.
    const json = JSON.parse(await readText(parent)) as { cells: unknown[] };
    const fresh = `f${Date.now().toString(16).slice(-7)}`;
    json.cells.splice(1, 0, { cell_type: 'markdown', id: fresh, metadata: {}, source: ['An orphan to be.'] });
    await writeText(parent, JSON.stringify(json, null, 1) + '\n');
    const nb = await openDialog(parent);
    assert.equal(dialogState(nb.cellAt(1)).id, fresh);
    const target = wsUri(beside(parent, 'orphan'));
    const forked = await fork(nb.cellAt(1), { target, whole: true, save: true });
    assert.ok(forked?.ok, forked?.message);
    // Compare acts on the fork's open dialog: once it is open.
    await until(() => notebookAt(target), 'the fork open as a dialog', WAIT);
    await vscode.workspace.fs.delete(nb.uri);
    await until(async () => vscode.workspace.fs.stat(nb.uri).then(() => false, () => true), 'the parent gone from disk', WAIT);
    await until(async () => (await lineage()).nodes.get(nb.uri.path)?.node.missing, 'the parent shown missing', WAIT);
    // The index rescans on each file event, which a loaded machine may deliver late (the fork's write, the
    // delete): the command answers from the scan it finds, so it is asked until a scan that saw the delete
    // answers. A parent found (ok) fails below, as would any other refusal.
    const r = await until<ForkResult | undefined>(async () => {
      const res = await vscode.commands.executeCommand<ForkResult>('dialogNotebook.compareWithParent', target);
      return res && (res.ok || /missing/.test(res.message)) ? res : undefined;
    }, 'Compare with Parent to answer', WAIT);
    assert.equal(r?.ok, false, r?.message);
    assert.match(r!.message, /missing/);
  });

  it('Overview shows one line per message and follows edits', async () => {
    const nb = await openDialog(parent);
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('dialogNotebook.overview', nb.uri);
    assert.ok(doc);
    const lines = () => doc.getText().trimEnd().split('\n');
    assert.equal(lines().length, nb.cellCount);
    assert.match(lines()[0], /^0\. b0000001/);
    await setCellText(nb.cellAt(1), 'y = 1');
    await until(() => lines()[1].includes('y = 1'), 'the overview to follow the edit', WAIT);
  });

  // A suite of its own (mocha runs it after the tests above): the web pass leaves this test out, and so
  // starts no mock server, which the web worker cannot.
  describe('answering', () => {
    const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });

    it("Fork and Rerun clears the prompt's reply in the fork and answers it again; the parent keeps its reply", async () => {
      ant.enqueue({ text: ['Asked ', 'differently.'] });
      const before = await readText(parent);
      const nb = await openDialog(parent);
      const old = replyText(nb.cellAt(2));
      assert.ok(old, 'the prompt has a reply to clear');
      const target = wsUri(beside(parent, 'rerun'));
      const r = await vscode.commands.executeCommand<ForkResult>('dialogNotebook.forkAndRerun', nb.cellAt(2), { target, whole: true });
      assert.ok(r?.ok, r?.message);
      const f = notebookAt(target)!;
      await until(() => replyText(f.cellAt(2)).startsWith('Asked differently.'), 'the new answer in the fork', WAIT);
      assert.equal(ant.requests.length, 1, 'one request');
      assert.equal(replyText(nb.cellAt(2)), old, "the parent's reply");
      assert.equal(await readText(parent), before, "the parent's bytes");
    });
  });
});
