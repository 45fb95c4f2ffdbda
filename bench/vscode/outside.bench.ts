// `npm run bench` (bench/vscode.sh): inside the real VS Code, another program rewrites an open 2,000-cell
// dialog that has unsaved edits (issue 46; target: merged and shown < 200 ms after the file changes).
// Each round types into the first cell, then rewrites the file as an agent does (the whole file, one
// message edited and one added) and times from the write until the notebook shows both. The floor in the
// same window: the same file rewritten while the dialog has no unsaved edits, which VS Code reloads itself;
// and the same change applied as an edit by an extension (one cell replaced, one added): what showing the
// merge costs at least.
// Writes bench-outside.md into the workspace.
import { writeFileSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import * as assert from 'node:assert/strict';
import { readIpynb, writeIpynb } from '../../src/core';
import { median } from './stats';
import { whenShown } from './shown';

const FILE = 'generated-2000.ipynb';
const ROUNDS = 7;
const folder = () => vscode.workspace.workspaceFolders![0].uri;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('outside changes merged (bench)', function () {
  this.timeout(1_800_000);
  it('an agent rewrites an open 2,000-cell dialog with unsaved edits', async () => {
    const ext = vscode.extensions.getExtension('dialog-notebooks.dialog-notebooks');
    await ext?.activate();
    const uri = vscode.Uri.joinPath(folder(), FILE);
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'dialog-notebook', { preview: false });
    const nb = vscode.workspace.notebookDocuments.find((d) => d.notebookType === 'dialog-notebook' && d.uri.toString() === uri.toString())!;
    const rows: Record<'merged' | 'reloaded' | 'watcher' | 'edit', number[]> = { merged: [], reloaded: [], watcher: [], edit: [] };
    // The file watcher's own delay: when an extension first hears of the write.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder(), FILE), true, false, true);
    let heard: ((t: number) => void) | undefined;
    watcher.onDidChange(() => heard?.(performance.now()));
    for (let r = 0; r < ROUNDS * 2; r++) {
      const dirty = r % 2 === 0;
      if (dirty) {
        const doc = nb.cellAt(0).document;
        const edit = new vscode.WorkspaceEdit();
        edit.insert(doc.uri, new vscode.Position(0, 0), `typed ${r} `);
        await vscode.workspace.applyEdit(edit);
      } else if (nb.isDirty) await nb.save();
      await sleep(1500); // the window settles, as between a person's keystrokes and an agent's write
      const d = readIpynb(readFileSync(uri.fsPath, 'utf8'));
      const target = d.messages[1000];
      const text = `${target.content}\nagent ${r}`;
      target.content = text;
      const added = `agent note ${r}`;
      d.mkMessage({ msgType: 'note', content: added, after: d.messages[1500] });
      const bytes = writeIpynb(d);
      const id = target.id;
      const shown = whenShown(nb, () => nb.getCells().some((c) => c.document.getText() === added) && nb.getCells().some((c) => (c.metadata.dialog as { id?: string })?.id === id && c.document.getText() === text));
      const event = new Promise<number>((r) => (heard = r));
      const t0 = performance.now();
      writeFileSync(uri.fsPath, bytes);
      rows[dirty ? 'merged' : 'reloaded'].push((await shown) - t0);
      rows.watcher.push((await event) - t0);
      // The merged dialog saves without a conflict: the next round starts clean.
      if (!dirty) continue;
      assert.equal(await nb.save(), true, 'the save after a merge is not refused');
      // The floor of showing the merge: the same edit (one cell replaced, one added) applied by an extension.
      await sleep(500);
      const cell = nb.cellAt(1000);
      const again = new vscode.NotebookCellData(cell.kind, `${cell.document.getText()}\nedit ${r}`, cell.document.languageId);
      again.metadata = cell.metadata;
      again.outputs = [...cell.outputs];
      const note = `edit note ${r}`;
      const edit = new vscode.WorkspaceEdit();
      edit.set(uri, [
        vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(1000, 1001), [again]),
        vscode.NotebookEdit.insertCells(1500, [new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, note, 'markdown')]),
      ]);
      const edited = whenShown(nb, () => nb.cellAt(1000).document.getText() === again.value && nb.getCells().some((c) => c.document.getText() === note));
      const t1 = performance.now();
      await vscode.workspace.applyEdit(edit);
      rows.edit.push((await edited) - t1);
      await nb.save();
    }
    const f = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
    const md = [
      `| ${FILE}, rewritten on disk (one message edited, one added) | ms from the write until shown, median (range) of ${ROUNDS} |`,
      '| --- | ---: |',
      `| with unsaved edits: merged by us (target < 200) | ${f(rows.merged)} |`,
      `| without: reloaded by VS Code (the floor) | ${f(rows.reloaded)} |`,
      `| (the file watcher's event reaching an extension) | ${f(rows.watcher)} |`,
      `| (the same edit applied by an extension: the floor of showing it) | ${f(rows.edit)} |`,
      '',
    ].join('\n');
    watcher.dispose();
    writeFileSync(vscode.Uri.joinPath(folder(), 'bench-outside.md').fsPath, md);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });
});
