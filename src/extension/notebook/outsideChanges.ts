// Another program rewrote the file of an open dialog that has unsaved edits (an agent, dialoghelper, git):
// what it changed comes into the open notebook at once, merged by message with the user's edits
// (core/threeway): base = the file as last loaded or saved, ours = the notebook, theirs = the file now.
// One WorkspaceEdit (one undo step); cells busy with a run or a streaming reply are left to it; a message
// both changed keeps both versions, marked (conflicts.ts). A clean dialog is left to VS Code, which reloads.
//
// Saving afterwards must not meet "the content of the file is newer": VS Code refuses a save when the
// file's mtime is later than the one it last read or wrote. Everything on disk is in the notebook now, so
// the file's mtime is set back to that one (desktop only; in the browser the save asks as before).

import * as vscode from 'vscode';
import { DialogReadError, readIpynb } from '../../core/ipynb';
import { jsonEqual } from '../../core/base';
import { Dialog, Message } from '../../core/model';
import { describeMerge, mergeDialogs } from '../../core/threeway';
import { NOTEBOOK_TYPE, notebookMetadataWith } from './cells';
import { dialogOf } from './dialogCache';
import { messageSplices } from './messageSplices';
import { adoptRead } from './origins';
import { notebookCodeLanguage } from './edits';
import { isBusy } from './busyCells';
import { isStreaming } from './streamingReplies';
import { keepTyping, typingIn } from './keepTyping';
import { platform } from '../platform';
import { log } from '../log';
import { tellMerge } from './conflictNotice';

