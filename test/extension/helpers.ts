// Shared by the suites that run inside the real extension host: workspace files, golden records,
// opening a dialog with the dialog-notebook editor, reading its History tab, answering with the mock
// model servers, and waiting for asynchronous editor effects.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Dialog, DialogReadError, Message, readIpynb, writeIpynb } from '../../src/core';
import { StateMessage } from '../../src/shared/panelProtocol';
import { REPLY_MIME } from '../../src/shared/replyOutput';
import { MockServer } from '../mocks/mockHttp';
import { AnthropicScript, start as startAnthropic } from '../mocks/anthropicServer';
import { OpenAIScript, start as startOpenAI } from '../mocks/openaiServer';

export const NOTEBOOK_TYPE = 'dialog-notebook';
export const EXTENSION_ID = 'dialog-notebooks.dialog-notebooks';

/** Skips the calling suite when `npm test` runs without Jupyter by choice (`DIALOG_TEST_NO_KERNEL=1`). */
export function skipWithoutKernel(ctx: Mocha.Context): void {
  if (process.env.DIALOG_TEST_NO_KERNEL === '1') ctx.skip();
}

export function wsUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the e2e harness opens a workspace folder');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function readText(name: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(wsUri(name)));
}

/** The dialog as saved, or undefined while VS Code is still writing it (auto save: a read then sees part of the file). */
export async function savedDialog(name: string): Promise<Dialog | undefined> {
  try {
    return readIpynb(await readText(name));
  } catch (e) {
    if (e instanceof DialogReadError) return undefined;
    throw e;
  }
}

export async function writeText(name: string, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(text));
}

let copies = 0;
// Each suite is its own bundle with its own count: a prefix per bundle keeps two suites' copies apart (a
// copy written over another suite's just-closed one could open as VS Code still held it).
const suite = Math.random().toString(36).slice(2, 8);
/** A fresh copy of workspace file `name` under scratch/, for a test that edits and saves. */
export async function copyOf(name: string): Promise<string> {
  const copy = `scratch/${suite}-${++copies}-${name}`;
  await vscode.workspace.fs.copy(wsUri(name), wsUri(copy), { overwrite: true });
  return copy;
}

/**
 * For a suite whose tests edit and save workspace dialogs: `own(name)` is the running test's copy of `name`,
 * made on first use, so no save reaches the file other suites read. (Writing the original back after a test
 * is an outside change to a dialog VS Code still holds open, one that takes back what was saved: the
 * extension merges that back in, and auto save writes it again.)
 */
export function ownCopies(): (name: string) => Promise<string> {
  let mine = new Map<string, Promise<string>>();
  beforeEach(() => void (mine = new Map()));
  return (name) => {
    if (!mine.has(name)) mine.set(name, copyOf(name));
    return mine.get(name)!;
  };
}

export interface GoldenMessage {
  id: string;
  msg_type: string;
  content: string;
  ai_res: string;
  output: unknown;
  pinned: unknown;
  skipped: unknown;
  exported: boolean;
}
export interface Golden {
  read: { returned: string | null; n_messages?: number };
  roundtrip_equals_input: boolean;
  messages: GoldenMessage[];
}

/** The Python reference's record of a corpus file (copied into `golden/` by scripts/e2e.sh). */
export async function golden(stem: string): Promise<Golden> {
  return JSON.parse(await readText(`golden/${stem}.json`)) as Golden;
}

export async function activate(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
}

/** Opens `name` from the workspace as a dialog and returns its document. */
export async function openDialog(name: string): Promise<vscode.NotebookDocument> {
  await activate();
  const uri = wsUri(name);
  await vscode.commands.executeCommand('vscode.openWith', uri, NOTEBOOK_TYPE);
  const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString() && d.notebookType === NOTEBOOK_TYPE);
  if (!nb) throw new Error(`${name} did not open as a ${NOTEBOOK_TYPE}`);
  await revert(nb);
  return nb;
}

type HistoryPart = NonNullable<StateMessage['history']>['turns'][number]['parts'][number];

/**
 * Shows `nb` with cell `index` selected and the Dialog panel beside it; returns a reader of the parts the
 * History tab shows for that cell, current at each call (the panel reads `#ai` files asynchronously).
 */
export async function historyParts(nb: vscode.NotebookDocument, index = 0): Promise<() => HistoryPart[]> {
  const ed = await vscode.window.showNotebookDocument(nb, { viewColumn: vscode.ViewColumn.One });
  ed.selections = [new vscode.NotebookRange(index, index + 1)];
  const p = await vscode.commands.executeCommand<{ lastState: StateMessage }>('dialogNotebook.showPanel');
  return () => p.lastState.history?.turns.flatMap((t) => t.parts) ?? [];
}

