// Choosing the Python that runs a dialog (issue 23), in the real VS Code with Debian's Jupyter: a workspace
// `.venv` made with --system-site-packages (so it has ipykernel) is offered, and picking it by
// Select Python Environment with its path writes the dialog's kernelspec (one undo step) and runs code in
// the venv, the one Jupyter Server running the venv's kernel; a venv without ipykernel is offered with
// what it lacks and says so when code runs; the Dialog Variables list and ``$`…` `` completions show
// `x = 42` as an int. The venvs live in the test's temporary workspace and are removed afterwards.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Message } from '../../src/core';
import { cellOf, closeAll, execute, freshDialog, note, until, skipWithoutKernel, showDialog } from './helpers';

const STDOUT = 'application/vnd.code.notebook.stdout';
const settings = () => vscode.workspace.getConfiguration('dialogNotebook');

interface Listed {
  controller: string;
  label: string;
  executable?: string;
  version?: string;
  lacks: string;
}
interface Variable {
  name: string;
  type: string;
  value: string;
}

const out = (cell: vscode.NotebookCell) =>
  cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === STDOUT)
    .map((i) => new TextDecoder().decode(i.data))
    .join('');
const kernelspec = (nb: vscode.NotebookDocument) => ((nb.metadata.dialog as { meta?: { kernelspec?: unknown } } | undefined)?.meta ?? {}).kernelspec;
const ended = (nb: vscode.NotebookDocument, id: string) => until(() => cellOf(nb, id).executionSummary?.timing?.endTime, `the end of ${id}'s run`, 180000);
const code = (id: string, content: string) => new Message({ id, msgType: 'code', content });

describe('choosing the Python environment of a dialog', function () {
  this.timeout(400000);
  before(function () {
    skipWithoutKernel(this);
  });
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const venv = join(ws, '.venv');
  const bare = join(ws, 'venv');
  const python = (prefix: string) => join(prefix, 'bin', 'python');
  let nb: vscode.NotebookDocument;
  let listed: Listed[];

  before(async () => {
    await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', venv]);
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', bare]);
    listed = await vscode.commands.executeCommand<Listed[]>('dialogNotebook.refreshEnvironments');
    ({ nb } = await freshDialog('pyenv', [
      code('prefix01', 'import sys\nprint(sys.prefix)'),
      code('setx0001', 'x = 42'),
      new Message({ id: 'prompt001', msgType: 'prompt', content: 'What is $`' }),
    ]));
  });

  after(async () => {
    await closeAll();
    rmSync(venv, { recursive: true, force: true });
    rmSync(bare, { recursive: true, force: true });
    await vscode.commands.executeCommand('dialogNotebook.refreshEnvironments');
  });

  it('offers the workspace venv, and a venv without ipykernel with what it lacks', () => {
    const inside = (prefix: string) => (e: Listed) => !!e.executable?.startsWith(join(prefix, 'bin', 'python'));
    const v = listed.find(inside(venv));
    assert.ok(v, `the .venv among ${JSON.stringify(listed)}`);
    assert.match(v.label, /^Python 3\.\d+ \(\.venv\)$/);
    assert.equal(v.lacks, '');
    const b = listed.find(inside(bare));
    assert.ok(b, `the bare venv among ${JSON.stringify(listed)}`);
    assert.equal(b.lacks, 'ipykernel');
    assert.ok(listed.some((e) => e.label === 'Dialog'), 'the dialog’s own kernelspec stays offered');
  });

  it('picking the venv writes the kernelspec as one undo step and runs code inside the venv', async () => {
    const picked = await vscode.commands.executeCommand<Listed>('dialogNotebook.selectEnvironment', python(venv));
    assert.ok(picked?.executable?.startsWith(python(venv)), picked?.executable);
    assert.ok(listed.some((e) => e.controller === picked.controller), 'the environment discovery found, not another one');
    // What Jupyter writes for a venv: its folder's name, no path and no version of this machine.
    const spec = { display_name: '.venv', language: 'python', name: 'python3' };
    await until(() => JSON.stringify(kernelspec(nb)) === JSON.stringify(spec), 'the kernelspec written');
    await showDialog(nb);
    await vscode.commands.executeCommand('undo');
    await until(() => kernelspec(nb) === undefined, 'the kernelspec undone');
    await vscode.commands.executeCommand('redo');
    await until(() => JSON.stringify(kernelspec(nb)) === JSON.stringify(spec), 'the kernelspec redone');
    await execute(nb, 'prefix01');
    await ended(nb, 'prefix01');
    assert.equal(out(cellOf(nb, 'prefix01')).trim(), venv, `cell note: ${JSON.stringify(await note(nb, 'prefix01'))}`);
  });

  it('lists the variables after a run, and completes them after $` in a prompt', async () => {
    await vscode.commands.executeCommand('dialogNotebook.variables.focus');
    await execute(nb, 'setx0001');
    await ended(nb, 'setx0001');
    const vars = await vscode.commands.executeCommand<Variable[]>('dialogNotebook.refreshVariables');
    assert.deepEqual(
      vars.find((v) => v.name === 'x'),
      { name: 'x', type: 'int', value: '42' },
    );
    assert.ok(!vars.some((v) => v.name === 'sys'), 'modules are not variables');
    const prompt = cellOf(nb, 'prompt001').document;
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', prompt.uri, new vscode.Position(0, 'What is $`'.length), '`');
    const x = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'x');
    assert.ok(x, `x among ${list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label)).join(', ')}`);
    assert.equal(x.detail, 'int');
  });

  it('an interpreter outside the workspace given by its path is accepted, listed again, and written without its path', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'dialog-outside-'));
    const tools = join(outside, 'tools');
    try {
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', tools]);
      const picked = await vscode.commands.executeCommand<Listed>('dialogNotebook.selectEnvironment', python(tools));
      assert.ok(picked?.executable?.startsWith(tools), JSON.stringify(picked));
      await until(() => (kernelspec(nb) as { display_name?: string } | undefined)?.display_name === 'tools', 'the kernelspec named after the venv');
      assert.doesNotMatch(JSON.stringify(kernelspec(nb)), /\//, 'no path in the kernelspec');
      const again = await vscode.commands.executeCommand<Listed[]>('dialogNotebook.refreshEnvironments');
      assert.ok(
        again.some((e) => e.executable?.startsWith(tools)),
        `still listed after looking again: ${JSON.stringify(again)}`,
      );
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a venv without ipykernel says what it lacks when its code runs, and nothing is run', async () => {
    const picked = await vscode.commands.executeCommand<Listed>('dialogNotebook.selectEnvironment', python(bare));
    assert.equal(picked?.lacks, 'ipykernel');
    await execute(nb, 'prefix01');
    const n = await until(() => note(nb, 'prefix01'), 'the note on the cell', 60000);
    assert.match(n!.text, /no ipykernel/);
    assert.match(n!.tooltip, /pip install ipykernel/);
  });
});
