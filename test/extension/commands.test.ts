// Commands in the real VS Code: adding and converting cells, the status bar switches, Edit Reply, and
// choosing between the dialog and Jupyter editors.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { looksLikeDialog } from '../../src/extension/opening/opening';
import { cellStatusItems } from '../../src/extension/look/statusBar';
import { closeAll, copyOf, dialogState, holdsFor, openDialog, readText, replyText, save, setSetting, until, wsUri } from './helpers';

interface Result {
  ok: boolean;
  message: string;
  editor?: vscode.TextEditor;
}

async function select(nb: vscode.NotebookDocument, index: number): Promise<void> {
  const ed = await vscode.window.showNotebookDocument(nb);
  ed.selection = new vscode.NotebookRange(index, index + 1);
}

describe('dialog commands', function () {
  this.timeout(60000);
  // Every test edits its own copies: a document VS Code keeps alive between tests cannot go stale.
  let basic = '';
  let replies = '';
  beforeEach(async () => {
    basic = await copyOf('basic.ipynb');
    replies = await copyOf('replies.ipynb');
  });
  afterEach(closeAll);

  it('adds a prompt, note, code and raw cell below the selection, each with a fresh id', async () => {
    const nb = await openDialog(basic);
    const n = nb.cellCount;
    const expected: [string, vscode.NotebookCellKind, string][] = [
      ['addPrompt', vscode.NotebookCellKind.Code, 'dialog-prompt'],
      ['addNote', vscode.NotebookCellKind.Markup, 'markdown'],
      ['addCode', vscode.NotebookCellKind.Code, 'python'],
      ['addRaw', vscode.NotebookCellKind.Code, 'raw'],
    ];
    for (const [cmd, kind, lang] of expected) {
      await select(nb, 0);
      await vscode.commands.executeCommand(`dialogNotebook.${cmd}`);
      const cell = nb.cellAt(1);
      assert.equal(cell.kind, kind, cmd);
      assert.equal(cell.document.languageId, lang, cmd);
      assert.match(dialogState(cell).id ?? '', /^[0-9a-f]{8}$/, cmd);
    }
    assert.equal(nb.cellCount, n + 4);
    const ids = nb.getCells().map((c) => dialogState(c).id);
    assert.equal(new Set(ids).size, ids.length, 'unique ids');
  });

  it("VS Code's own + Code below or above a prompt makes a code cell of the dialog's language", async () => {
    const nb = await openDialog(basic);
    for (const [cmd, at] of [['notebook.cell.insertCodeCellBelow', 3], ['notebook.cell.insertCodeCellAbove', 2]] as const) {
      await select(nb, 2); // "What is x*2?", a prompt
      assert.equal(nb.cellAt(2).document.languageId, 'dialog-prompt');
      const n = nb.cellCount;
      await vscode.commands.executeCommand(cmd);
      assert.equal(nb.cellCount, n + 1, cmd);
      const cell = nb.cellAt(at);
      await until(() => cell.document.languageId === 'python' && dialogState(cell).msgType === 'code', `${cmd}: a python code cell`);
      assert.match(dialogState(cell).id ?? '', /^[0-9a-f]{8}$/, cmd);
    }
  });

  it('converts a cell between the four types without losing its text', async () => {
    const nb = await openDialog(basic);
    const text = nb.cellAt(1).document.getText();
    const id = dialogState(nb.cellAt(1)).id;
    for (const [cmd, lang] of [['convertToNote', 'markdown'], ['convertToRaw', 'raw'], ['convertToPrompt', 'dialog-prompt'], ['convertToCode', 'python']]) {
      await select(nb, 1);
      await vscode.commands.executeCommand(`dialogNotebook.${cmd}`);
      assert.equal(nb.cellAt(1).document.languageId, lang, cmd);
      assert.equal(nb.cellAt(1).document.getText(), text, `${cmd} keeps the text`);
      assert.equal(dialogState(nb.cellAt(1)).id, id, `${cmd} keeps the id`);
    }
    assert.ok(await save(nb));
    const cell = (JSON.parse(await readText(basic)) as { cells: { cell_type: string; source: string[] }[] }).cells[1];
    assert.equal(cell.cell_type, 'code');
    assert.equal(cell.source.join(''), text);
  });

  it('converting a prompt with a reply to a note keeps the reply in the text', async () => {
    const nb = await openDialog(basic);
    const reply = replyText(nb.cellAt(2));
    assert.ok(reply);
    await vscode.commands.executeCommand('dialogNotebook.convertToNote', nb.cellAt(2).document.uri);
    assert.equal(nb.cellAt(2).kind, vscode.NotebookCellKind.Markup);
    assert.ok(nb.cellAt(2).document.getText().includes(reply), 'the reply text survives');
  });

  it('toggles pinned and skipped from the status bar commands, undoably', async () => {
    const nb = await openDialog(basic);
    const cell = () => nb.cellAt(0);
    assert.ok(!dialogState(cell()).pinned);
    const items = cellStatusItems(cell());
    const pin = items.find((i) => (i.command as vscode.Command).command === 'dialogNotebook.togglePinned')!;
    const pinCmd = pin.command as vscode.Command;
    await vscode.commands.executeCommand(pinCmd.command, ...(pinCmd.arguments ?? []));
    assert.ok(dialogState(cell()).pinned, 'pinned');
    assert.ok(cellStatusItems(cell()).some((i) => i.text.includes('pinned')), 'the status bar shows it');
    await vscode.commands.executeCommand('dialogNotebook.toggleSkipped', cell().document.uri);
    assert.ok(dialogState(cell()).skipped, 'skipped');
    assert.ok(await save(nb));
    const saved = (JSON.parse(await readText(basic)) as { cells: { metadata: { pinned?: unknown; skipped?: unknown } }[] }).cells[0];
    assert.equal(saved.metadata.pinned, true);
    assert.equal(saved.metadata.skipped, true);
    await vscode.commands.executeCommand('dialogNotebook.togglePinned', cell().document.uri);
    assert.ok(!dialogState(cell()).pinned, 'unpinned');
  });

  it('toggles exported on a code cell in the form it already uses', async () => {
    const nb = await openDialog(basic);
    const cell = () => nb.cellAt(1);
    assert.ok(!cellStatusItems(cell()).some((i) => i.text.includes('exported')));
    await vscode.commands.executeCommand('dialogNotebook.toggleExported', cell().document.uri);
    assert.ok(cell().document.getText().startsWith('#| export'), 'a content directive is added');
    assert.ok(cellStatusItems(cell()).some((i) => i.text.includes('exported')));
    await vscode.commands.executeCommand('dialogNotebook.toggleExported', cell().document.uri);
    assert.equal(cell().document.getText(), 'x = 21\nx*2');
  });

  it('toggles on several selected cells: any off turns all on, else all off', async () => {
    const nb = await openDialog(basic);
    const ed = await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('dialogNotebook.togglePinned', nb.cellAt(0).document.uri);
    const pinned = () => nb.getCells().map((c) => dialogState(c).pinned === true);
    assert.deepEqual(pinned().slice(0, 4), [true, false, false, false], 'only the given cell');
    ed.selections = [new vscode.NotebookRange(0, 2), new vscode.NotebookRange(3, 4)];
    await vscode.commands.executeCommand('dialogNotebook.togglePinned');
    assert.deepEqual(pinned().slice(0, 5), [true, true, false, true, false], 'one was off: all selected on');
    await vscode.commands.executeCommand('dialogNotebook.togglePinned');
    assert.ok(!pinned().some(Boolean), 'all were on: all off');
    // toggleExported over code cells only: cell 1 is exported, cell 4 not, so both end up exported.
    await vscode.commands.executeCommand('dialogNotebook.toggleExported', nb.cellAt(1).document.uri);
    ed.selections = [new vscode.NotebookRange(0, 5)];
    const r = await vscode.commands.executeCommand<Result>('dialogNotebook.toggleExported');
    assert.equal(r?.ok, true, r?.message);
    assert.equal(nb.cellAt(1).document.getText(), '#| export\nx = 21\nx*2', 'an exported cell stays exported, once');
    assert.equal(nb.cellAt(4).document.getText(), '#| export\nprint("hi")');
    await vscode.commands.executeCommand('dialogNotebook.toggleExported');
    assert.equal(nb.cellAt(1).document.getText(), 'x = 21\nx*2');
    assert.equal(nb.cellAt(4).document.getText(), 'print("hi")');
  });

  it('a cell argument acts on that cell alone, whatever is selected', async () => {
    const nb = await openDialog(basic);
    const ed = await vscode.window.showNotebookDocument(nb);
    ed.selections = [new vscode.NotebookRange(0, 5)];
    await vscode.commands.executeCommand('dialogNotebook.togglePinned', nb.cellAt(1).document.uri);
    assert.deepEqual(nb.getCells().map((c) => dialogState(c).pinned === true).slice(0, 5), [false, true, false, false, false]);
    await vscode.commands.executeCommand('dialogNotebook.toggleSkipped', nb.cellAt(2));
    assert.deepEqual(nb.getCells().map((c) => dialogState(c).skipped === true).slice(0, 5), [false, false, true, false, false]);
    await vscode.commands.executeCommand('dialogNotebook.toggleExported', nb.cellAt(4).document.uri);
    assert.equal(nb.cellAt(1).document.getText(), 'x = 21\nx*2', 'the selected, not given, code cell is untouched');
    assert.ok(nb.cellAt(4).document.getText().startsWith('#| export'));
    await vscode.commands.executeCommand('dialogNotebook.convertToNote', nb.cellAt(3));
    assert.deepEqual(nb.getCells().map((c) => c.document.languageId).slice(0, 5), ['markdown', 'python', 'dialog-prompt', 'markdown', 'python']);
  });

  it('toggleExported refuses when no selected cell is code, changing nothing', async () => {
    const nb = await openDialog(basic);
    const ed = await vscode.window.showNotebookDocument(nb);
    ed.selections = [new vscode.NotebookRange(2, 4), new vscode.NotebookRange(5, 7)];
    const v = nb.version;
    const r = await vscode.commands.executeCommand<Result>('dialogNotebook.toggleExported');
    assert.equal(r?.ok, false);
    assert.match(r.message, /only code cells/i);
    assert.equal(nb.version, v, 'the dialog was not edited');
    assert.equal(nb.isDirty, false);
  });

  it('Edit Reply opens the reply as markdown; saving it writes the reply into the prompt', async () => {
    const nb = await openDialog(replies);
    const prompt = nb.cellAt(0);
    const id = dialogState(prompt).id;
    const { editor } = (await vscode.commands.executeCommand<Result>('dialogNotebook.editReply', prompt.document.uri)) as Required<Result>;
    assert.ok(editor, 'an editor for the reply');
    assert.equal(editor.document.languageId, 'markdown');
    assert.equal(editor.document.getText(), replyText(prompt));
    await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), '\n\nAnd a finished ending.'));
    assert.ok(await save(editor.document), 'the reply document saves');
    const cell = nb.getCells().find((c) => dialogState(c).id === id)!;
    assert.ok(replyText(cell).endsWith('And a finished ending.'), 'the prompt shows the new reply');
    assert.equal(nb.isDirty, true, 'the notebook has the edit, unsaved');
    assert.ok(await save(nb));
    const src = (JSON.parse(await readText(replies)) as { cells: { source: string[] }[] }).cells[0].source.join('');
    assert.ok(src.startsWith('Interrupted reply\n\n##### '), 'prompt text and separator kept');
    assert.ok(src.endsWith('And a finished ending.'), 'the reply is saved in the prompt');
  });

  it('contributes the prompt language with its grammar', async () => {
    assert.ok((await vscode.languages.getLanguages()).includes('dialog-prompt'));
    const ext = vscode.extensions.getExtension('dialog-notebooks.dialog-notebooks')!;
    const grammar = (ext.packageJSON.contributes.grammars as { language: string; path: string }[]).find((g) => g.language === 'dialog-prompt');
    assert.ok(grammar, 'a TextMate grammar');
    const tm = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(ext.extensionUri, grammar.path))));
    const varRe = new RegExp(tm.repository.variable.match);
    const toolRe = new RegExp(tm.repository.tool.match);
    assert.deepEqual('see $`page_cts` now'.match(varRe)?.[3], 'page_cts');
    assert.deepEqual('use &`add_to_a` please'.match(toolRe)?.[3], 'add_to_a');
    assert.equal('plain `code` only'.match(varRe), null);
  });

  it('sniffs dialogs: solveit_ai cells, the separator line, solveit metadata', async () => {
    for (const f of ['basic.ipynb', 'replies.ipynb', 'tools.ipynb', 'AnswerDotAI__solveit_demos__00_Welcome_To_Solveit.ipynb']) {
      assert.ok(looksLikeDialog(await readText(f)), f);
    }
    assert.ok(!looksLikeDialog(await readText('plain.ipynb')), 'a plain Jupyter notebook');
    assert.ok(looksLikeDialog('{"metadata": {"solveit": {}}}'));
    assert.ok(looksLikeDialog('"source": ["q\\n\\n##### Reply<!-- SOLVEIT_SEPARATOR_ab12 -->\\n\\nr"]'));
  });

  it('opens dialogs as dialogs by default when the setting is on, and Reopen with Jupyter goes back', async () => {
    await setSetting('openDialogsByDefault', true);
    try {
      const uri = wsUri(replies);
      const jdoc = await vscode.workspace.openNotebookDocument(uri);
      assert.equal(jdoc.notebookType, 'jupyter-notebook', 'VS Code picks Jupyter, the default editor');
      // Not awaited: the Jupyter editor is replaced before VS Code reports it shown, so that promise never settles.
      void vscode.window.showNotebookDocument(jdoc);
      await until(() => vscode.window.activeNotebookEditor?.notebook.notebookType === 'dialog-notebook', 'the dialog editor');
      assert.equal(vscode.window.activeNotebookEditor?.notebook.uri.toString(), uri.toString());
      await vscode.commands.executeCommand('dialogNotebook.reopenWithJupyter');
      await until(() => vscode.window.activeNotebookEditor?.notebook.notebookType === 'jupyter-notebook', 'the Jupyter editor');
      const plain = wsUri('plain.ipynb');
      await vscode.window.showNotebookDocument(await vscode.workspace.openNotebookDocument(plain));
      const plainShown = () => vscode.window.activeNotebookEditor?.notebook.uri.toString() === plain.toString();
      await until(plainShown, 'the plain notebook shown');
      await holdsFor(() => plainShown() && vscode.window.activeNotebookEditor?.notebook.notebookType === 'jupyter-notebook', 'a plain notebook with Jupyter', 500);
    } finally {
      await setSetting('openDialogsByDefault', undefined);
    }
  });
});

