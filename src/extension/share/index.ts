// Share a dialog (issue 54): Dialog: Share… (preview, then a secret gist), Manage Shared Dialogs, Open
// from URL…, Export as HTML. Commands take optional arguments for scripts and tests; without them they ask.

import * as vscode from 'vscode';
import { readIpynb } from '../../core/ipynb';
import { sharedUrl } from '../../core/share';
import { activeDialog } from '../commands/target';
import { CommandResult, reason, refuse } from '../commands/feedback';
import { dlg2notebook, NOTEBOOK_TYPE } from '../document/cells';
import { log } from '../log';
import { CROSS_ORIGIN_HINT, platform } from '../platform';
import type { ShareChoices } from '../../shared/shareProtocol';
import { gistSession, githubTarget } from './github';
import { htmlDocument } from './htmlPage';
import { SharePreview } from './preview';
import { dialogName, Sharer, ShareResult } from './sharer';
import { ShareRecord } from './store';

export interface ShareArgs {
  /** Change the preview's choices first. */
  choices?: Partial<ShareChoices>;
  /** Publish at once with those choices (as the Publish button does). */
  publish?: boolean;
  /** The earlier gist is gone: create a new one. */
  anew?: boolean;
  /** A GitHub token to publish with instead of VS Code's sign-in (scripts, CI). */
  token?: string;
}

/** What Share… tells the user after publishing: the link copied, Open and Copy nbviewer link; or what to do next. */
async function told(r: ShareResult, p: SharePreview): Promise<void> {
  if (r.ok && r.url) {
    await vscode.env.clipboard.writeText(r.url);
    const actions = ['Open', ...(r.nbviewer ? ['Copy nbviewer link'] : [])];
    void vscode.window.showInformationMessage(`${r.message} (link copied)`, ...actions).then(async (a) => {
      if (a === 'Open') await vscode.env.openExternal(vscode.Uri.parse(r.url!));
      else if (a === 'Copy nbviewer link' && r.nbviewer) await vscode.env.clipboard.writeText(r.nbviewer);
    });
    return;
  }
  log.warn(`share: ${r.message}`);
  if (r.gone) {
    void vscode.window.showWarningMessage(r.message, 'Share as a new gist').then((a) => a && p.publish(true));
  } else if (/refused the sign-in/.test(r.message)) {
    void vscode.window.showErrorMessage(r.message, 'Sign in again').then(async (a) => {
      if (a && (await gistSession(githubTarget(), true).catch(() => undefined))) await p.publish();
    });
  } else if (!r.secrets) void vscode.window.showErrorMessage(r.message);
}

function previewOf(context: vscode.ExtensionContext, sharer: Sharer, nb: vscode.NotebookDocument): { preview: SharePreview; fresh: boolean } {
  const open = SharePreview.open.get(nb.uri.toString());
  if (open) {
    open.panel.reveal(vscode.ViewColumn.Beside);
    return { preview: open, fresh: false };
  }
  return { preview: new SharePreview(context, sharer, nb, told), fresh: true };
}

async function share(context: vscode.ExtensionContext, sharer: Sharer, arg?: unknown, a: ShareArgs = {}): Promise<ShareResult | CommandResult | undefined> {
  const nb = activeDialog(arg);
  if (!nb) return refuse('Open a dialog to share it.');
  const { preview } = previewOf(context, sharer, nb);
  if (a.choices) preview.choices = { ...preview.choices, ...a.choices };
  const state = await preview.refresh();
  if (!a.publish) return { ok: true, message: `${state.blocks.length} messages in the preview; ${state.left.length} left out; ${state.secrets.length} look secret` };
  return preview.publish(a.anew, a.token);
}

/** Opens dialog `uri` as a dialog (it may be closed, or open in Jupyter's editor). */
async function openAsDialog(uri: string): Promise<vscode.NotebookDocument | undefined> {
  const u = vscode.Uri.parse(uri);
  const find = () => vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri && n.notebookType === NOTEBOOK_TYPE);
  if (!find()) await vscode.commands.executeCommand('vscode.openWith', u, NOTEBOOK_TYPE);
  return find();
}

