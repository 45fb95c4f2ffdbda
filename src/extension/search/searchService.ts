// The workspace's dialogs as one searchable index (issue 53): SQLite FTS5 in WebAssembly, kept in the
// extension's storage between sessions (never in the workspace), brought up to date on start by the files'
// stamps (mtime and size: only what changed is read), then by the file watcher, and by open dialogs' unsaved
// edits as they are typed. The first build shows its progress in a status item that cancels it.

import * as vscode from 'vscode';
import { DialogReadError, readIpynb } from '../../core/ipynb';
import { SearchIndex, SearchOptions, SearchQuery, SearchResult, dialogParts } from '../../core/search';
import type { WasmSqlite } from '../../node/wasmSqlite';
import { NOTEBOOK_TYPE } from '../document/cells';
import { dialogOf } from '../document/dialogCache';
import { looksLikeDialog } from '../opening/opening';
import { log } from '../log';

const INDEX_FILE = 'search-index.sqlite';
const EXCLUDE = '**/{node_modules,.git,.ipynb_checkpoints}/**';
/** An unsaved edit is indexed once typing has paused this long. */
const EDIT_SETTLE_MS = 300;
/** The index is written to storage this long after the last change. */
const SAVE_SETTLE_MS = 5000;
/** How long after activation the index opens. */
const START_DELAY_MS = 1500;
/** A build yields to the event loop after this much work, so the window stays responsive. */
const SLICE_MS = 20;

/** A file's key in the index: its workspace-relative path with `/`, as `in:` filters and dname names it. */
export function fileKey(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** The file a key names, in whichever workspace folder holds it. */
export function keyUri(key: string): vscode.Uri | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1) return vscode.Uri.joinPath(folders[0].uri, key);
  const slash = key.indexOf('/');
  const f = folders.find((w) => w.name === key.slice(0, slash));
  return f ? vscode.Uri.joinPath(f.uri, key.slice(slash + 1)) : undefined;
}

const stampOf = (st: { mtime: number; size: number }) => `${st.mtime}:${st.size}`;
const yieldNow = () => new Promise<void>((r) => setTimeout(r, 0));

export interface BuildState {
  done: number;
  total: number;
  skipped: number;
  building: boolean;
}

export class SearchService implements vscode.Disposable {
  private index?: SearchIndex;
  private db?: WasmSqlite;
  private readonly status = vscode.window.createStatusBarItem('dialogNotebook.search', vscode.StatusBarAlignment.Left, -100);
  private readonly disposables: vscode.Disposable[] = [this.status];
  private readonly editTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private saveTimer?: ReturnType<typeof setTimeout>;
  private dirty = false;
  private cancel?: vscode.CancellationTokenSource;
  /** Resolves when the index is open (its first sync then goes on in the background). */
  readonly ready: Promise<void>;
  readonly state: BuildState = { done: 0, total: 0, skipped: 0, building: false };
  /** Serialises writes: a file's update never interleaves with another's. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: vscode.Uri,
    private readonly loadEngine: () => Promise<{ open(bytes?: Uint8Array): WasmSqlite }>,
  ) {
    this.status.name = 'Dialog Search Index';
    this.status.command = 'dialogNotebook.search.cancelIndexing';
    // Activation stays light: the engine loads and the index opens a moment later.
    this.ready = new Promise((r) => setTimeout(r, START_DELAY_MS))
      .then(() => this.open())
      .catch((e) => log.error(`Search index: ${e instanceof Error ? e.message : String(e)}`));
    // Changes heard before the index opens wait for it.
    this.queue = this.ready;
    void this.ready.then(() => this.sync());
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.ipynb');
    this.disposables.push(
      watcher,
      watcher.onDidCreate((u) => this.fileChanged(u)),
      watcher.onDidChange((u) => this.fileChanged(u)),
      watcher.onDidDelete((u) => this.write(() => this.index?.remove(fileKey(u)))),
      vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && this.editChanged(e.notebook)),
      // Closed without saving: what counts again is the file.
      vscode.workspace.onDidCloseNotebookDocument((nb) => nb.notebookType === NOTEBOOK_TYPE && this.fileChanged(nb.uri)),
    );
  }

  private async open(): Promise<void> {
    const engine = await this.loadEngine();
    const at = vscode.Uri.joinPath(this.storage, INDEX_FILE);
    const bytes = await vscode.workspace.fs.readFile(at).then((b) => b, () => undefined);
    try {
      this.db = engine.open(bytes);
      this.index = new SearchIndex(this.db);
    } catch (e) {
      // A damaged index is rebuilt, never a crash.
      log.warn(`Search index at ${at.fsPath} unreadable (${e instanceof Error ? e.message : String(e)}): rebuilding it`);
      this.db = engine.open();
      this.index = new SearchIndex(this.db);
    }
  }

  /** Brings the index up to the workspace's files: new and changed ones read, gone ones forgotten. */
  async sync(): Promise<void> {
    const index = this.index;
    if (!index) return;
    this.cancel?.cancel();
    const cancel = (this.cancel = new vscode.CancellationTokenSource());
    const files = await vscode.workspace.findFiles('**/*.ipynb', EXCLUDE);
    const known = index.stamps();
    const present = new Set<string>();
    const todo: { uri: vscode.Uri; key: string; stamp: string }[] = [];
    for (const uri of files) {
      const key = fileKey(uri);
      present.add(key);
      const st = await vscode.workspace.fs.stat(uri).then((s) => s, () => undefined);
      if (!st) continue;
      const stamp = stampOf(st);
      if (known.get(key) !== stamp) todo.push({ uri, key, stamp });
    }
    const gone = [...known.keys()].filter((k) => !present.has(k));
    if (gone.length) await this.write(() => index.transaction(() => gone.forEach((k) => index.remove(k))));
    Object.assign(this.state, { done: 0, total: todo.length, skipped: 0, building: todo.length > 0 });
    const started = Date.now();
    let slice = Date.now();
    for (const f of todo) {
      if (cancel.token.isCancellationRequested) break;
      await this.write(() => this.indexFile(f.uri, f.key, f.stamp));
      this.state.done++;
      if (Date.now() - slice > SLICE_MS) {
        this.showProgress();
        await yieldNow();
        slice = Date.now();
      }
    }
    this.state.building = false;
    this.status.hide();
    if (todo.length || gone.length) {
      log.info(`Search index: ${this.state.done} of ${todo.length} dialogs read in ${Date.now() - started} ms, ${gone.length} gone, ${index.broken().length} skipped${cancel.token.isCancellationRequested ? ' (cancelled)' : ''}`);
      this.scheduleSave(0);
    }
  }