describe('dialog commands refuse without a dialog cell, changing nothing', function () {
  this.timeout(60000);
  afterEach(closeAll);

  const EDITS = [
    'addPrompt', 'addNote', 'addCode', 'addRaw',
    'convertToPrompt', 'convertToNote', 'convertToCode', 'convertToRaw', 'convertCell',
    'togglePinned', 'toggleSkipped', 'toggleExported', 'editReply',
  ];
  const run = (cmd: string, ...args: unknown[]) => vscode.commands.executeCommand<Result>(`dialogNotebook.${cmd}`, ...args);

  it('with no editor open', async () => {
    await closeAll();
    for (const cmd of [...EDITS, 'openAsDialog', 'reopenWithJupyter']) {
      const r = await run(cmd);
      assert.equal(r?.ok, false, cmd);
      assert.match(r.message, /dialog|\.ipynb/i, `${cmd} says why`);
    }
    assert.equal(vscode.window.activeNotebookEditor, undefined, 'nothing was opened');
  });

  it('on a plain Jupyter notebook, active or given by cell', async () => {
    const jnb = await vscode.workspace.openNotebookDocument(wsUri('plain.ipynb'));
    assert.equal(jnb.notebookType, 'jupyter-notebook');
    const ed = await vscode.window.showNotebookDocument(jnb);
    ed.selections = [new vscode.NotebookRange(1, 2)];
    const v = jnb.version;
    for (const cmd of EDITS) {
      for (const args of [[], [jnb.cellAt(1).document.uri], [jnb.cellAt(1)]]) {
        const r = await run(cmd, ...args);
        assert.equal(r?.ok, false, `${cmd}(${args.length ? 'cell' : ''})`);
        assert.match(r.message, /dialog/i, `${cmd} says why`);
      }
    }
    assert.equal(jnb.version, v, 'the Jupyter notebook was not edited');
    assert.equal(jnb.isDirty, false);
    assert.equal(jnb.cellCount, 2);
  });

  it('toggleExported on a note; with no cell selected (after Esc) a command acts on the focused cell', async () => {
    const nb = await openDialog(await copyOf('basic.ipynb'));
    const ed = await vscode.window.showNotebookDocument(nb);
    const v = nb.version;
    const r = await run('toggleExported', nb.cellAt(0).document.uri);
    assert.deepEqual(r, { ok: false, message: 'Only code cells can be exported.' });
    assert.equal(nb.version, v, 'the dialog was not edited');
    assert.equal(nb.isDirty, false);
    // The API has no focus: it is the cell selected last, kept when Esc empties the selection.
    const selected = (start: number, end: number) => {
      const seen = new Promise((resolve) => {
        const sub = vscode.window.onDidChangeNotebookEditorSelection((e) => {
          const s = e.selections.find((x) => !x.isEmpty);
          if (e.notebookEditor === ed && (start === end ? !s : s?.start === start)) resolve(sub.dispose());
        });
      });
      ed.selections = [new vscode.NotebookRange(start, end)];
      return seen;
    };
    await selected(1, 2);
    await selected(1, 1);
    assert.deepEqual(await run('togglePinned'), { ok: true, message: '' });
    await until(() => dialogState(nb.cellAt(1)).pinned, 'the focused cell pinned');
    assert.equal(nb.getCells().filter((c) => dialogState(c).pinned).length, 1, 'only the focused cell');
  });
});