async function manage(context: vscode.ExtensionContext, sharer: Sharer, action?: unknown, gistId?: unknown, token?: string): Promise<ShareResult | CommandResult | ShareRecord[] | undefined> {
  const all = sharer.store.all();
  if (action === 'list') return all;
  let r = all.find((x) => x.gistId === gistId);
  if (!r) {
    if (!all.length) {
      void vscode.window.showInformationMessage('Nothing shared yet: Dialog: Share… publishes a dialog as a secret gist.');
      return { ok: false, message: 'Nothing shared yet.' };
    }
    const pick = await vscode.window.showQuickPick(
      all.map((x) => ({ label: x.name, description: x.url, detail: `shared ${new Date(x.sharedAt).toLocaleString()}, updated ${new Date(x.updatedAt).toLocaleString()}`, r: x })),
      { title: 'Dialog: Manage Shared Dialogs', placeHolder: 'A dialog you shared' },
    );
    if (!pick) return undefined;
    r = pick.r;
  }
  let act = typeof action === 'string' ? action : undefined;
  if (!act) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: '$(link-external) Open the gist', id: 'open' },
        { label: '$(copy) Copy the link', id: 'copy' },
        { label: '$(sync) Update: share the dialog again', id: 'update' },
        { label: '$(trash) Delete the gist', id: 'delete' },
      ],
      { title: r.name, placeHolder: r.url },
    );
    if (!pick) return undefined;
    act = pick.id;
  }
  if (act === 'open') {
    await vscode.env.openExternal(vscode.Uri.parse(r.url));
    return { ok: true, message: r.url };
  }
  if (act === 'copy') {
    await vscode.env.clipboard.writeText(r.url);
    return { ok: true, message: r.url };
  }
  if (act === 'update') {
    const nb = await openAsDialog(r.dialog);
    if (!nb) return refuse(`${r.name} could not be opened (${vscode.Uri.parse(r.dialog).fsPath}): was it moved? Open it and use Dialog: Share….`);
    return share(context, sharer, nb.uri, { publish: typeof action === 'string', token });
  }
  if (act === 'delete') {
    if (typeof action !== 'string') {
      const ok = await vscode.window.showWarningMessage(`Delete the gist of ${r.name}? Its link stops working for everyone.`, { modal: true }, 'Delete');
      if (ok !== 'Delete') return undefined;
    }
    const res = await sharer.remove(r, token);
    if (res.ok) void vscode.window.showInformationMessage(res.message);
    else void vscode.window.showErrorMessage(res.message);
    return res;
  }
  return refuse(`Unknown action ${act}: open, copy, update or delete.`);
}

async function fetchText(url: string): Promise<string> {
  let r: Response;
  try {
    r = await fetch(url);
  } catch (e) {
    if (e instanceof TypeError && platform().kind === 'browser') throw new Error(`the browser could not read it (${e.message}): ${CROSS_ORIGIN_HINT}`, { cause: e });
    throw e;
  }
  if (!r.ok) throw new Error(`${url} answered ${r.status}`);
  return r.text();
}