/** Shows and reverts `nb` when it has unsaved edits (a suite may leave one behind). */
async function revert(nb: vscode.NotebookDocument): Promise<void> {
  if (!nb.isDirty || nb.isUntitled) return;
  // The revert acts on the active editor, which a loaded machine may not have switched yet: until it took.
  await until(async () => {
    await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    return !nb.isDirty;
  }, `the revert of ${nb.uri.path}`);
}

/**
 * Shows `nb` and waits until its editor is the active one, in the extension host and in the tab strip: a
 * command acting on the active editor (revert, close, undo, cell edit) then acts on it. On a loaded machine
 * `showNotebookDocument` can settle before the workbench made the editor active.
 */
export async function showDialog(nb: vscode.NotebookDocument, options?: vscode.NotebookDocumentShowOptions): Promise<vscode.NotebookEditor | undefined> {
  return until<vscode.NotebookEditor | undefined>(async () => {
    const ed = await vscode.window.showNotebookDocument(nb, options);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const active = vscode.window.activeNotebookEditor?.notebook === nb && tab instanceof vscode.TabInputNotebook && tab.uri.toString() === nb.uri.toString();
    return active ? ed : undefined;
  }, `the editor of ${nb.uri.path} to be active`);
}

export async function closeAll(): Promise<void> {
  for (const nb of vscode.workspace.notebookDocuments) await revert(nb);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * Polls `fn` until it returns a truthy value (editor effects such as id stamping are asynchronous). The
 * limit is generous: a loaded machine can take seconds for what takes milliseconds on an idle one.
 */
export async function until<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 30000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * An absence check: fails as soon as `fn` stops holding (returns falsy or throws, an assertion's message
 * then says what changed) within `ms` (it is polled), passes when it held
 * throughout. Not a wait for a state: what it guards against is something that should never come (a
 * second edit, a write, a reopen), so a quiet period is all there is to wait; call it once the state it
 * watches has arrived (wait for that with `until`).
 */
export async function holdsFor(fn: () => unknown, what: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; ; ) {
    if (!(await fn())) throw new Error(`${what} stopped holding`);
    if (Date.now() > end) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Sets `dialogNotebook.<key>` in the user settings and, when that changes it, waits until this extension
 * host has told its listeners: the extension's, registered when it activated, has then run.
 */
export async function setSetting(key: string, value: unknown): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('dialogNotebook');
  if (cfg.inspect(key)?.globalValue === value) return;
  let sub: vscode.Disposable | undefined;
  const seen = new Promise<void>((resolve) => (sub = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`dialogNotebook.${key}`) && resolve())));
  try {
    await cfg.update(key, value, vscode.ConfigurationTarget.Global);
    await seen;
  } finally {
    sub?.dispose();
  }
}

export function dialogState(cell: vscode.NotebookCell): { id?: string; pinned?: unknown; skipped?: unknown; msgType?: string } {
  return (cell.metadata.dialog ?? {}) as { id?: string };
}

/** The reply a prompt cell shows: the text of its reply renderer's output item. */
export function replyText(cell: vscode.NotebookCell): string {
  const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === REPLY_MIME);
  return item ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(item.data) : '';
}

/** Replaces the whole text of a cell through a WorkspaceEdit, as typing would. */
export async function setCellText(cell: vscode.NotebookCell, text: string): Promise<void> {
  const doc = cell.document;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('edit refused');
}

/** The cell of the message with this id. */
export const cellOf = (nb: vscode.NotebookDocument, id: string): vscode.NotebookCell => {
  const c = nb.getCells().find((x) => (x.metadata.dialog as { id?: string } | undefined)?.id === id);
  if (!c) throw new Error(`no cell ${id}`);
  return c;
};

/** The argument `notebook.cell.execute` / `cancelExecution` take for one cell. */
export const cellArgs = (nb: vscode.NotebookDocument, id: string) => {
  const k = cellOf(nb, id).index;
  return { ranges: [{ start: k, end: k + 1 }], document: nb.uri };
};

/** Runs one cell as its ▶ does; resolves when the execution ends. */
export const execute = (nb: vscode.NotebookDocument, id: string) => vscode.commands.executeCommand('notebook.cell.execute', cellArgs(nb, id));

/** The note a run left in the cell's status bar (a wait or a failure). */
export const note = async (nb: vscode.NotebookDocument, id: string) =>
  vscode.commands.executeCommand<{ text: string; tooltip: string } | undefined>('dialogNotebook.cellNote', cellOf(nb, id).document.uri.toString());

