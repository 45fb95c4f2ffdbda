// The sections tree and the panel's media preview in the real VS Code: the tree selects the node of
// the selected cell, refreshes an edit in place (only the nodes it changed) unless the headings change,
// and the panel previews images scaled as the model gets them (dialogNotebook.history.maxImagePixels),
// with mime, pixel size and bytes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import sharp from 'sharp';
import { Attachment, Dialog, Message } from '../../src/core/model';
import { writeIpynb } from '../../src/core/ipynb';
import { OutlineNode, dlgOutline } from '../../src/core/outline';
import { notebookDialog } from '../../src/extension/document/cells';
import { StateMessage } from '../../src/shared/panelProtocol';
import { cellItem, notebookOutline } from '../../src/extension/views/outlineModel';
import { closeAll, dialogState, openDialog, readText, setCellText, until, writeText } from './helpers';

interface Tree {
  provider: { nb: vscode.NotebookDocument | undefined; nodes: OutlineNode[]; onDidChangeTreeData: vscode.Event<OutlineNode[] | undefined>; getTreeItem(n: OutlineNode): vscode.TreeItem };
  views: vscode.TreeView<OutlineNode>[];
}

function flat(ns: readonly OutlineNode[], out: OutlineNode[] = []): OutlineNode[] {
  for (const n of ns) {
    out.push(n);
    flat(n.children, out);
  }
  return out;
}

/** Strips what the tree adds (nothing, today) so its nodes compare with a fresh outline. */
const plain = (ns: readonly OutlineNode[]) => JSON.parse(JSON.stringify(ns)) as OutlineNode[];

async function tree(): Promise<Tree> {
  return (await vscode.commands.executeCommand<Tree>('dialogNotebook.sectionsTree'))!;
}

async function select(nb: vscode.NotebookDocument, k: number): Promise<void> {
  const ed = await vscode.window.showNotebookDocument(nb, { viewColumn: vscode.ViewColumn.One });
  ed.selections = [new vscode.NotebookRange(k, k + 1)];
}