/** Dialog: Open from URL…: a gist (its page, id or raw .ipynb URL) as a new untitled dialog; nothing runs. */
async function openFromUrl(sharer: Sharer, given?: unknown): Promise<vscode.Uri | CommandResult | undefined> {
  const text =
    typeof given === 'string'
      ? given
      : await vscode.window.showInputBox({ title: 'Dialog: Open from URL', prompt: 'A gist’s address (or id), or the raw URL of a .ipynb', placeHolder: 'https://gist.github.com/…', ignoreFocusOut: true, validateInput: (v) => (v.trim() && !sharedUrl(v) ? 'Not a gist or .ipynb address' : undefined) });
  if (!text) return undefined;
  const where = sharedUrl(text);
  if (!where) return refuse(`Not a gist or .ipynb address: ${text}`);
  let source: string;
  let name = 'shared dialog';
  try {
    if (where.kind === 'raw') {
      source = await fetchText(where.url);
      name = decodeURIComponent(where.url.split('/').pop() ?? name);
    } else {
      const g = await sharer.readGist(where.id);
      if (typeof g === 'string') return refuse(g);
      const f = Object.values(g.files).find((x) => x && /\.ipynb$/i.test(x.filename));
      if (!f) return refuse(`The gist ${where.id} holds no .ipynb file to open.`);
      name = f.filename;
      source = !f.truncated && typeof f.content === 'string' ? f.content : await fetchText(f.raw_url ?? '');
    }
  } catch (e) {
    const why = reason(e).replace(/\.$/, '');
    return refuse(`Could not read ${text.trim()}: ${why}. Check the address and the connection.`);
  }
  let nbData: vscode.NotebookData;
  try {
    nbData = dlg2notebook(readIpynb(source, name.replace(/\.ipynb$/i, '')));
  } catch (e) {
    return refuse(`${name} is not a dialog this extension can read: ${reason(e)}`);
  }
  // Opened empty, then filled by one edit: outputs (replies) given to openNotebookDocument lose their bytes
  // on the way to the window.
  const nb = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, new vscode.NotebookData([]));
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(0, nbData.cells), vscode.NotebookEdit.updateNotebookMetadata(nbData.metadata ?? {})]);
  if (!(await vscode.workspace.applyEdit(edit))) return refuse(`${name} could not be put into a new dialog.`);
  await vscode.window.showNotebookDocument(nb);
  log.info(`opened ${name} from ${text.trim()} as an untitled dialog`);
  return nb.uri;
}

/** Export as HTML: the page, rendered and sanitised by the preview, as one self-contained file. */
async function exportHtml(context: vscode.ExtensionContext, sharer: Sharer, arg?: unknown, target?: unknown): Promise<vscode.Uri | CommandResult | undefined> {
  const nb = activeDialog(arg);
  if (!nb) return refuse('Open a dialog to export it.');
  const name = dialogName(nb);
  let uri = target instanceof vscode.Uri ? target : undefined;
  if (!uri) {
    const folder = nb.uri.scheme === 'untitled' ? vscode.workspace.workspaceFolders?.[0]?.uri : vscode.Uri.joinPath(nb.uri, '..');
    uri = await vscode.window.showSaveDialog({ title: 'Export as HTML', defaultUri: folder && vscode.Uri.joinPath(folder, `${name}.html`), filters: { HTML: ['html'] } });
    if (!uri) return undefined;
  }
  const { preview, fresh } = previewOf(context, sharer, nb);
  try {
    const body = await preview.renderHtml();
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(htmlDocument(name, body)));
  } catch (e) {
    return refuse(`Export as HTML failed: ${reason(e)}`);
  } finally {
    if (fresh) preview.panel.dispose();
  }
  log.info(`exported ${name} as HTML to ${uri.toString()}`);
  return uri;
}

export function registerShare(context: vscode.ExtensionContext): void {
  const sharer = new Sharer(context);
  context.subscriptions.push(
    vscode.commands.registerCommand('dialogNotebook.share', (arg?: unknown, a?: ShareArgs) => share(context, sharer, arg, a)),
    vscode.commands.registerCommand('dialogNotebook.manageShared', (action?: unknown, gistId?: unknown, token?: unknown) => manage(context, sharer, action, gistId, typeof token === 'string' ? token : undefined)),
    vscode.commands.registerCommand('dialogNotebook.openFromUrl', (url?: unknown) => openFromUrl(sharer, url)),
    vscode.commands.registerCommand('dialogNotebook.exportHtml', (arg?: unknown, target?: unknown) => exportHtml(context, sharer, arg, target)),
    // The open preview's last state and publish (for tests of what the view shows).
    vscode.commands.registerCommand('dialogNotebook.sharePreviewState', (uri?: unknown) => {
      const p = SharePreview.open.get(String(uri));
      return p && { state: p.lastState, result: p.lastResult };
    }),
  );
}
