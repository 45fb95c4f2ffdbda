// Solveit's hands (issue 31): Extract Code Blocks, the Solveit keymap's commands, and sections that open
// folded as saved and stay so, in the real VS Code.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message } from '../../src/core/model';
import { EXTENSION_ID, closeAll, freshDialog, readText, save, until, showDialog } from './helpers';

interface Result {
  ok: boolean;
  message: string;
}
interface Binding {
  command: string;
  key: string;
  when?: string;
  args?: unknown;
}

const REPLY = [
  'Load it:',
  '',
  '```python',
  'import json',
  '```',
  '',
  'Install:',
  '',
  '```bash',
  'pip install rich',
  '```',
  '',
  '```python',
  'print(json.dumps({}))',
  '```',
].join('\n');

const meta = (c: vscode.NotebookCell) => ((c.metadata.dialog as { meta?: Record<string, unknown> } | undefined)?.meta ?? {}) as Record<string, unknown>;
const flags = (c: vscode.NotebookCell) => c.metadata.dialog as { pinned?: unknown; skipped?: unknown };

async function select(nb: vscode.NotebookDocument, k: number): Promise<vscode.NotebookEditor> {
  const ed = await vscode.window.showNotebookDocument(nb);
  ed.selections = [new vscode.NotebookRange(k, k + 1)];
  return ed;
}

/** Whether cell `k` is in the editor's visible ranges. */
const shown = (ed: vscode.NotebookEditor, k: number) => ed.visibleRanges.some((r) => r.start <= k && k < r.end);