/** The file as this window last agreed with it. */
interface Baseline {
  text: string;
  /** Its mtime as VS Code remembers it (the save check compares with it); undefined when unknown. */
  mtime?: number;
  /**
   * Its dialog, read ahead while the notebook has unsaved edits (only then can a change be merged), so a
   * change reads one file, not two. Never changed: the merge only compares with it.
   */
  dialog?: Dialog;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const baselines = new Map<string, Baseline>();
/** Dialogs being saved: their own write is no outside change (a refused save never ends: forgotten after a while). */
const saving = new Map<string, number>();
const SAVE_WINDOW_MS = 10000;
/** How long an unreadable file is given to become readable before the user is told. */
const UNREADABLE_WAIT_MS = 300;

async function readDisk(uri: vscode.Uri): Promise<{ text: string; mtime: number } | undefined> {
  try {
    // A local file directly: workspace.fs waits for a round trip to the window first.
    const local = uri.scheme === 'file' ? platform().readLocalFile : undefined;
    const read = local ? await local(uri.fsPath) : undefined;
    if (read) return { text: UTF8.decode(read.bytes), mtime: read.mtime };
    const [bytes, stat] = await Promise.all([vscode.workspace.fs.readFile(uri), vscode.workspace.fs.stat(uri)]);
    return { text: UTF8.decode(bytes), mtime: stat.mtime };
  } catch {
    return undefined;
  }
}

async function takeBaseline(nb: vscode.NotebookDocument): Promise<void> {
  const disk = await readDisk(nb.uri);
  if (disk) baselines.set(nb.uri.toString(), disk);
}

/** What a merge of an outside change did, for tests and the benchmark. */
export interface OutsideMerge {
  uri: string;
  said: string;
  conflicts: number;
  /** Whether the notebook was edited (false: the file holds what the notebook does). */
  edited: boolean;
}
const merged = new vscode.EventEmitter<OutsideMerge>();
export const onDidMergeOutsideChange = merged.event;

/** The messages of `nb` as the merge's "ours", and the busy ones among them. */
function ours(nb: vscode.NotebookDocument): { d: Dialog; busy: Set<Message> } {
  const d = dialogOf(nb); // shared with the views: the merge changes none of its messages
  const busy = new Set<Message>();
  nb.getCells().forEach((c, i) => {
    if (isBusy(c) || isStreaming(c)) busy.add(d.messages[i]);
  });
  return { d, busy };
}

const nameOf = (nb: vscode.NotebookDocument) => nb.uri.path.split('/').pop() ?? nb.uri.path;

/** The dialog in the file's new text; the reason when it does not read as one. */
function readTheirs(text: string, name: string): Dialog | string {
  try {
    return readIpynb(text, name);
  } catch (e) {
    return e instanceof DialogReadError ? e.message.split('\n', 1)[0] : String(e);
  }
}

function baseDialog(base: Baseline, name: string): Dialog {
  if (!base.dialog) {
    try {
      base.dialog = base.text.trim() ? readIpynb(base.text, name) : new Dialog();
    } catch {
      base.dialog = new Dialog(); // the file we loaded from is no longer readable: all of theirs is new
    }
  }
  return base.dialog;
}

/** How long after the first unsaved edit the base is read ahead (not in the way of typing). */
const READ_AHEAD_MS = 1000;
const readingAhead = new Set<string>();

/** Reads the base of a dialog with unsaved edits ahead of a change on disk, once. */
function readAhead(nb: vscode.NotebookDocument): void {
  const key = nb.uri.toString();
  const base = baselines.get(key);
  if (!nb.isDirty || !base || base.dialog || readingAhead.has(key)) return;
  readingAhead.add(key);
  setTimeout(() => {
    readingAhead.delete(key);
    if (baselines.get(key) === base && !nb.isClosed && nb.isDirty) baseDialog(base, nameOf(nb));
  }, READ_AHEAD_MS);
}

/** Merges the file's new dialog into the open notebook; returns what it said ('' when nothing came in). */
export async function mergeOutsideChange(nb: vscode.NotebookDocument, base: Baseline, theirs: Dialog): Promise<OutsideMerge | undefined> {
  const name = nameOf(nb);
  const before = baseDialog(base, name);
  const { d, busy } = ours(nb);
  const { dialog, report } = mergeDialogs(before, d, theirs, { keep: (m) => busy.has(m), asRead: [before, theirs] });
  const token = (theirs.origin as { file?: unknown } | undefined)?.file;
  if (typeof token === 'string') adoptRead(nb, token);
  const edits = messageSplices(d.messages, dialog.messages, new Set(), notebookCodeLanguage(nb));
  if (!jsonEqual(dialog.meta, d.meta)) edits.push(vscode.NotebookEdit.updateNotebookMetadata(notebookMetadataWith(nb, dialog.meta)));
  if (edits.length) {
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, edits);
    const typing = typingIn(nb);
    if (!(await vscode.workspace.applyEdit(edit))) {
      log.warn(`${name} changed on disk; VS Code refused the merge edit. The open dialog is as it was.`);
      return undefined;
    }
    void keepTyping(nb, typing);
  }
  const said = describeMerge(report);
  const result: OutsideMerge = { uri: nb.uri.toString(), said, conflicts: report.conflicts, edited: edits.length > 0 };
  tellMerge(nb, name, report);
  merged.fire(result);
  return result;
}

/** Sets the file's mtime back to the one VS Code last read or wrote, so the next save is not refused. */
async function rebaseline(uri: vscode.Uri, base: Baseline, text: string): Promise<void> {
  const set = platform().setFileMtime;
  if (!set || uri.scheme !== 'file' || base.mtime === undefined) return;
  // Only while the file still holds what was merged: a newer write is merged (or refused) on its own event.
  const now = await readDisk(uri);
  if (now?.text === text) await set(uri.fsPath, base.mtime);
}

/**
 * An open dialog's file, watched: by VS Code's watcher and, for a local file, straight from the OS as well
 * (platform's watchLocalFile: ~100 ms sooner). Both report one write, often more than once: a check of the
 * file runs one at a time, and an event during one runs it once more after it, so a write merges once.
 */
interface Watched {
  subs: vscode.Disposable[];
  checking: boolean;
  again: boolean;
  /** Ends the wait of a check for an unreadable file to be written on. */
  wake?: () => void;
}
const watched = new Map<string, Watched>();

function changed(uri: vscode.Uri): void {
  const w = watched.get(uri.toString());
  if (!w) return;
  w.wake?.();
  if (w.checking) return void (w.again = true);
  w.checking = true;
  void (async () => {
    do {
      w.again = false;
      await onDiskChange(uri, w).catch((e) => log.error(`Merging the change on disk of ${uri.path}: ${String(e)}`));
    } while (w.again);
    w.checking = false;
  })();
}

