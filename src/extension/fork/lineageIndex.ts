// What the Lineage view and Compare with Parent know of the workspace's dialogs: one LineageEntry per
// `.ipynb` (its lineage and message ids, never its contents), read asynchronously through workspace.fs
// and cached per uri and mtime, so a rescan after a file event reads only the files that changed.

import * as vscode from 'vscode';
import { LineageEntry, lineageEntry } from '../../core/fork';
import { Dialog } from '../../core/model';
import { readIpynb } from '../../core/ipynb';
import { log } from '../log';

const DIALOGS = '**/*.ipynb';
/** Checkpoints (`.ipynb_checkpoints`), `.git` and installed packages hold copies, not dialogs. */
const SKIPPED = '{**/node_modules/**,**/.*/**}';
/** File events come in bursts (a save, a checkout): the view refreshes once they settle. */
const SETTLE_MS = 300;
const READERS = 8;

export async function readDialog(uri: vscode.Uri): Promise<Dialog> {
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  return readIpynb(text, uri.path.replace(/^.*\//, ''));
}

export class LineageIndex implements vscode.Disposable {
  /** By uri string; `entry` null for a file that could not be read (skipped until it changes). */
  private readonly cache = new Map<string, { mtime: number; entry: LineageEntry | null }>();
  /** The last scan's entry paths (uri.path, the frame the core compares in) back to their uris. */
  private uris = new Map<string, vscode.Uri>();
  private generation = 0;
  private scan?: { generation: number; done: Promise<LineageEntry[]> };
  private timer?: ReturnType<typeof setTimeout>;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fired (debounced) when a dialog file was created, changed or deleted. */
  readonly onDidChange = this.changed.event;
  private readonly watcher = vscode.workspace.createFileSystemWatcher(DIALOGS);

  constructor() {
    for (const ev of [this.watcher.onDidCreate, this.watcher.onDidChange, this.watcher.onDidDelete]) ev(() => this.invalidate());
  }

  /** Forgets the last scan (the cache stays: unchanged files are not read again) and tells the listeners. */
  invalidate(): void {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed.fire();
    }, SETTLE_MS);
  }

  /** Every readable dialog of the workspace; one scan serves every caller until the next file event. */
  entries(): Promise<LineageEntry[]> {
    if (this.scan?.generation !== this.generation) this.scan = { generation: this.generation, done: this.read() };
    return this.scan.done;
  }

  uriOf(path: string): vscode.Uri | undefined {
    return this.uris.get(path);
  }

  private async read(): Promise<LineageEntry[]> {
    const files = await vscode.workspace.findFiles(DIALOGS, SKIPPED);
    const found = new Array<LineageEntry | null>(files.length);
    // A few reads in flight at once: each is a round trip to the file service, mostly waiting.
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const k = next++;
        found[k] = await this.entryOf(files[k], files[k].toString());
      }
    };
    await Promise.all(Array.from({ length: Math.min(READERS, files.length) }, worker));
    const keep = new Set(files.map((u) => u.toString()));
    for (const key of this.cache.keys()) if (!keep.has(key)) this.cache.delete(key);
    const entries: LineageEntry[] = [];
    const uris = new Map<string, vscode.Uri>();
    found.forEach((e, k) => {
      if (!e) return;
      entries.push(e);
      uris.set(e.path, files[k]);
    });
    this.uris = uris;
    return entries;
  }

  private async entryOf(uri: vscode.Uri, key: string): Promise<LineageEntry | null> {
    let mtime: number;
    try {
      mtime = (await vscode.workspace.fs.stat(uri)).mtime;
    } catch {
      return null; // deleted since findFiles listed it
    }
    const hit = this.cache.get(key);
    if (hit && hit.mtime === mtime) return hit.entry;
    let entry: LineageEntry | null = null;
    try {
      entry = lineageEntry(uri.path, await readDialog(uri));
    } catch (e) {
      log.warn(`lineage: skipped ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.cache.set(key, { mtime, entry });
    return entry;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher.dispose();
    this.changed.dispose();
  }
}
