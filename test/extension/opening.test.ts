// Issue 29.1: while dialogNotebook.openDialogsByDefault is on, `workbench.editorAssociations` opens
// `*.ipynb` with the dialog editor (so a double-click needs no reopen, which VS Code refuses while it holds
// Jupyter's model); the entry goes where the setting is, goes away with it, and never replaces or removes
// an association the user wrote. test/ui/double-click.mjs checks the double-clicks themselves.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isDeepStrictEqual } from 'node:util';
import { activate, holdsFor, setSetting, until } from './helpers';

const GLOBAL = vscode.ConfigurationTarget.Global;
const userAssociations = () => vscode.workspace.getConfiguration('workbench').inspect<Record<string, string>>('editorAssociations')?.globalValue;

const setting = (on: boolean | undefined) => setSetting('openDialogsByDefault', on);
const setAssociations = (v: Record<string, string> | undefined) => vscode.workspace.getConfiguration('workbench').update('editorAssociations', v, GLOBAL);

describe('the editor association of openDialogsByDefault', function () {
  this.timeout(60000);
  // Activated by the workspace's .ipynb files at start-up (workspaceContains), or here when that has not happened yet.
  before(activate);
  afterEach(async () => {
    await setting(undefined);
    await setAssociations(undefined);
  });

  it('is written in the user settings when the setting goes on there, beside the others, and removed when it goes off', async () => {
    await setAssociations({ '*.csv': 'default' });
    await setting(true);
    await until(() => userAssociations()?.['*.ipynb'] === 'dialog-notebook', 'the *.ipynb association');
    assert.deepEqual(userAssociations(), { '*.csv': 'default', '*.ipynb': 'dialog-notebook' });
    await setting(false);
    await until(() => userAssociations()?.['*.ipynb'] === undefined, 'the association removed');
    assert.deepEqual(userAssociations(), { '*.csv': 'default' }, "the user's own entry stays");
  });

  it("never replaces nor removes the user's own *.ipynb association", async () => {
    await setAssociations({ '*.ipynb': 'jupyter-notebook' });
    const theirs = () => isDeepStrictEqual(userAssociations(), { '*.ipynb': 'jupyter-notebook' });
    await setting(true);
    await holdsFor(theirs, "the user's association, with the setting on,", 1500);
    await setting(undefined);
    await holdsFor(theirs, "the user's association, with the setting gone,", 1500);
  });

  // Issue 47.3: before, only an association we had written ourselves was removed.
  it("removes, when the setting goes off, the dialog editor's association that was there before (npm run open's)", async () => {
    await setAssociations({ '*.ipynb': 'dialog-notebook' });
    await setting(true); // seen on by the extension, with the association there
    assert.deepEqual(userAssociations(), { '*.ipynb': 'dialog-notebook' });
    await setting(false);
    await until(() => userAssociations()?.['*.ipynb'] === undefined, 'the association removed');
  });

  it('writes nothing while the setting is off', async () => {
    await setting(false);
    await holdsFor(() => userAssociations() === undefined, 'no association', 1500);
  });
});
