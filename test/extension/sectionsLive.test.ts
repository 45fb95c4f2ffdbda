// The Dialog Sections tree as a user of real dialogs sees it (issue 12, item 14): code cells are named by
// their first line that is not a directive, and a surgery command's edit is in the tree when the
// command returns, not after a delay.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Dialog, Message } from '../../src/core/model';
import { writeIpynb } from '../../src/core/ipynb';
import { OutlineNode } from '../../src/core/outline';
import { closeAll, openDialog, until, writeText } from './helpers';

interface Tree {
  provider: { nb: vscode.NotebookDocument | undefined; nodes: OutlineNode[] };
}

const FILE = 'scratch/sections-live.ipynb';

describe('sections tree: labels and refresh (issue 12)', function () {
  this.timeout(120000);
  afterEach(closeAll);

  it('labels code by its code, and shows Move Section Up as soon as the command returns', async () => {
    const d = new Dialog([
      new Message({ msgType: 'note', content: '# Alpha' }),
      new Message({ msgType: 'code', content: '#| export\n#| hide\n\ndef alpha():\n    pass' }),
      new Message({ msgType: 'note', content: '# Beta' }),
      new Message({ msgType: 'code', content: '#| export\nbeta = 2' }),
    ]);
    await writeText(FILE, writeIpynb(d));
    const nb = await openDialog(FILE);
    await vscode.window.showNotebookDocument(nb);
    const { provider } = (await vscode.commands.executeCommand<Tree>('dialogNotebook.sectionsTree'))!;
    // Reading the nodes first builds a stale tree (no view shows it when this suite runs alone).
    const tops = () => {
      const nodes = provider.nodes;
      return provider.nb === nb ? nodes.map((n) => `${n.label}: ${n.children.map((c) => c.label).join(', ')}`) : [];
    };
    await until(() => tops().length === 2, 'the tree to show the dialog');
    assert.deepEqual(tops(), ['Alpha: def alpha():', 'Beta: beta = 2']);

    const ed = vscode.window.activeNotebookEditor!;
    ed.selections = [new vscode.NotebookRange(2, 3)];
    await until(() => ed.selection.start === 2, 'the selection');
    await vscode.commands.executeCommand('dialogNotebook.moveSectionUp');
    assert.equal(nb.cellAt(0).document.getText(), '# Beta', 'the section moved');
    // No waiting here: the tree must already show the new order.
    assert.deepEqual(tops(), ['Beta: beta = 2', 'Alpha: def alpha():']);
  });
});
