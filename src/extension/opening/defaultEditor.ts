// While `dialogNotebook.openDialogsByDefault` is on, VS Code itself opens `.ipynb` files with the dialog
// editor: a `workbench.editorAssociations` entry `"*.ipynb": "dialog-notebook"`, written where the
// setting is (user or workspace settings, never a new .vscode/settings.json) and removed when it goes off.
// Reopening a file VS Code first gave to Jupyter fails while VS Code holds on to Jupyter's model (as it
// does after a double-click in the Explorer); with the entry, the first double-click opens the dialog,
// even before the extension is active (VS Code activates it for its editor). The association is by file
// name, so plain notebooks open as dialogs too (they show as they are; Reopen with Jupyter is one click):
// handing them back to Jupyter fails the same way, VS Code holding on to the first editor's model.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { log } from '../log';
import { reason } from '../commands/feedback';

const PATTERN = '*.ipynb';
/** Where we wrote the entry ('global' in globalState, 'workspace' in workspaceState), to remove only our own. */
const WROTE_KEY = 'dialogNotebook.wroteEditorAssociation';

type Associations = Record<string, string>;
type Scope = 'global' | 'workspace';

const target = (scope: Scope) => (scope === 'global' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace);
const memo = (context: vscode.ExtensionContext, scope: Scope) => (scope === 'global' ? context.globalState : context.workspaceState);

function associations(scope: Scope): Associations {
  const i = vscode.workspace.getConfiguration('workbench').inspect<Associations>('editorAssociations');
  const v = scope === 'global' ? i?.globalValue : i?.workspaceValue;
  return v && typeof v === 'object' ? v : {};
}

/** The scope whose value of openDialogsByDefault is in effect (undefined: only the default, off). */
function settingScope(): Scope | undefined {
  const i = vscode.workspace.getConfiguration('dialogNotebook').inspect<unknown>('openDialogsByDefault');
  if (i?.workspaceFolderValue !== undefined || i?.workspaceValue !== undefined) return 'workspace';
  return i?.globalValue !== undefined ? 'global' : undefined;
}

/** The editor VS Code opens `*.ipynb` with by an association, if any (any scope). */
function associatedEditor(): string | undefined {
  const v = vscode.workspace.getConfiguration('workbench').get<Associations>('editorAssociations')?.[PATTERN];
  return typeof v === 'string' ? v : undefined;
}

async function write(scope: Scope, value: string | undefined): Promise<void> {
  const next = { ...associations(scope) };
  if (value === undefined) delete next[PATTERN];
  else next[PATTERN] = value;
  await vscode.workspace.getConfiguration('workbench').update('editorAssociations', Object.keys(next).length ? next : undefined, target(scope));
}

/** Whether `dialogNotebook.openDialogsByDefault` is set to false somewhere: the user turned it off. */
function turnedOff(): boolean {
  const i = vscode.workspace.getConfiguration('dialogNotebook').inspect<unknown>('openDialogsByDefault');
  return [i?.globalValue, i?.workspaceValue, i?.workspaceFolderValue].includes(false);
}

/**
 * Brings the association in line with the setting; never touches an entry the user wrote for another
 * editor. Off, it removes the dialog editor's entry where we wrote it, and also one written before we
 * were active (`npm run open`, settings sync, by hand) once the user turns the setting off: `justOff`
 * (it went from on to off in this window) or set to false in settings.
 */
async function sync(context: vscode.ExtensionContext, on: boolean, justOff: boolean): Promise<void> {
  const scope = settingScope();
  if (on && scope) {
    const theirs = associatedEditor();
    if (theirs === NOTEBOOK_TYPE || associations(scope)[PATTERN] === NOTEBOOK_TYPE) return;
    if (theirs !== undefined) {
      log.info(`workbench.editorAssociations opens ${PATTERN} with '${theirs}': kept; dialogs opened there are reopened as dialogs`);
      return;
    }
    await write(scope, NOTEBOOK_TYPE);
    await memo(context, scope).update(WROTE_KEY, true);
    log.info(`openDialogsByDefault: ${PATTERN} files now open with the dialog editor (workbench.editorAssociations in ${scope === 'global' ? 'user' : 'workspace'} settings)`);
    return;
  }
  const anyway = justOff || turnedOff();
  for (const s of ['global', 'workspace'] as const) {
    const ours = !!memo(context, s).get(WROTE_KEY);
    if (!ours && !anyway) continue;
    const present = associations(s)[PATTERN] === NOTEBOOK_TYPE;
    if (present) await write(s, undefined);
    if (ours) await memo(context, s).update(WROTE_KEY, undefined);
    if (present) log.info(`openDialogsByDefault is off: the ${PATTERN} association was removed from ${s === 'global' ? 'user' : 'workspace'} settings`);
  }
}

/**
 * Keeps the association in line with the setting. It runs as soon as we are active, which a window whose
 * folder holds an .ipynb file is at start-up (package.json's `workspaceContains` event for them): a setting
 * turned on before the window started (settings sync, a hand-edited settings.json) opens the first
 * double-clicked dialog as a dialog.
 */
export function registerDefaultEditor(context: vscode.ExtensionContext, enabled: () => boolean): void {
  let was = enabled();
  const run = (justOff = false) =>
    sync(context, enabled(), justOff).catch((e: unknown) => log.warn(`workbench.editorAssociations could not be updated: ${reason(e)}`));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('dialogNotebook.openDialogsByDefault')) return;
      const justOff = was && !enabled();
      was = enabled();
      void run(justOff);
    }),
  );
  void run();
}