/**
 * Saves `doc`, trying again while VS Code gives up: it does when the extension host is too busy for its
 * save participants (1.75 s on a loaded machine) or an update lands during the save. True once saved.
 */
export async function save(doc: { save(): Thenable<boolean>; readonly isDirty: boolean }): Promise<boolean> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    if ((await doc.save()) || !doc.isDirty) return true;
    console.log(`    (save of ${'uri' in doc ? String(doc.uri) : 'a document'} refused, attempt ${attempt})`);
  }
  return false;
}

const dialogFiles = new Map<string, number>();
/** A fresh dialog file `scratch/<folder>/N.ipynb` holding `messages`, opened as a dialog and shown. */
export async function freshDialog(folder: string, messages: Message[]): Promise<{ name: string; nb: vscode.NotebookDocument }> {
  const n = (dialogFiles.get(folder) ?? 0) + 1;
  dialogFiles.set(folder, n);
  const name = `scratch/${folder}/${n}.ipynb`;
  await vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(writeIpynb(new Dialog(messages))));
  const nb = await openDialog(name);
  await vscode.window.showNotebookDocument(nb);
  return { name, nb };
}

type Provider = 'anthropic' | 'openai';
/** The key each mock model server accepts, stored as a user stores it (Dialog: Set API Key). */
export const MOCK_KEYS: Record<Provider, string> = { anthropic: 'sk-ant-e2e-key', openai: 'sk-oai-e2e-key' };

export interface MockProviders {
  ant: MockServer<AnthropicScript>;
  oai: MockServer<OpenAIScript>;
}

/**
 * Answers the calling suite's prompts with the local mock servers of `providers`, through the real SDKs.
 * Registers a `before` hook that starts them, points `dialogNotebook.<provider>.baseUrl` at them, stores
 * their keys and selects `model`, and an `after` hook that undoes all of it and resets the settings named
 * in `reset` (those the tests change). With `kernel` the suite needs Jupyter: it is skipped without
 * (DIALOG_TEST_NO_KERNEL=1) and uses the local kernel. Without `web` the suite's prompts are answered with
 * `dialogNotebook.web.enabled` off (no read_url, no web search). The servers answer from the `before` hook on.
 */
export function useMockProviders(
  model: string,
  opts: { providers?: Provider[]; reset?: string[]; kernel?: boolean; web?: boolean } = {},
): MockProviders {
  const providers = opts.providers ?? ['anthropic', 'openai'];
  const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
  let ant: MockServer<AnthropicScript> | undefined;
  let oai: MockServer<OpenAIScript> | undefined;
  before(async function () {
    if (opts.kernel) {
      skipWithoutKernel(this);
      await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
    }
    if (providers.includes('anthropic')) ant = await startAnthropic({ apiKey: MOCK_KEYS.anthropic });
    if (providers.includes('openai')) oai = await startOpenAI({ apiKey: MOCK_KEYS.openai });
    for (const [provider, server] of [['anthropic', ant], ['openai', oai]] as const) {
      if (!server) continue;
      await settings().update(`${provider}.baseUrl`, server.url, vscode.ConfigurationTarget.Global);
      assert.equal(await vscode.commands.executeCommand('dialogNotebook.setApiKey', provider, MOCK_KEYS[provider]), true);
    }
    assert.equal(await vscode.commands.executeCommand('dialogNotebook.selectModel', model), model);
    // read_url and web search are offered in every prompt by default: a suite about something else asks without them.
    if (!opts.web) await settings().update('web.enabled', false, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    for (const k of [...providers.map((p) => `${p}.baseUrl`), ...(opts.reset ?? []), 'web.enabled']) await settings().update(k, undefined, vscode.ConfigurationTarget.Global);
    await settings().update('model', undefined, vscode.ConfigurationTarget.Workspace);
    for (const p of providers) await vscode.commands.executeCommand('dialogNotebook.setApiKey', p, '');
    await ant?.close();
    await oai?.close();
  });
  return { ant: late('anthropic', () => ant), oai: late('openai', () => oai) };
}

/** Stands for the server `get` returns once the `before` hook started it, so a suite can name it at once. */
function late<S>(provider: Provider, get: () => MockServer<S> | undefined): MockServer<S> {
  const server = () => get() ?? assert.fail(`the ${provider} mock is not running (useMockProviders starts it in its before hook)`);
  return {
    get url() {
      return server().url;
    },
    get requests() {
      return server().requests;
    },
    enqueue: (...responses) => server().enqueue(...responses),
    close: () => server().close(),
  };
}
