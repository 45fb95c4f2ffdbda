// The dialog tools in the browser's web-worker host (issue 32): Toggle Tools writes the switch, and the
// tools VS Code's agents get (dialog_<tool>, through vscode.lm.invokeTool) read and edit the open dialog
// as one undoable edit each. `python` needs a Jupyter Server, which the web pass has not.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Message } from '../../src/core';
import { cellOf, closeAll, freshDialog, until } from '../extension/helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const text = (r: vscode.LanguageModelToolResult) => r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
const invoke = async (name: string, input: object) => text(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));

describe('web: the dialog tools', function () {
  this.timeout(120000);
  before(async () => {
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await settings().update('tools.confirm', 'never', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('tools.confirm', undefined, vscode.ConfigurationTarget.Global);
    await closeAll();
  });

  it('Toggle Tools flips metadata.solveit.use_tools; the tools read, find, add and replace in the open dialog', async () => {
    const { nb } = await freshDialog('dialog-tools-web', [new Message({ id: 'wnot0001', msgType: 'note', content: '# Web' }), new Message({ id: 'wcod0001', msgType: 'code', content: 'x = 21' })]);
    assert.equal(await vscode.commands.executeCommand('dialogNotebook.toggleTools'), true);
    assert.equal((nb.metadata.dialog as { meta: { solveit: { use_tools: boolean } } }).meta.solveit.use_tools, true);
    await until(() => vscode.lm.tools.some((t) => t.name === 'dialog_view_dlg'), 'the dialog tools registered');
    assert.match(await invoke('dialog_view_dlg', {}), /<markdown id="wnot0001"># Web<\/markdown><code id="wcod0001">x = 21<\/code>/);
    assert.match(await invoke('dialog_find_msgs', { re_pattern: 'x = \\d+', context: 0 }), /^\[\{'id': 'wcod0001'/);
    const id = await invoke('dialog_add_msg', { content: 'Added in the browser.', placement: 'at_end' });
    await until(() => nb.cellCount === 3, 'the note added');
    assert.equal(cellOf(nb, id).document.getText(), 'Added in the browser.');
    assert.equal(await invoke('dialog_msg_str_replace', { id: 'wcod0001', old_str: '21', new_str: '6' }), '@@ -1 +1 @@\n-x = 21\n+x = 6');
    await until(() => cellOf(nb, 'wcod0001').document.getText() === 'x = 6', 'the replacement');
    assert.equal(await invoke('dialog_msg_del_lines', { id: 'wcod0001', start_line: 3, end_line: 4 }), 'error: Invalid start line 3. Valid range: 1-1');
    assert.equal(await vscode.commands.executeCommand('dialogNotebook.toggleTools'), false);
  });
});