describe('Solveit hands: extract code, keymap, folded sections', function () {
  this.timeout(90000);
  afterEach(closeAll);

  it('Extract Code Blocks turns a reply\'s three fenced blocks into three code cells below it, in order; one Undo removes them', async () => {
    const { nb } = await freshDialog('hands', [
      new Message({ id: 'note0001', msgType: 'note', content: 'Intro' }),
      new Message({ id: 'prmt0001', msgType: 'prompt', content: 'Give me code', output: REPLY }),
      new Message({ id: 'code0001', msgType: 'code', content: 'x = 1' }),
    ]);
    await select(nb, 1);
    const r = await vscode.commands.executeCommand<Result>('dialogNotebook.extractCode');
    assert.equal(r.ok, true, r.message);
    assert.equal(nb.cellCount, 6);
    const made = [2, 3, 4].map((k) => nb.cellAt(k));
    assert.deepEqual(made.map((c) => c.document.getText()), ['import json', '%%bash\npip install rich', 'print(json.dumps({}))']);
    assert.ok(made.every((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === 'python'));
    assert.equal(nb.cellAt(5).document.getText(), 'x = 1');
    assert.ok(nb.cellAt(1).outputs.length, 'the reply stays');
    await showDialog(nb);
    await vscode.commands.executeCommand('undo');
    await until(() => nb.cellCount === 3, 'one undo removes the three cells');
    assert.equal(nb.cellAt(2).document.getText(), 'x = 1');
  });

  it('with the keymap "solveit", p / h / b / 1 are bound in command mode and pin, hide, add below and make a heading', async () => {
    const bindings = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.keybindings as Binding[];
    /** The command (and args) `key` runs in command mode with the Solveit keymap. */
    const bound = (key: string) => {
      const b = bindings.filter((x) => x.key === key && x.when?.includes("config.dialogNotebook.keymap == 'solveit'"));
      assert.ok(b.length, `a Solveit binding for ${key}`);
      for (const x of b) assert.match(x.when!, /notebookEditorFocused.*!inputFocus.*notebookType == dialog-notebook/, `${key} fires only in a dialog's command mode`);
      // One binding a key: hold the selection, select the focused cell, then the command (target.ts).
      assert.equal(b.length, 1, `one Solveit binding for ${key}`);
      const steps = (b[0].args as { commands: (string | { command: string; args?: unknown })[] }).commands;
      assert.deepEqual(steps.slice(0, 2), ['dialogNotebook.holdSelection', 'list.select'], `${key} holds the selection, then selects the focused cell`);
      const last = steps[steps.length - 1];
      return typeof last === 'string' ? { command: last, args: undefined } : { command: last.command, args: last.args };
    };
    // The Jupyter keymap's p (make a prompt) is off in Solveit's.
    for (const x of bindings.filter((b) => b.key === 'p' && b.command.includes('convertToPrompt'))) assert.match(x.when!, /config\.dialogNotebook\.keymap != 'solveit'/);
    const cfg = vscode.workspace.getConfiguration('dialogNotebook');
    await cfg.update('keymap', 'solveit', vscode.ConfigurationTarget.Global);
    try {
      const { nb } = await freshDialog('hands', [
        new Message({ id: 'note0001', msgType: 'note', content: 'Intro' }),
        new Message({ id: 'code0001', msgType: 'code', content: 'x = 1' }),
      ]);
      const press = async (key: string, k: number) => {
        await select(nb, k);
        const { command, args } = bound(key);
        const r = await vscode.commands.executeCommand<Result>(command, args);
        assert.equal(r?.ok ?? true, true, r?.message);
      };
      await press('p', 1);
      assert.equal(flags(nb.cellAt(1)).pinned, true);
      await press('h', 1);
      assert.equal(flags(nb.cellAt(1)).skipped, true);
      await press('1', 0);
      assert.equal(nb.cellAt(0).document.getText(), '# Intro');
      await press('b', 0);
      await until(() => nb.cellCount === 3, 'b adds a message below');
      assert.equal(nb.cellAt(1).document.languageId, 'dialog-prompt', 'a new message is a prompt');
    } finally {
      await cfg.update('keymap', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a dialog saved with a folded section opens with it folded and not dirty; the fold keys write heading_collapsed / hidden, one undo step', async () => {
    const { name, nb } = await freshDialog('hands', [
      new Message({ id: 'head0001', msgType: 'note', content: '# Open' }),
      new Message({ id: 'code0001', msgType: 'code', content: 'a = 1' }),
      new Message({ id: 'head0002', msgType: 'note', content: '# Folded', meta: { heading_collapsed: true } }),
      new Message({ id: 'code0002', msgType: 'code', content: 'b = 2', meta: { hidden: true } }),
      new Message({ id: 'note0002', msgType: 'note', content: 'inside', meta: { hidden: true } }),
      new Message({ id: 'head0003', msgType: 'note', content: '# After' }),
    ]);
    const bytes = await readText(name);
    // The fold commands act on the active editor's selection: once it is this dialog's.
    const ed = (await showDialog(nb))!;
    await until(() => shown(ed, 2) && !shown(ed, 3) && !shown(ed, 4) && shown(ed, 5), `the folded section hidden (visible ${JSON.stringify(ed.visibleRanges)})`);
    assert.ok(shown(ed, 1), 'the open section stays open');
    assert.equal(nb.isDirty, false, 'opening edits nothing');
    // ← on the first section folds it and writes the flags as Solveit does.
    ed.selections = [new vscode.NotebookRange(1, 2)];
    assert.equal((await vscode.commands.executeCommand<Result>('dialogNotebook.foldSection')).ok, true);
    await until(() => !shown(ed, 1), 'the first section folded');
    assert.equal(meta(nb.cellAt(0)).heading_collapsed, true);
    assert.equal(meta(nb.cellAt(1)).hidden, true);
    // → on the saved one unfolds it.
    ed.selections = [new vscode.NotebookRange(2, 3)];
    assert.equal((await vscode.commands.executeCommand<Result>('dialogNotebook.unfoldSection')).ok, true);
    await until(() => shown(ed, 3) && shown(ed, 4), 'the saved section unfolded');
    assert.equal(meta(nb.cellAt(2)).heading_collapsed, undefined);
    assert.equal(meta(nb.cellAt(3)).hidden, undefined);
    // Pinning the folded heading pins its section.
    ed.selections = [new vscode.NotebookRange(0, 1)];
    assert.equal((await vscode.commands.executeCommand<Result>('dialogNotebook.togglePinned')).ok, true);
    assert.deepEqual([0, 1, 2].map((k) => !!flags(nb.cellAt(k)).pinned), [true, true, false]);
    await vscode.commands.executeCommand('undo');
    await until(() => !flags(nb.cellAt(0)).pinned && !flags(nb.cellAt(1)).pinned, 'one undo unpins the section');
    await vscode.commands.executeCommand('undo');
    await until(() => meta(nb.cellAt(2)).heading_collapsed === true && meta(nb.cellAt(3)).hidden === true, 'one undo refolds the saved section\'s flags');
    await vscode.commands.executeCommand('undo');
    await until(() => !nb.isDirty, 'one undo more: the dialog as saved');
    assert.ok(await save(nb));
    assert.equal(await readText(name), bytes);
  });
});
