// Every cell edit command in the real VS Code is ONE undo step: a single `undo` restores the exact
// previous cells (text, language, metadata, outputs), and saving after that undo writes the bytes the
// file held before the command.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { encodeBase64 } from '../../src/core/base';
import { closeAll, copyOf, dialogState, holdsFor, openDialog, readText, replyText, save, showDialog, until } from './helpers';

interface Result {
  ok: boolean;
  message: string;
}

/** Everything a cell shows or saves, as comparable JSON. */
function snapshot(nb: vscode.NotebookDocument): unknown[] {
  return nb.getCells().map((c) => ({
    kind: c.kind,
    language: c.document.languageId,
    text: c.document.getText(),
    metadata: JSON.parse(JSON.stringify(c.metadata)),
    outputs: c.outputs.map((o) => ({
      metadata: JSON.parse(JSON.stringify(o.metadata ?? {})),
      items: o.items.map((i) => [i.mime, encodeBase64(i.data)]),
    })),
  }));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function run(cmd: string, ...args: unknown[]): Promise<Result> {
  const r = await vscode.commands.executeCommand<Result>(`dialogNotebook.${cmd}`, ...args);
  assert.equal(r?.ok, true, `${cmd}: ${r?.message}`);
  return r;
}

async function select(nb: vscode.NotebookDocument, index: number): Promise<void> {
  const ed = await vscode.window.showNotebookDocument(nb);
  ed.selections = [new vscode.NotebookRange(index, index + 1)];
}

async function undo(nb: vscode.NotebookDocument): Promise<void> {
  await showDialog(nb);
  // As a person does after adding a cell, which puts the cursor in it: Esc, then Undo. In the cell's
  // editor Undo undoes typing in that cell, not the notebook's edits.
  await vscode.commands.executeCommand('notebook.cell.quitEdit');
  await vscode.commands.executeCommand('undo');
}

/**
 * Opens a copy of `file`, runs `act` (one command), saves, undoes ONCE and saves again: the undo must
 * restore the snapshot taken before `act`, and the second save the original bytes. `after` checks the
 * edited state.
 */
async function oneUndoStep(
  file: string,
  act: (nb: vscode.NotebookDocument) => Promise<unknown>,
  after?: (nb: vscode.NotebookDocument) => void,
): Promise<vscode.NotebookDocument> {
  const copy = await copyOf(file);
  const original = await readText(copy);
  const nb = await openDialog(copy);
  const before = snapshot(nb);
  await act(nb);
  const edited = snapshot(nb);
  assert.ok(!same(edited, before), 'the command changed the dialog');
  after?.(nb);
  const unchanged = () => {
    assert.deepEqual(snapshot(nb), edited, 'no further edit follows the command (it would be a second undo step)');
    return true;
  };
  await holdsFor(unchanged, 'the state the command left', 300);
  assert.ok(await save(nb), 'the edit saves');
  assert.notEqual(await readText(copy), original, 'the edit reached the disk');
  await undo(nb);
  await until(() => same(snapshot(nb), before), 'one undo to restore the state before the command').catch(() => undefined);
  assert.deepEqual(snapshot(nb), before, 'one undo restores the exact previous state');
  assert.equal(nb.isDirty, true, 'the undone state differs from the saved one');
  assert.ok(await save(nb), 'the undone state saves');
  assert.equal(await readText(copy), original, 'saving after the undo writes the original bytes');
  return nb;
}

const cellOf = (nb: vscode.NotebookDocument, id: string) => nb.getCells().find((c) => dialogState(c).id === id)!;

describe('every cell edit is one undo step', function () {
  this.timeout(60000);
  afterEach(closeAll);

  it('togglePinned', () =>
    oneUndoStep(
      'basic.ipynb',
      (nb) => run('togglePinned', nb.cellAt(0).document.uri),
      (nb) => assert.equal(dialogState(nb.cellAt(0)).pinned, true),
    ));

  it('toggleSkipped on a prompt with a reply', () =>
    oneUndoStep(
      'basic.ipynb',
      (nb) => run('toggleSkipped', nb.cellAt(2).document.uri),
      (nb) => assert.equal(dialogState(nb.cellAt(2)).skipped, true),
    ));

  it('toggleExported adds a `#| export` line', () =>
    oneUndoStep(
      'basic.ipynb',
      (nb) => run('toggleExported', nb.cellAt(1).document.uri),
      (nb) => assert.equal(nb.cellAt(1).document.getText(), '#| export\nx = 21\nx*2'),
    ));

  it('toggleExported removes a `#| export` line', () =>
    oneUndoStep(
      'export.ipynb',
      (nb) => run('toggleExported', cellOf(nb, 'e0000002').document.uri),
      (nb) => assert.equal(cellOf(nb, 'e0000002').document.getText(), 'def f(): return 1'),
    ));

  it('toggleExported removes `meta.nbdev.export`, keeping the other nbdev keys and the text', () =>
    oneUndoStep(
      'export.ipynb',
      (nb) => run('toggleExported', cellOf(nb, 'e000000a').document.uri),
      (nb) => {
        const c = cellOf(nb, 'e000000a');
        assert.deepEqual((dialogState(c) as { meta?: unknown }).meta, { nbdev: { default_exp: 'other' } });
        assert.equal(c.document.getText(), 'k = 4');
      },
    ));

  it('toggleExported sets `meta.nbdev.export` where the cell uses nbdev metadata', async () => {
    // First drop the export (then saved), so the toggle under test adds it back in the metadata form.
    const nb = await oneUndoStep('export.ipynb', (nb) => run('toggleExported', cellOf(nb, 'e000000a').document.uri));
    assert.ok(await run('toggleExported', cellOf(nb, 'e000000a').document.uri));
    assert.ok(await save(nb));
    const meta = () => (dialogState(cellOf(nb, 'e000000a')) as { meta?: unknown }).meta;
    assert.deepEqual(meta(), { nbdev: { default_exp: 'other' } });
    await run('toggleExported', cellOf(nb, 'e000000a').document.uri);
    assert.deepEqual(meta(), { nbdev: { default_exp: 'other', export: 'true' } });
    assert.equal(cellOf(nb, 'e000000a').document.getText(), 'k = 4', 'the text is untouched');
    await undo(nb);
    await until(() => !(meta() as { nbdev: { export?: string } }).nbdev.export, 'the undo');
    assert.deepEqual(meta(), { nbdev: { default_exp: 'other' } });
    assert.equal(nb.isDirty, false, 'back at the saved state');
  });

  for (const [cmd, lang] of [
    ['convertToNote', 'markdown'],
    ['convertToPrompt', 'dialog-prompt'],
    ['convertToRaw', 'raw'],
  ]) {
    it(`${cmd} on a code cell with an output`, () =>
      oneUndoStep(
        'basic.ipynb',
        (nb) => run(cmd, nb.cellAt(1).document.uri),
        (nb) => {
          assert.equal(nb.cellAt(1).document.languageId, lang);
          assert.equal(nb.cellAt(1).document.getText(), 'x = 21\nx*2');
        },
      ));
  }

  it('convertToCode on a raw cell', () =>
    oneUndoStep(
      'basic.ipynb',
      (nb) => run('convertToCode', nb.cellAt(3).document.uri),
      (nb) => {
        assert.equal(nb.cellAt(3).document.languageId, 'python');
        assert.equal(nb.cellAt(3).document.getText(), 'plain raw text\n  indented');
      },
    ));

  it('convertToNote on a prompt with a reply, then back to a prompt, loses no text', async () => {
    const reply = 'It is **42**.\n\n```python\nx*2\n```';
    const nb = await oneUndoStep(
      'basic.ipynb',
      (nb) => run('convertToNote', nb.cellAt(2).document.uri),
      (nb) => {
        const text = nb.cellAt(2).document.getText();
        assert.equal(nb.cellAt(2).kind, vscode.NotebookCellKind.Markup);
        assert.ok(text.includes('What is x*2?') && text.endsWith(reply), 'the prompt and its reply are in the note');
      },
    );
    const original = snapshot(nb);
    await run('convertToNote', nb.cellAt(2).document.uri);
    await run('convertToPrompt', nb.cellAt(2).document.uri);
    assert.equal(nb.cellAt(2).document.getText(), 'What is x*2?');
    assert.equal(replyText(nb.cellAt(2)), reply, 'the reply is a reply again');
    assert.deepEqual(snapshot(nb), original, 'the round trip restores the cell');
  });

  for (const [cmd, lang] of [
    ['addPrompt', 'dialog-prompt'],
    ['addNote', 'markdown'],
    ['addCode', 'python'],
    ['addRaw', 'raw'],
  ]) {
    it(`${cmd}: adding the cell and its 8-hex id is one step`, () =>
      oneUndoStep(
        'basic.ipynb',
        async (nb) => {
          await select(nb, 0);
          await run(cmd);
        },
        (nb) => {
          assert.equal(nb.cellCount, 11);
          assert.equal(nb.cellAt(1).document.languageId, lang);
          assert.match(dialogState(nb.cellAt(1)).id ?? '', /^[0-9a-f]{8}$/, 'the id comes with the cell');
        },
      ));
  }

  // Palette / keybinding: the command acts on every selected cell (all ranges) in ONE edit.
  const ranges = (...rs: [number, number][]) => rs.map(([a, b]) => new vscode.NotebookRange(a, b));
  const onSelection = (cmd: string, ...rs: [number, number][]) => async (nb: vscode.NotebookDocument) => {
    const ed = await vscode.window.showNotebookDocument(nb);
    ed.selections = ranges(...rs);
    await run(cmd);
  };

  it('togglePinned on several selection ranges pins every selected cell in one step', () =>
    oneUndoStep('basic.ipynb', onSelection('togglePinned', [0, 2], [3, 4]), (nb) => {
      assert.deepEqual(nb.getCells().map((c) => dialogState(c).pinned === true), [true, true, false, true, false, false, false, false, false, false]);
    }));

  it('toggleSkipped on several selected cells, one a prompt with a reply, in one step', () =>
    oneUndoStep('basic.ipynb', onSelection('toggleSkipped', [1, 3]), (nb) => {
      assert.deepEqual([0, 1, 2, 3].map((k) => dialogState(nb.cellAt(k)).skipped === true), [false, true, true, false]);
    }));

  it('toggleExported on a selection edits the text of every code cell, skips the others, in one step', () =>
    oneUndoStep('basic.ipynb', onSelection('toggleExported', [0, 5]), (nb) => {
      assert.equal(nb.cellAt(1).document.getText(), '#| export\nx = 21\nx*2');
      assert.equal(nb.cellAt(4).document.getText(), '#| export\nprint("hi")');
      assert.ok(nb.cellAt(3).document.getText().startsWith('plain raw text'), 'the raw cell is untouched');
      assert.ok(nb.cellAt(0).document.getText().startsWith('# Basic dialog'), 'the note is untouched');
    }));

  it('convertToNote on several selection ranges (code with outputs, raw) is one step', () =>
    oneUndoStep('basic.ipynb', onSelection('convertToNote', [1, 2], [3, 5]), (nb) => {
      for (const k of [1, 3, 4]) assert.equal(nb.cellAt(k).kind, vscode.NotebookCellKind.Markup, `cell ${k}`);
      assert.equal(nb.cellAt(1).document.getText(), 'x = 21\nx*2');
      assert.equal(nb.cellAt(4).document.getText(), 'print("hi")');
      assert.equal(nb.cellAt(2).document.languageId, 'dialog-prompt', 'the unselected prompt stays');
    }));

  it('convertToRaw on a selection mixing types (prompt with a reply, code, note) is one step', () =>
    oneUndoStep('basic.ipynb', onSelection('convertToRaw', [0, 3]), (nb) => {
      for (const k of [0, 1, 2]) assert.equal(nb.cellAt(k).document.languageId, 'raw', `cell ${k}`);
      assert.ok(nb.cellAt(2).document.getText().includes('## AI Response'), 'the reply is kept in the text');
    }));

  it('Edit Reply: saving the reply document is one undo step in the notebook', async () => {
    let reply: vscode.TextDocument | undefined;
    const old = 'Partial answer...\n*[Response interrupted]*';
    const nb = await oneUndoStep(
      'replies.ipynb',
      async (nb) => {
        const r = await run('editReply', nb.cellAt(0).document.uri);
        const editor = (r as Result & { editor: vscode.TextEditor }).editor;
        reply = editor.document;
        assert.equal(reply.getText(), old);
        await editor.edit((b) => b.insert(reply!.positionAt(reply!.getText().length), '\n\nAnd a finished ending.'));
        assert.ok(await save(reply), 'the reply document saves');
      },
      (nb) => assert.equal(replyText(nb.cellAt(0)), old + '\n\nAnd a finished ending.'),
    );
    assert.equal(replyText(nb.cellAt(0)), old);
    await until(() => reply!.getText() === old, 'the open reply document to show the restored reply');
  });
});
