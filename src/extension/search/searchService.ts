// The workspace's dialogs as one searchable index (issue 53): SQLite FTS5, kept in the extension's storage
// between sessions (never in the workspace): a file written as it changes where the worker has node:sqlite,
// else sqlite-wasm in memory saved whole a while after changes. Brought up to date on start by the files'
// stamps (mtime and size: only what changed is read), then by the file watcher, and by open dialogs' unsaved
// edits as they are typed. The first build shows its progress in a status item that cancels it.

import * as vscode from 'vscode';
import { SearchOptions, SearchQuery, SearchResult, dialogParts, messageSearchParts } from '../../core/search';
import type { Message } from '../../core/model';
import { platform } from '../platform';
import type { IndexClient } from './indexCalls';
import { NOTEBOOK_TYPE } from '../document/cells';
import { dialogOf } from '../document/dialogCache';
import { looksLikeDialog } from '../opening/opening';
import { log } from '../log';

/** The index kept in memory (sqlite-wasm), saved whole. */
const INDEX_FILE = 'search-index.sqlite';
/** The index kept on disk (node:sqlite), written as it changes. */
const DISK_INDEX_FILE = 'search-index.db';
/**
 * A build hands the worker this many files, or this many characters, per transaction. Small batches: what
 * a batch's texts and parsed dialogs take in the two threads' heaps stays in the process after the build
 * (at 10,000 dialogs: 16 files or 1 M characters grew it 222 MB, 8 or 0.5 M less; docs/speed.md).
 */
const BATCH_FILES = 8;
const BATCH_CHARS = 500_000;
/** After a build of this many dialogs, FTS5's index is merged into one segment (faster queries). */
const OPTIMIZE_AFTER = 500;
const EXCLUDE = '**/{node_modules,.git,.ipynb_checkpoints}/**';
/** An unsaved edit is indexed once typing has paused this long. */
const EDIT_SETTLE_MS = 300;
/** The index is written to storage this long after the last change. */
const SAVE_SETTLE_MS = 5000;
/** How long after activation the index opens. */
const START_DELAY_MS = 1500;
/** How often a build's progress item is redrawn. */
const PROGRESS_MS = 250;

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

export interface BuildState {
  done: number;
  total: number;
  skipped: number;
  building: boolean;
}

export class SearchService implements vscode.Disposable {
  private index?: IndexClient;
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
  /** Each open dialog's messages (by id) as last indexed, with that version's stamp; `puts` makes stamps unique. */
  private readonly indexedOpen = new Map<string, { stamp: string; messages: Map<string, Message> }>();
  private puts = 0;

