// Everyday friction (issue 12, items 5-7) in the real VS Code: refusals name messages by their first
// line, Find Messages says when a /regex/ is invalid and previews a reply by its first real line, and
// Export Python on a dialog with nothing exported says so instead of opening an empty editor.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readIpynb } from '../../src/core/ipynb';
import { findItems } from '../../src/extension/commands/find';
import { closeAll, dialogState, openDialog, readText } from './helpers';

interface Result {
  ok: boolean;
  message: string;
}

const run = (cmd: string, ...args: unknown[]) => vscode.commands.executeCommand<Result>(`dialogNotebook.${cmd}`, ...args);

async function select(nb: vscode.NotebookDocument, id: string): Promise<vscode.NotebookCell> {
  const cell = nb.getCells().find((c) => dialogState(c).id === id);
  if (!cell) throw new Error(`no cell ${id}`);
  const ed = await vscode.window.showNotebookDocument(nb);
  ed.selections = [new vscode.NotebookRange(cell.index, cell.index + 1)];
  return cell;
}

const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
/** A one-prompt dialog whose reply opens with a row of thinking markers, as real replies do. */
const THINKING = JSON.stringify({
  cells: [{ cell_type: 'markdown', id: 'p1', metadata: { solveit_ai: true }, source: `Why is the sky blue?\n\n${SEP}\n\n🧠🧠🧠🧠🧠🧠\n\n\nRayleigh scattering.` }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
});

describe('everyday friction (issue 12)', function () {
  this.timeout(60000);
  afterEach(closeAll);

  it('a refusal names the message by its first line, not by its id', async () => {
    const nb = await openDialog('sections.ipynb');
    const cell = await select(nb, 's000000a');
    const r = await run('moveSectionDown');
    assert.equal(r.ok, false);
    assert.match(r.message, /already last/);
    assert.ok(!r.message.includes('s000000a'), r.message);
    assert.ok(r.message.includes(`"${cell.document.getText().split('\n')[0]}"`), r.message);
    assert.equal(nb.isDirty, false);
  });

  it('Find Messages says an invalid /regex/ is invalid instead of listing text matches', async () => {
    const d = readIpynb(await readText('basic.ipynb'));
    const rows = findItems(d, 'type:prompt /x*2(/');
    assert.equal(rows.length, 1);
    assert.match(rows[0].label, /Invalid regular expression \/x\*2\(\/: Unterminated group/);
    assert.ok(findItems(d, '/x\\*2/').length > 0, 'a valid regex still matches');
    const nb = await openDialog('basic.ipynb');
    const ed = await vscode.window.showNotebookDocument(nb);
    ed.selections = [new vscode.NotebookRange(0, 1)];
    assert.equal(await vscode.commands.executeCommand('dialogNotebook.findMessages', { query: '/(/' }), undefined);
    assert.equal(ed.selection.start, 0, 'nothing revealed');
  });

  it('Find Messages previews a reply by its first line of real text, past the 🧠 markers', () => {
    const rows = findItems(readIpynb(THINKING), 'sky');
    assert.equal(rows[0].detail, '↳ Rayleigh scattering.');
  });

  it('Export Python with nothing exported says so and how to export a cell, and opens no editor', async () => {
    await openDialog('basic.ipynb');
    const untitled = () => vscode.workspace.textDocuments.filter((t) => t.isUntitled).length;
    const before = untitled();
    const r = await vscode.commands.executeCommand<Result>('dialogNotebook.exportPython');
    assert.equal(r.ok, false);
    assert.match(r.message, /^basic\.ipynb has no exported code cell/);
    assert.match(r.message, /Toggle Exported/);
    assert.equal(untitled(), before, 'no empty Untitled editor');
  });
});