/** Whether the file is written on (an event) within `ms`. */
function writtenWithin(w: Watched, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => ((w.wake = undefined), resolve(false)), ms);
    w.wake = () => (clearTimeout(timer), (w.wake = undefined), resolve(true));
  });
}

async function onDiskChange(uri: vscode.Uri, w: Watched): Promise<void> {
  const key = uri.toString();
  const nb = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === key && n.notebookType === NOTEBOOK_TYPE);
  const base = baselines.get(key);
  if (!nb || !base || Date.now() - (saving.get(key) ?? 0) < SAVE_WINDOW_MS) return;
  const disk = await readDisk(uri);
  if (!disk || disk.text === base.text) return;
  if (!nb.isDirty) {
    // VS Code reloads a clean dialog itself.
    baselines.set(key, disk);
    return;
  }
  // No fixed wait for a write to finish: a file written in pieces (or truncated first, so empty a moment)
  // does not read as a whole dialog until its last piece is in; each piece is an event.
  const empty = !disk.text.trim();
  const theirs = empty ? undefined : readTheirs(disk.text, nameOf(nb));
  if (!(theirs instanceof Dialog)) {
    // Maybe a write still under way: its next event checks the file again. Told only when it stays so.
    if ((await writtenWithin(w, UNREADABLE_WAIT_MS)) || (await readDisk(uri))?.text !== disk.text) return void (w.again = true);
    // Left empty: a dialog without messages, as VS Code shows it when it reloads one.
    if (empty) return merge(nb, base, disk, new Dialog());
    log.warn(`${nameOf(nb)} changed on disk but cannot be read as a dialog (${theirs}): not merged; the open dialog is as it was.`);
    void vscode.window.showWarningMessage(`${nameOf(nb)} changed on disk but cannot be read as a dialog (${theirs}). Your open dialog is as it was; saving it will ask before overwriting the file.`);
    return;
  }
  await merge(nb, base, disk, theirs);
}

async function merge(nb: vscode.NotebookDocument, base: Baseline, disk: { text: string; mtime: number }, theirs: Dialog): Promise<void> {
  const result = await mergeOutsideChange(nb, base, theirs);
  if (!result) return;
  baselines.set(nb.uri.toString(), { text: disk.text, mtime: base.mtime });
  readAhead(nb);
  if (result.edited) await rebaseline(nb.uri, base, disk.text);
}

export function registerOutsideChanges(context: vscode.ExtensionContext): void {
  const open = (nb: vscode.NotebookDocument) => {
    if (nb.notebookType !== NOTEBOOK_TYPE || nb.isUntitled) return;
    const key = nb.uri.toString();
    void takeBaseline(nb);
    if (watched.has(key)) return;
    const dir = vscode.Uri.joinPath(nb.uri, '..');
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, nb.uri.path.split('/').pop()!), true, false, true);
    const subs: vscode.Disposable[] = [w, w.onDidChange(changed), w.onDidCreate(changed)];
    const local = nb.uri.scheme === 'file' ? platform().watchLocalFile : undefined;
    if (local) subs.push(local(nb.uri.fsPath, () => changed(nb.uri)));
    watched.set(key, { subs, checking: false, again: false });
  };
  const forget = (key: string) => {
    watched.get(key)?.subs.forEach((s) => s.dispose());
    watched.delete(key);
  };
  vscode.workspace.notebookDocuments.forEach(open);
  context.subscriptions.push(
    vscode.workspace.onDidOpenNotebookDocument(open),
    vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && readAhead(e.notebook)),
    vscode.workspace.onWillSaveNotebookDocument((e) => void saving.set(e.notebook.uri.toString(), Date.now())),
    vscode.workspace.onDidSaveNotebookDocument((nb) => {
      const key = nb.uri.toString();
      void takeBaseline(nb).finally(() => saving.delete(key));
    }),
    vscode.workspace.onDidCloseNotebookDocument((nb) => {
      const key = nb.uri.toString();
      forget(key);
      baselines.delete(key);
    }),
    { dispose: () => [...watched.keys()].forEach(forget) },
  );
}