describe('navigation: sections tree and media preview', function () {
  this.timeout(60000);
  let original = '';
  before(async () => {
    original = await readText('sections.ipynb');
  });
  afterEach(async () => {
    await vscode.workspace.getConfiguration('dialogNotebook').update('history.maxImagePixels', undefined, vscode.ConfigurationTarget.Global);
    await closeAll();
    await writeText('sections.ipynb', original);
  });

  it('the sections tree selects the node of the selected cell', async () => {
    const nb = await openDialog('sections.ipynb');
    await vscode.commands.executeCommand('dialogNotebook.sectionsSidebar.focus');
    const { provider, views } = await tree();
    const view = (await until(() => views.find((v) => v.visible), 'the side bar view to show'))!;
    await until(() => provider.nodes.length > 0, 'the tree to load');
    const targets = flat(provider.nodes).filter((n) => n.level === 0).slice(0, 3);
    assert.ok(targets.length >= 2, 'prompts and code in sections.ipynb');
    for (const n of [...targets, targets[0]]) {
      await select(nb, n.index);
      await until(() => view.selection.length === 1 && view.selection[0].id === n.id, `the tree to select ${n.id}`);
    }
    // A cell outside the tree (a plain note) selects its section's heading.
    const plainNote = nb.getCells().findIndex((_c, k) => !flat(provider.nodes).some((n) => n.index === k));
    if (plainNote >= 0) {
      await select(nb, plainNote);
      const owner = flat(provider.nodes).filter((n) => n.index < plainNote).pop();
      await until(() => view.selection[0]?.id === owner?.id, 'the tree to select the section of a plain note');
    }
  });

  it('a Sections view shown again after the dialog changed while none showed follows the new dialog', async () => {
    const nb = await openDialog('sections.ipynb');
    await vscode.commands.executeCommand('dialogNotebook.sectionsSidebar.focus');
    const { views } = await tree();
    const [explorer, sidebar] = views;
    await until(() => sidebar.visible, 'the side bar view to show');
    await select(nb, 3);
    await until(() => sidebar.selection[0]?.id === 's0000003', 'the tree to follow sections.ipynb');
    // With no Sections view showing, the tree is built only when one shows: here first the Explorer's
    // (built for it alone), then the side bar's again, which still holds the old dialog's nodes.
    await vscode.commands.executeCommand('workbench.view.search');
    await until(() => !views.some((v) => v.visible), 'the Sections views to hide');
    const other = await openDialog('basic.ipynb');
    await vscode.commands.executeCommand('dialogNotebook.sections.focus');
    await until(() => explorer.visible, 'the Explorer view to show');
    await select(other, 1);
    await until(() => explorer.selection[0]?.id === 'b0000002', 'the Explorer view to follow basic.ipynb');
    await vscode.commands.executeCommand('dialogNotebook.sectionsSidebar.focus');
    await until(() => sidebar.visible, 'the side bar view to show again');
    await select(other, 1);
    await until(() => sidebar.selection[0]?.id === 'b0000002', 'the side bar view to follow basic.ipynb');
  });

  it('an edit that keeps the headings refreshes only the nodes it changed; a new heading rebuilds', async () => {
    const nb = await openDialog('sections.ipynb');
    await vscode.commands.executeCommand('dialogNotebook.sectionsSidebar.focus');
    const { provider } = await tree();
    await vscode.window.showNotebookDocument(nb);
    await until(() => provider.nodes.length > 0 && JSON.stringify(plain(provider.nodes)) === JSON.stringify(notebookOutline(nb)), 'the tree to load');
    const before = flat(provider.nodes);
    const leaf = before.find((n) => n.level === 0 && n.msgType === 'prompt')!;
    const items = nb.getCells().map(cellItem);
    const events: (OutlineNode[] | undefined)[] = [];
    const sub = provider.onDidChangeTreeData((e) => events.push(e));
    try {
      await setCellText(nb.cellAt(leaf.index), 'A reworded question\nwith a second line of words');
      await until(() => events.length > 0, 'a tree refresh');
      const first = events[0];
      assert.ok(Array.isArray(first), 'an in-place refresh names its nodes');
      assert.ok(first.includes(leaf), 'the edited prompt');
      for (const n of first) assert.ok(n === leaf || (n.level > 0 && n.index < leaf.index), `only the prompt and headings above it: ${n.label}`);
      assert.equal(leaf.label, 'A reworded question');
      assert.equal(provider.getTreeItem(leaf).label, 'A reworded question');
      assert.deepEqual(flat(provider.nodes), before, 'the same node objects');
      assert.deepEqual(plain(provider.nodes), plain(notebookOutline(nb)), 'equal to a fresh outline');
      // Only the edited cell's item was recomputed: the others come from the per-cell cache.
      nb.getCells().forEach((c, k) => (k === leaf.index ? assert.notEqual : assert.equal)(cellItem(c, k), items[k], `cell ${k}`));
      // Turning a plain note into a heading changes the shape: one full refresh.
      const note = nb.getCells().findIndex((c, k) => c.kind === vscode.NotebookCellKind.Markup && !before.some((n) => n.index === k));
      assert.ok(note >= 0, 'sections.ipynb has a plain note');
      events.length = 0;
      await setCellText(nb.cellAt(note), '## A brand new heading');
      await until(() => events.length > 0, 'a tree rebuild');
      assert.equal(events[0], undefined);
      assert.ok(flat(provider.nodes).some((n) => n.label === 'A brand new heading'));
      assert.deepEqual(plain(provider.nodes), plain(notebookOutline(nb)));
    } finally {
      sub.dispose();
    }
  });

  it('an output change (a cleared reply) reaches the tree, though cell.outputs cannot be compared', async () => {
    const nb = await openDialog('sections.ipynb');
    const { provider } = await tree();
    await vscode.window.showNotebookDocument(nb);
    await until(() => flat(provider.nodes).length > 0 && provider.nb === nb, 'the tree to load');
    const prompt = flat(provider.nodes).find((n) => n.msgType === 'prompt' && nb.cellAt(n.index).outputs.length)!;
    assert.ok(prompt, 'a prompt with a reply');
    const before = prompt.tokens;
    await vscode.commands.executeCommand('notebook.clearAllCellsOutputs');
    await until(() => nb.cellAt(prompt.index).outputs.length === 0, 'the outputs to clear');
    await until(() => prompt.tokens < before, 'the tree to count the prompt without its reply');
    assert.deepEqual(plain(provider.nodes), plain(dlgOutline(notebookDialog(nb))));
  });

  it('the panel previews a large image scaled as the model gets it, with mime and size', async () => {
    const big = new Uint8Array(await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366cc' } }).png().toBuffer());
    const att = new Attachment(big, 'image/png', '11111111-2222-4333-8444-555555555555');
    const d = new Dialog([new Message({ id: 'big00001', msgType: 'prompt', content: `What is this? ![](attachment:${att.id})`, attachments: [att] })]);
    await writeText('scratch/big-image.ipynb', writeIpynb(d));
    const nb = await openDialog('scratch/big-image.ipynb');
    await select(nb, 0);
    const p = await vscode.commands.executeCommand<{ lastState: StateMessage }>('dialogNotebook.showPanel');
    const media = () => p.lastState.history?.turns.flatMap((t) => t.parts).find((x) => x.kind === 'media')?.text ?? '';
    // 1600×1200 scaled by √(768² / (1600·1200)), sides rounded down
    await until(() => media().startsWith('image/png · 886×665 px · '), 'the default scaling', 60000);
    await vscode.workspace.getConfiguration('dialogNotebook').update('history.maxImagePixels', 10000, vscode.ConfigurationTarget.Global);
    await until(() => media().startsWith('image/png · 115×86 px · '), 'the setting to apply', 60000);
    assert.equal(dialogState(nb.cellAt(0)).id, 'big00001');
  });
});
