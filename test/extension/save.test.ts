// Editing and saving in the real VS Code: the bytes on disk. A save with unchanged content writes the
// same bytes; an edit changes only the edited cell's bytes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DialogSerializer } from '../../src/extension/document/serializer';
import { closeAll, copyOf, openDialog, readText, save, setCellText, until, wsUri } from './helpers';

const FILES = ['basic.ipynb', 'edge_formatting.ipynb', 'tools.ipynb', 'AnswerDotAI__fastllm__03_acomplete.ipynb'];

/** [start, end) of the text of the cell object holding `"id": "<id>"` in a file written with indent 1. */
function cellSpan(text: string, id: string): [number, number] {
  const at = text.indexOf(`"id": "${id}"`);
  assert.ok(at > 0, `cell ${id} in the file`);
  const start = text.lastIndexOf('\n  {', at);
  const end = text.indexOf('\n  }', at) + 4;
  return [start, end];
}

/** The part of `a` that differs from `b`: [first differing offset, end of the differing run in `a`). */
function diffRange(a: string, b: string): [number, number] {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return [p, a.length - s];
}

describe('saving dialogs', function () {
  this.timeout(60000);
  // Every test edits its own copy: a document VS Code keeps alive between tests cannot go stale.
  let basic = '';
  let tools = '';
  beforeEach(async () => {
    basic = await copyOf('basic.ipynb');
    tools = await copyOf('tools.ipynb');
  });
  afterEach(closeAll);

  for (const name of FILES) {
    it(`${name}: an edit undone by hand saves the very same bytes`, async () => {
      const file = await copyOf(name);
      const before = await readText(file);
      const nb = await openDialog(file);
      const cell = nb.cellAt(nb.cellCount - 1);
      const text = cell.document.getText();
      await setCellText(cell, text + ' edited');
      assert.equal(nb.isDirty, true);
      await setCellText(cell, text);
      assert.ok(await save(nb), 'saved');
      assert.equal(await readText(file), before);
    });
  }

  it('a changed note rewrites only its own cell', async () => {
    const before = await readText(basic);
    const nb = await openDialog(basic);
    await setCellText(nb.cellAt(0), '# Basic dialog, renamed\n\nNew text');
    assert.ok(await save(nb));
    const after = await readText(basic);
    const [from, to] = diffRange(before, after);
    const [cs, ce] = cellSpan(before, 'b0000001');
    assert.ok(from >= cs && to <= ce, `the change (${from}-${to}) lies inside the edited cell (${cs}-${ce})`);
    const cell = (JSON.parse(after) as { cells: { id: string; source: string[] }[] }).cells[0];
    assert.equal(cell.id, 'b0000001');
    assert.equal(cell.source.join(''), '# Basic dialog, renamed\n\nNew text');
  });

  it('a changed prompt keeps its reply and the rest of the file', async () => {
    const before = await readText(tools);
    const nb = await openDialog(tools);
    const k = 2;
    const id = nb.cellAt(k).metadata.dialog.id as string;
    const oldSource = (JSON.parse(before) as { cells: { source: string[] }[] }).cells[k].source.join('');
    await setCellText(nb.cellAt(k), 'Run it in the shell, please.');
    assert.ok(await save(nb));
    const after = await readText(tools);
    const [from, to] = diffRange(before, after);
    const [cs, ce] = cellSpan(before, id);
    assert.ok(from >= cs && to <= ce, 'only the prompt cell changed');
    const source = (JSON.parse(after) as { cells: { source: string[] }[] }).cells[k].source.join('');
    const sep = oldSource.indexOf('\n\n##### ');
    assert.ok(sep > 0, 'the prompt had a reply');
    assert.equal(source, 'Run it in the shell, please.' + oldSource.slice(sep), 'new prompt text, same separator and reply');
  });

  it('a new cell gets an 8-hex id through an edit and is saved with it', async () => {
    const nb = await openDialog(basic);
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.insertCells(1, [new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, 'fresh note', 'markdown')])]);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const id = (await until(() => nb.cellAt(1).metadata.dialog?.id as string | undefined, "the id stamp")) as string;
    assert.match(id, /^[0-9a-f]{8}$/);
    assert.ok(await save(nb));
    const cells = (JSON.parse(await readText(basic)) as { cells: { id: string; source: string[]; cell_type: string }[] }).cells;
    assert.equal(cells[1].id, id);
    assert.equal(cells[1].source.join(''), 'fresh note');
    assert.equal(cells[1].cell_type, 'markdown');
    assert.equal(new Set(cells.map((c) => c.id)).size, cells.length, 'ids stay unique');
  });

  it('a pasted copy of a cell gets a fresh id, the original keeps its own', async () => {
    const nb = await openDialog(basic);
    const src = nb.cellAt(2);
    const copy = new vscode.NotebookCellData(src.kind, src.document.getText(), src.document.languageId);
    copy.metadata = src.metadata;
    copy.outputs = [...src.outputs];
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.insertCells(3, [copy])]);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const id = (await until(() => (nb.cellAt(3).metadata.dialog?.id !== 'b0000003' ? (nb.cellAt(3).metadata.dialog?.id as string) : undefined), 'a fresh id')) as string;
    assert.match(id, /^[0-9a-f]{8}$/);
    assert.equal(nb.cellAt(2).metadata.dialog?.id, 'b0000003');
    assert.ok(await save(nb));
    const cells = (JSON.parse(await readText(basic)) as { cells: { id: string; source: string[] }[] }).cells;
    assert.equal(cells[3].source.join(''), cells[2].source.join(''), 'the copy holds the prompt and its reply');
  });

  it('never writes a file it could not read (the serializer throws)', async () => {
    const bytes = await vscode.workspace.fs.readFile(wsUri('edge_not_json.ipynb'));
    assert.throws(() => new DialogSerializer().deserializeNotebook(bytes), /Cannot open as a dialog/);
    assert.throws(() => new DialogSerializer().deserializeNotebook(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), /not valid UTF-8/);
  });
});