  constructor(
    private readonly storage: vscode.Uri,
    private readonly extensionUri: vscode.Uri,
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
      watcher.onDidDelete((u) => this.write((index) => index.call('remove', [fileKey(u)]))),
      vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && this.editChanged(e.notebook)),
      // Closed without saving: what counts again is the file.
      vscode.workspace.onDidCloseNotebookDocument((nb) => nb.notebookType === NOTEBOOK_TYPE && (this.indexedOpen.delete(fileKey(nb.uri)), this.fileChanged(nb.uri))),
    );
  }

  /** Where the index is, which engine holds it, and why it was rebuilt if it was (for scripts and tests). */
  readonly where: { engine?: string; file?: string; damaged?: string } = {};

  private async open(): Promise<void> {
    const index = platform().searchIndex();
    // A damaged index is rebuilt, never a crash.
    const rebuilt = (at: vscode.Uri, why?: string) => {
      this.where.damaged = why;
      if (why) log.warn(`Search index at ${at.fsPath} unreadable (${why}): rebuilding it`);
    };
    const snapshot = vscode.Uri.joinPath(this.storage, INDEX_FILE);
    if (this.storage.scheme === 'file') {
      const disk = vscode.Uri.joinPath(this.storage, DISK_INDEX_FILE);
      await vscode.workspace.fs.createDirectory(this.storage);
      const opened = await index.call('openFile', disk.fsPath);
      if (opened) {
        rebuilt(disk, opened.damaged);
        Object.assign(this.where, { engine: opened.engine, file: disk.fsPath });
        log.info(`Search index: ${opened.engine}, on disk at ${disk.fsPath}`);
        // An in-memory engine's snapshot of an earlier version is not needed any more.
        await vscode.workspace.fs.delete(snapshot).then(undefined, () => undefined);
        this.index = index;
        return;
      }
    }
    const wasm = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.extensionUri, 'dist', 'sqlite3.wasm'));
    const saved = await vscode.workspace.fs.readFile(snapshot).then((b) => b, () => undefined);
    const damaged = await index.call('open', wasm, saved);
    rebuilt(snapshot, damaged);
    Object.assign(this.where, { engine: 'sqlite-wasm (in memory)', file: snapshot.fsPath });
    log.info(`Search index: sqlite-wasm in memory, saved to ${snapshot.fsPath}`);
    this.index = index;
  }

  /** Closes the index, as closing the window does (for scripts and tests: then `reopen`). */
  async close(): Promise<void> {
    await this.ready;
    this.cancel?.cancel();
    await this.queue;
    await this.save();
    const index = this.index;
    this.index = undefined;
    await index?.call('close');
    index?.dispose();
  }

  /** Opens the index from storage as a new window does, and brings it up to date; resolves when it is. */
  async reopen(): Promise<void> {
    if (this.index) await this.close();
    const opened = this.open();
    this.queue = opened;
    await opened;
    await this.sync();
  }

  /** Brings the index up to the workspace's files: new and changed ones read, gone ones forgotten. */
  async sync(): Promise<void> {
    const index = this.index;
    if (!index) return;
    this.cancel?.cancel();
    const cancel = (this.cancel = new vscode.CancellationTokenSource());
    const files = await vscode.workspace.findFiles('**/*.ipynb', EXCLUDE);
    const known = new Map(await index.call('stamps'));
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
    if (gone.length) await this.write(() => index.call('remove', gone));
    Object.assign(this.state, { done: 0, total: todo.length, skipped: 0, building: todo.length > 0 });
    const started = Date.now();
    let shown = 0;
    // Files are read in batches, each indexed in one transaction while the next batch is read.
    let indexing: Promise<void> = Promise.resolve();
    for (let k = 0; k < todo.length && !cancel.token.isCancellationRequested; ) {
      const first = k;
      const batch: [string, string, string][] = [];
      let chars = 0;
      for (; k < todo.length && batch.length < BATCH_FILES && chars < BATCH_CHARS && !cancel.token.isCancellationRequested; k++) {
        const { uri, key, stamp } = todo[k];
        const read = await this.readForIndex(index, uri, key, stamp);
        if (read) batch.push([key, stamp, read.text]);
        chars += read?.text.length ?? 0;
      }
      // One batch in the worker at a time: the next is read meanwhile.
      await indexing;
      indexing = this.write(() => index.call('putTexts', batch)).then(() => void (this.state.done += k - first));
      if (Date.now() - shown > PROGRESS_MS) {
        // Not awaited: the worker answers it after the batch before it.
        void index.call('broken').then((b) => this.state.building && this.showProgress(b), () => undefined);
        shown = Date.now();
      }
    }
    await indexing;
    if (this.state.done >= OPTIMIZE_AFTER) await this.write(() => index.call('optimize'));
    this.state.building = false;
    this.status.hide();
    if (todo.length || gone.length) {
      log.info(`Search index: ${this.state.done} of ${todo.length} dialogs read in ${Date.now() - started} ms, ${gone.length} gone, ${(await index.call('broken')).length} skipped${cancel.token.isCancellationRequested ? ' (cancelled)' : ''}, index ${((await index.call('size')) / 1e6).toFixed(1)} MB`);
      this.scheduleSave(0);
    }
  }

  private showProgress(broken: readonly unknown[]): void {
    const { done, total } = this.state;
    this.status.text = `$(sync~spin) Indexing dialogs ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}${broken.length ? ` · ${broken.length} skipped` : ''}`;
    this.status.tooltip = 'Dialog search is indexing the workspace\'s dialogs. Click to stop (searches find what is indexed so far).';
    this.status.show();
  }

  /** Stops a build; the next start, or a change, goes on from where it stopped. */
  cancelBuild(): void {
    this.cancel?.cancel();
  }

  /** Reads one file from disk into the index (a dialog's parts, or a note that it is not one). */
  private async indexFile(index: IndexClient, uri: vscode.Uri, key: string): Promise<void> {
    const read = await this.readForIndex(index, uri, key);
    if (read) await index.call('putText', key, read.stamp, read.text);
  }

  /**
   * A file's text to index as a dialog; undefined when there is nothing to index from the file (an open
   * dialog with unsaved edits, indexed as it is; a file gone, forgotten; not a dialog, recorded as such).
   */
  private async readForIndex(index: IndexClient, uri: vscode.Uri, key: string, stamp?: string): Promise<{ text: string; stamp: string } | undefined> {
    const open = vscode.workspace.notebookDocuments.find((n) => n.notebookType === NOTEBOOK_TYPE && n.uri.toString() === uri.toString());
    if (open?.isDirty) return void (await this.indexOpen(index, open));
    let bytes: Uint8Array;
    try {
      // A build gives the stamp it just read; a watcher's event does not.
      if (!stamp) {
        const st = await vscode.workspace.fs.stat(uri);
        // What is indexed is the file as it is (a watcher's repeat, a clean editor's change): nothing to read.
        if ((await index.call('stamp', key)) === stampOf(st)) return undefined;
        stamp = stampOf(st);
      }
      bytes = await vscode.workspace.fs.readFile(uri);
    } catch {
      return void (await index.call('remove', [key]));
    }
    const text = new TextDecoder().decode(bytes);
    if (!looksLikeDialog(text)) return void (await index.call('putBroken', key, stamp, 'not a dialog'));
    return { text, stamp };
  }

  /**
   * An open dialog's messages as they are now, saved or not. Only the messages changed since it was last
   * indexed (the dialog's unchanged messages are the same objects, dialogCache.ts), while the index still
   * holds that version: an edit of a 2,000-cell dialog sends its cell to the index, not every cell's text.
   */
  private async indexOpen(index: IndexClient, nb: vscode.NotebookDocument): Promise<void> {
    const key = fileKey(nb.uri);
    const d = dialogOf(nb);
    const stamp = `open:${nb.version}:${++this.puts}`;
    const now = new Map(d.messages.map((m) => [m.id, m]));
    // A repeated id names no one message: such a dialog is indexed whole each time.
    const unique = now.size === d.messages.length;
    const last = this.indexedOpen.get(key);
    this.indexedOpen.delete(key);
    if (last && unique) {
      const ids = [...now].filter(([id, m]) => last.messages.get(id) !== m).map(([id]) => id);
      for (const id of last.messages.keys()) if (!now.has(id)) ids.push(id);
      const parts = ids.flatMap((id) => (now.has(id) ? messageSearchParts(now.get(id)!) : []));
      if (await index.call('putMessages', key, last.stamp, stamp, ids, parts)) return void this.indexedOpen.set(key, { stamp, messages: now });
    }
    await index.call('putParts', key, stamp, dialogParts(d));
    if (unique) this.indexedOpen.set(key, { stamp, messages: now });
  }

  private fileChanged(uri: vscode.Uri): void {
    if (!vscode.workspace.getWorkspaceFolder(uri) || /[\\/](node_modules|\.git|\.ipynb_checkpoints)[\\/]/.test(uri.path)) return;
    void this.write((index) => this.indexFile(index, uri, fileKey(uri)));
  }

  /** An open dialog changed: its unsaved state is indexed; back to clean (saved, reverted), its file is. */
  private editChanged(nb: vscode.NotebookDocument): void {
    const key = nb.uri.toString();
    clearTimeout(this.editTimers.get(key));
    this.editTimers.set(key, setTimeout(() => {
      this.editTimers.delete(key);
      if (nb.isClosed) return;
      if (nb.isDirty) void this.write((index) => this.indexOpen(index, nb));
      else this.fileChanged(nb.uri);
    }, EDIT_SETTLE_MS));
  }

  /** Runs a change of the index after those before it, and saves the index a while later. */
  private write(fn: (index: IndexClient) => unknown): Promise<void> {
    const next = this.queue
      .then(() => this.index && fn(this.index))
      .then(
        () => this.scheduleSave(),
        (e) => {
          const why = e instanceof Error ? e.message : String(e);
          log.error(`Search index update failed: ${why}`);
          // The worker found its file damaged and emptied it: the workspace is read into it again.
          if (why.startsWith('damaged index')) void this.queue.then(() => this.sync());
        },
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
    if (!this.index || !this.dirty) return;
    this.dirty = false;
    const bytes = await this.index.call('save');
    // On disk, every commit is saved already.
    if (!bytes) return;
    await vscode.workspace.fs.createDirectory(this.storage);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.storage, INDEX_FILE), bytes);
  }

  /** Searches what is indexed now, after the changes already queued. */
  async search(q: SearchQuery, opts: SearchOptions = {}): Promise<SearchResult> {
    await this.ready;
    await this.queue;
    return this.index ? this.index.call('search', q, opts) : { hits: [], scanned: false };
  }

  /** The files skipped as broken or not dialogs, with why. */
  async skippedFiles(): Promise<{ file: string; reason: string }[]> {
    await this.ready;
    return this.index ? this.index.call('broken') : [];
  }

  dispose(): void {
    this.cancel?.cancel();
    for (const t of this.editTimers.values()) clearTimeout(t);
    clearTimeout(this.saveTimer);
    const index = this.index;
    void this.save()
      .catch((e) => log.error(`Search index not saved: ${e instanceof Error ? e.message : String(e)}`))
      .then(() => index?.call('close'))
      .catch(() => undefined)
      .finally(() => index?.dispose());
    for (const d of this.disposables) d.dispose();
  }
}