  private showProgress(): void {
    const { done, total } = this.state;
    const broken = this.index?.broken().length ?? 0;
    this.status.text = `$(sync~spin) Indexing dialogs ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}${broken ? ` · ${broken} skipped` : ''}`;
    this.status.tooltip = 'Dialog search is indexing the workspace\'s dialogs. Click to stop (searches find what is indexed so far).';
    this.status.show();
  }

  /** Stops a build; the next start, or a change, goes on from where it stopped. */
  cancelBuild(): void {
    this.cancel?.cancel();
  }

  /** Reads one file from disk into the index (a dialog's parts, or a note that it is not one). */
  private async indexFile(uri: vscode.Uri, key: string, stamp?: string): Promise<void> {
    const index = this.index;
    if (!index) return;
    const open = vscode.workspace.notebookDocuments.find((n) => n.notebookType === NOTEBOOK_TYPE && n.uri.toString() === uri.toString());
    if (open?.isDirty) return this.indexOpen(open);
    let bytes: Uint8Array;
    try {
      const st = await vscode.workspace.fs.stat(uri);
      // What is indexed is the file as it is (a watcher's repeat, a clean editor's change): nothing to read.
      if (!stamp && index.stamp(key) === stampOf(st)) return;
      stamp ??= stampOf(st);
      bytes = await vscode.workspace.fs.readFile(uri);
    } catch {
      index.remove(key);
      return;
    }
    const text = new TextDecoder().decode(bytes);
    if (!looksLikeDialog(text)) return index.putBroken(key, stamp, 'not a dialog');
    try {
      const d = readIpynb(text, key);
      index.transaction(() => index.put(key, stamp!, dialogParts(d)));
    } catch (e) {
      index.putBroken(key, stamp, e instanceof DialogReadError ? e.message : `unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** An open dialog's messages as they are now, saved or not. */
  private indexOpen(nb: vscode.NotebookDocument): void {
    const index = this.index;
    if (!index) return;
    index.transaction(() => index.put(fileKey(nb.uri), `open:${nb.version}`, dialogParts(dialogOf(nb))));
  }

  private fileChanged(uri: vscode.Uri): void {
    if (!vscode.workspace.getWorkspaceFolder(uri) || /[\\/](node_modules|\.git|\.ipynb_checkpoints)[\\/]/.test(uri.path)) return;
    void this.write(() => this.indexFile(uri, fileKey(uri)));
  }

  /** An open dialog changed: its unsaved state is indexed; back to clean (saved, reverted), its file is. */
  private editChanged(nb: vscode.NotebookDocument): void {
    const key = nb.uri.toString();
    clearTimeout(this.editTimers.get(key));
    this.editTimers.set(key, setTimeout(() => {
      this.editTimers.delete(key);
      if (nb.isClosed) return;
      if (nb.isDirty) void this.write(() => this.indexOpen(nb));
      else this.fileChanged(nb.uri);
    }, EDIT_SETTLE_MS));
  }

  /** Runs a change of the index after those before it, and saves the index a while later. */
  private write(fn: () => unknown): Promise<void> {
    const next = this.queue.then(fn).then(
      () => this.scheduleSave(),
      (e) => log.error(`Search index update failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    this.queue = next;
    return next;
  }

  private scheduleSave(ms = SAVE_SETTLE_MS): void {
    this.dirty = true;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save(), ms);
  }

  /** Writes the index to the extension's storage (one file, replaced whole). */
  async save(): Promise<void> {
    if (!this.db || !this.dirty) return;
    this.dirty = false;
    await vscode.workspace.fs.createDirectory(this.storage);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.storage, INDEX_FILE), this.db.save());
  }

  /** Searches what is indexed now, after the changes already queued. */
  async search(q: SearchQuery, opts: SearchOptions = {}): Promise<SearchResult> {
    await this.ready;
    await this.queue;
    return this.index ? this.index.search(q, opts) : { hits: [], scanned: false };
  }

  /** The files skipped as broken or not dialogs, with why. */
  skippedFiles(): { file: string; reason: string }[] {
    return this.index?.broken() ?? [];
  }

  dispose(): void {
    this.cancel?.cancel();
    for (const t of this.editTimers.values()) clearTimeout(t);
    clearTimeout(this.saveTimer);
    void this.save().finally(() => this.db?.close());
    for (const d of this.disposables) d.dispose();
  }
}
