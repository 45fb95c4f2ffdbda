// Another program rewriting an open dialog on disk (Solveit does, from memory; so does `git checkout`),
// issue 28: an unmodified dialog shows the new content and nothing of ours writes an older state back,
// auto save on; a modified one gets the change merged in (outsideMerge.test.ts has more).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { Dialog, Message, aiRes, readIpynb, writeIpynb } from '../../src/core';
import { cellOf, closeAll, freshDialog, readText, savedDialog, setCellText, until, wsUri } from './helpers';
import { notebookDialog } from '../../src/extension/document/cells';

const files = () => vscode.workspace.getConfiguration('files');

const dialog = (note: string) => [
  new Message({ id: 'note0001', msgType: 'note', content: note }),
  new Message({ id: 'prmt0001', msgType: 'prompt', content: 'Say hello.', output: 'Old reply.' }),
];

/** What another program writes: the same dialog with another note and reply, written outside VS Code. */
function rewriteOutside(name: string): string {
  const text = writeIpynb(new Dialog([new Message({ id: 'note0001', msgType: 'note', content: 'Rewritten outside.' }), new Message({ id: 'prmt0001', msgType: 'prompt', content: 'Say hello.', output: 'A reply from Solveit.' })]));
  writeFileSync(wsUri(name).fsPath, text);
  return text;
}

describe('a dialog rewritten on disk by another program', function () {
  this.timeout(120000);
  afterEach(async () => {
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await closeAll();
  });

  it('unmodified, auto save on: it shows the new content, and the file keeps it', async () => {
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    const { name, nb } = await freshDialog('outsideChange', dialog('# Before'));
    await until(() => !nb.isDirty, 'the dialog clean');
    const outside = rewriteOutside(name);
    await until(() => cellOf(nb, 'note0001').document.getText() === 'Rewritten outside.', 'the new content shown');
    assert.equal(nb.isDirty, false, 'reloading is no edit');
    assert.equal(await readText(name), outside, 'nothing was written back');
    // An edit now is saved on top of the other program's dialog: no older copy of ours is written.
    await setCellText(cellOf(nb, 'note0001'), 'Rewritten outside, then edited.');
    // Read until saved: a read while auto save writes sees part of the file.
    const saved = await until(async () => {
      const d = await savedDialog(name);
      return d?.messages[0].content === 'Rewritten outside, then edited.' ? d : undefined;
    }, 'the edit auto saved');
    assert.equal(aiRes(saved!.messages[1]), 'A reply from Solveit.');
    assert.notEqual(outside, writeIpynb(saved!));
  });

  it('modified: the change is merged in (issue 46), a message both changed kept twice, and the save writes both', async () => {
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const { name, nb } = await freshDialog('outsideChange', dialog('# Before'));
    await setCellText(cellOf(nb, 'note0001'), '# Edited here');
    assert.ok(nb.isDirty);
    rewriteOutside(name);
    await until(() => aiRes(notebookDialog(nb).msg('prmt0001')) === 'A reply from Solveit.', 'the outside reply merged in');
    assert.equal(cellOf(nb, 'note0001').document.getText(), '# Edited here', 'the edit is kept');
    assert.equal(nb.cellAt(1).document.getText(), 'Rewritten outside.', 'the other version beside it, as a conflict');
    assert.equal(await nb.save(), true, 'the save is not refused');
    const saved = readIpynb(await readText(name));
    assert.deepEqual(saved.messages.map((m) => m.content), ['# Edited here', 'Rewritten outside.', 'Say hello.']);
    assert.equal(aiRes(saved.msg('prmt0001')), 'A reply from Solveit.');
  });
});
