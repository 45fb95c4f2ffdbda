// Other programs writing the file of an open dialog (an agent, dialoghelper, a script, git): what they
// changed comes into the open notebook at once, merged by message with what the notebook holds
// (core/threeway): base = the version of the file the writer started from, ours = the notebook, theirs =
// the file now. One WorkspaceEdit (one undo step); a message both changed keeps both versions, marked.
//
// - Our own saves are told by content (ownWrites.ts): a file holding a text our serializer made is ours.
// - A writer that read the file before our last save and wrote after it started from an older version:
//   the base is the version of the file it differs from least (core nearestVersion), so what we saved stays.
// - A clean dialog is reloaded by VS Code itself; an edit that comes first (VS Code then keeps the notebook
//   as it is) or no reload at all gets the change merged here instead. VS Code turns the file into cells
//   after it last checked the notebook's version, and an edit that reaches the notebook meanwhile is
//   replaced by the file's cells without making it dirty: such edits are put back (putBack).
// - Cells busy with a run, a streaming reply, a proposal or a tool call are left to their owner; what
//   theirs did to them waits and is merged when they are free.
// - A save first merges what is new on disk, then lets VS Code write: VS Code refuses a save over a file
//   whose mtime is later than the one it last read or wrote, and everything on disk is in the notebook by
//   then, so the file's mtime is set back to it or an earlier one (desktop only; the browser's save still asks).
// - The file is also read as each of its events comes (numbered in the order the reads start): a check that
//   comes late, under load, merges first the versions a later write replaced meanwhile (a program's write,
//   then a `git checkout`), unless the later one was written from them and carries their changes on.
// - Each file is checked one change at a time; a merge that cannot land is tried again a few times and
//   said in the log; nothing stops the next change from being merged.

import * as vscode from 'vscode';
import { DialogReadError, readIpynb } from '../../core/ipynb';
import { jsonEqual } from '../../core/base';
import { Dialog, Message } from '../../core/model';
import { MergeReport, describeMerge, mergeDialogs, messageDistance, nearestVersion, unsavedBase, waitingSides, writtenFrom } from '../../core/threeway';
import { NOTEBOOK_TYPE, notebookMetadataWith } from '../document/cells';
import { dialogOf } from '../document/dialogCache';
import { adoptRead, isFileRead, readOf } from '../document/origins';
import { applyRepaired, messageListEdit, queueEdit } from '../editing/edits';
import { isBusy } from '../editing/busyCells';
import { isStreaming } from '../document/streamingReplies';
import { keepTyping, typingIn } from '../editing/keepTyping';
import { isOwnWrite } from '../document/ownWrites';
import { platform } from '../platform';
import { log } from '../log';
import { tellMerge } from './conflictNotice';

/** A version of the file: its text and, read when needed, its dialog; its mtime when read as an event came. */
interface Version {
  text: string;
  dialog?: Dialog;
  mtime?: number;
}
type Disk = { text: string; mtime: number };

/** An open dialog's file, as this window knows it. */
interface Watched {
  uri: vscode.Uri;
  /** The file as the notebook holds it (loaded, saved, or merged in). */
  known: Version;
  /**
   * The earliest mtime the file has been seen with: VS Code's save check passes with the file at this one
   * or any earlier than the one VS Code last read or wrote, which a loaded machine does not let us know
   * for sure (a reload we took for VS Code's, a save participant VS Code gave up on). None: unknown.
   */
  mtime?: number;
  /** While a save waits for us: when VS Code stops waiting (holdMtime sets no time back after it). */
  saveBy?: number;
  /**
   * Recent versions of the file, oldest first, `known` last: where another writer may have started from.
   * The first holds the file as opened and always stays (`git checkout` puts it back).
   */
  history: Version[];
  /** What theirs did to busy messages, waiting for them to be free, and the timer that looks again. */
  waiting: { base: Dialog; theirs: Dialog; ids: string[] }[];
  polling?: ReturnType<typeof setTimeout>;
  /** The base's dialog is being read ahead of a change (while the notebook has unsaved edits). */
  readingAhead?: boolean;
  subs: vscode.Disposable[];
  /** The checks of the file, one after another; `queued`: one not started yet, which new events join. */
  chain: Promise<void>;
  queued?: Promise<void>;
  /** Ends the wait of a check for an unreadable file to be written on. */
  wake?: () => void;
  /**
   * The file reads the notebook has held; its dialog at its last change while VS Code could still reload
   * it (`last`: while it had no unsaved edits, or had them for a moment only); since when it has had
   * unsaved edits; when the file last changed on disk.
   */
  seen: { reads: Set<string>; last?: Dialog; dirtySince?: number; fileAt?: number; sample?: ReturnType<typeof setTimeout>; reloaded?: () => void };
  /**
   * The file as read when each of its events came, numbered in the order the reads started: under load a
   * check can come after a later write (a `git checkout`) has replaced a version, whose writer was told it
   * was written. `looked`: the latest mtime of a version a check has read (the file's time orders the
   * reads, which may see the file in another order than they started in).
   */
  early: { next: number; reads: { n: number; read: Promise<Disk | undefined>; again?: boolean }[]; looked: number };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const watched = new Map<string, Watched>();
/** How long an unreadable file is given to become readable before the user is told. */
const UNREADABLE_WAIT_MS = 300;
/** How long VS Code is given to reload a clean dialog (slow on a loaded machine) before the change is merged here. */
const RELOAD_WAIT_MS = 30000;
/** How long VS Code waits for a save participant (1.75 s), less a margin for the time setting itself. */
const SAVE_WAIT_MS = 1500;
/** Versions kept for finding where another writer started from. */
const HISTORY = 6;
/** Tries of a merge edit VS Code refuses, and the pause before the next. */
const TRIES = 3;
const RETRY_MS = 200;
const CHANGED = 'changed on disk';
/** How often messages that theirs changed while they were busy are looked at again. */
const WAITING_POLL_MS = 500;
/** When the dirty state is looked at again after a change (it reaches the extension host after the change). */
const DIRTY_SAMPLE_MS = 100;
/**
 * VS Code checks a clean notebook's version before it reads the changed file, and resets the notebook to it
 * after: an edit in between makes the notebook dirty a moment before the reset takes it away. A reset that
 * comes this soon after the notebook turned dirty, with the file changed meanwhile, is such a reload, not a
 * revert the user asked for.
 */
const RELOAD_RACE_MS = 3000;
/** Whether VS Code could still be reloading the notebook over its unsaved edits (none, or made a moment ago). */
const mayReload = (w: Watched): boolean => w.seen.dirtySince === undefined || Date.now() - w.seen.dirtySince < RELOAD_RACE_MS;

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

const nameOf = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

function dialogOfVersion(v: Version, name: string): Dialog {
  if (!v.dialog) {
    try {
      v.dialog = v.text.trim() ? readIpynb(v.text, name) : new Dialog();
    } catch {
      v.dialog = new Dialog(); // a version that does not read: all of theirs is new against it
    }
  }
  return v.dialog;
}

/** `v` is what the notebook holds of the file now; `mtime` one VS Code may remember of it, when known. */
function adopt(w: Watched, v: Version, mtime: number | undefined): void {
  w.known = v;
  if (mtime !== undefined) w.mtime = Math.min(w.mtime ?? mtime, mtime);
  const [opened, ...rest] = w.history;
  w.history = opened && opened.text !== v.text ? [opened, ...rest.filter((h) => h.text !== v.text), v] : [v, ...rest.filter((h) => h.text !== v.text)];
  if (w.history.length > HISTORY) w.history.splice(1, 1);
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

/** The cells of `nb` busy with an owner's work (outsideChanges leaves them as they are). */
const busyCell = (c: vscode.NotebookCell) => isBusy(c) || isStreaming(c);

/**
 * Merges what `theirs` changed since `base` into the open notebook, as one edit made in the dialog's turn
 * of edits. Undefined when VS Code refused the edit (the notebook is as it was).
 */
async function mergeInto(nb: vscode.NotebookDocument, base: Dialog, theirs: Dialog, read?: string): Promise<(OutsideMerge & { report: MergeReport }) | 'reread' | undefined> {
  return queueEdit(nb, async () => {
    // VS Code reloaded the notebook since the change was looked at: it holds another file now.
    if (read !== undefined && readOf(nb) !== read) return 'reread';
    const d = dialogOf(nb); // shared with the views: the merge changes none of its messages
    const busy = new Set<Message>();
    nb.getCells().forEach((c, i) => busyCell(c) && busy.add(d.messages[i]));
    const { dialog, report } = mergeDialogs(base, d, theirs, { keep: (m) => busy.has(m), asRead: [base, theirs] });
    const token = (theirs.origin as { file?: unknown } | undefined)?.file;
    if (typeof token === 'string') adoptRead(nb, token);
    const meta = jsonEqual(dialog.meta, d.meta) ? [] : [vscode.NotebookEdit.updateNotebookMetadata(notebookMetadataWith(nb, dialog.meta))];
    // An edited message is written into its cell's document, which VS Code finds wherever the cell stands.
    const made = messageListEdit(nb, d.messages, dialog.messages, new Set(), meta);
    const edited = !made.empty;
    if (edited) {
      const typing = typingIn(nb);
      if (!(await applyRepaired(nb, made))) return undefined;
      void keepTyping(nb, typing);
    }
    return { uri: nb.uri.toString(), said: describeMerge(report), conflicts: report.conflicts, edited, report };
  });
}

/** Merges with a few tries; says what came in. Undefined when it could not land (the log says so). */
async function mergeTold(nb: vscode.NotebookDocument, base: Dialog, theirs: Dialog, what: string, read?: string): Promise<(OutsideMerge & { report: MergeReport }) | 'reread' | undefined> {
  const name = nameOf(nb.uri);
  for (let t = 1; t <= TRIES; t++) {
    if (nb.isClosed) return undefined;
    const r = await mergeInto(nb, base, theirs, read);
    if (r === 'reread') return r;
    if (r) {
      if (r.said && what !== CHANGED) log.info(`${name} ${what}.`);
      tellMerge(nb, name, r.report);
      merged.fire({ uri: r.uri, said: r.said, conflicts: r.conflicts, edited: r.edited });
      return r;
    }
    log.warn(`${name} ${what}: VS Code refused the merge edit (try ${t} of ${TRIES}).`);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS * t));
  }
  log.warn(`${name} ${what}: not merged; the open dialog is as it was. The next change on disk is merged as usual.`);
  return undefined;
}

/** Keeps what theirs did to busy messages, and merges it once they are free. */
function wait(nb: vscode.NotebookDocument, w: Watched, base: Dialog, theirs: Dialog, ids: string[]): void {
  log.info(`${nameOf(nb.uri)}: ${ids.length} message(s) changed on disk while busy (running, streaming, or being changed by a tool or Edit with AI): merged when they are free.`);
  // A newer change to a message replaces an older one still waiting.
  for (const e of w.waiting) e.ids = e.ids.filter((id) => !ids.includes(id));
  w.waiting = [...w.waiting.filter((e) => e.ids.length), { base, theirs, ids }];
  poll(nb, w);
}

/** Looks at the waiting messages again in a while, until none waits. */
function poll(nb: vscode.NotebookDocument, w: Watched): void {
  if (w.polling || !w.waiting.length) return;
  w.polling = setTimeout(() => {
    w.polling = undefined;
    if (nb.isClosed) return;
    void queueCheck(w, async () => {
      for (const e of w.waiting) {
        const busy = new Set(nb.getCells().flatMap((c) => (busyCell(c) ? [dialogOf(nb).messages[c.index]?.id] : [])));
        const free = e.ids.filter((id) => !busy.has(id));
        if (!free.length) continue;
        const sides = waitingSides(dialogOf(nb), e.base, e.theirs, free);
        const r = await mergeTold(nb, sides.base, sides.theirs, 'changed on disk while busy, now merged');
        if (r && r !== 'reread') e.ids = e.ids.filter((id) => !free.includes(id) || r.report.waiting.includes(id));
      }
      w.waiting = w.waiting.filter((e) => e.ids.length);
      poll(nb, w);
    });
  }, WAITING_POLL_MS);
}

/** Runs `fn` after the file's earlier checks. */
function queueCheck(w: Watched, fn: () => Promise<void>): Promise<void> {
  const run = w.chain.then(fn).catch((e) => log.error(`Merging the change on disk of ${w.uri.path}: ${String(e)}`));
  w.chain = run;
  return run;
}

/** The file changed (or may have): one check, joined by the events that come before it starts. */
function changed(w: Watched): Promise<void> {
  w.wake?.();
  if (w.queued) return w.queued;
  const run = queueCheck(w, async () => {
    w.queued = undefined;
    await check(w);
  });
  w.queued = run;
  return run;
}

/** Whether the file is written on (an event) within `ms`. */
function writtenWithin(w: Watched, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => ((w.wake = undefined), resolve(false)), ms);
    w.wake = () => (clearTimeout(timer), (w.wake = undefined), resolve(true));
  });
}

const openNotebook = (uri: vscode.Uri) => vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString() && n.notebookType === NOTEBOOK_TYPE);

/** The dialog in the file's new text; the reason when it does not read as one. */
function readTheirs(text: string, name: string): Dialog | string {
  try {
    return readIpynb(text, name);
  } catch (e) {
    return e instanceof DialogReadError ? e.message.split('\n', 1)[0] : String(e);
  }
}

/** Reads the file as its event comes, for the next check (it may have been replaced by then). */
function readEarly(w: Watched): void {
  const n = ++w.early.next;
  w.early.reads.push({ n, read: readDisk(w.uri) });
}

/**
 * The versions of the file that were on disk when an event came, in order, that a later write replaced
 * before this check read `now` (its read numbered `n`): the reads started before it are waited for.
 */
async function replacedBefore(w: Watched, n: number, now: Disk): Promise<Version[]> {
  const mine = w.early.reads.filter((r) => r.n < n);
  w.early.reads = w.early.reads.filter((r) => r.n > n);
  const read = await Promise.all(mine.map(async (r) => ({ disk: await r.read, again: r.again })));
  // A version no later than one a check has read already is not newer: a read that saw the file late. One
  // with the time holdMtime sets is not that: a write that landed as the time was set back.
  const held = (d: Disk) => w.mtime !== undefined && Math.abs(d.mtime - w.mtime) < 1;
  const newer = read.flatMap((r) => (r.disk && (r.again || r.disk.mtime > w.early.looked || held(r.disk)) ? [r.disk] : [])).sort((a, b) => a.mtime - b.mtime);
  w.early.looked = Math.max(w.early.looked, now.mtime, ...newer.map((d) => d.mtime));
  const out: Version[] = [];
  for (const d of newer) {
    if (d.text === now.text || d.text === (out.at(-1)?.text ?? w.known.text)) continue;
    out.push({ text: d.text, mtime: d.mtime });
  }
  return out;
}

/** Checks the file again, with the versions a later write replaced that are still to be merged. */
function lookAgain(w: Watched, replaced: Version[]): void {
  w.early.reads.unshift(...replaced.map((r) => ({ n: 0, read: Promise.resolve({ text: r.text, mtime: r.mtime ?? 0 }), again: true })));
  void changed(w);
}

/**
 * Of the versions a later write replaced, those whose changes the next version does not carry on: a
 * version the next one was written from is merged with it (a program's write after write), one the next
 * did not start from (a `git checkout` after a program's write) on its own first.
 */
function notCarriedOn(w: Watched, replaced: Version[], now: Dialog | undefined): Version[] {
  const name = nameOf(w.uri);
  const known = w.history.map((h) => dialogOfVersion(h, name));
  return replaced.filter((v, k) => {
    const next = k + 1 < replaced.length ? replaced[k + 1].dialog : now;
    if (!next || isOwnWrite(v.text)) return true;
    return !writtenFrom(known, v.dialog!, next);
  });
}

/** For a clean notebook: whether VS Code reloads it ('reloaded'), or an edit comes first or nothing does. */
function reloadOrEdit(nb: vscode.NotebookDocument, w: Watched): Promise<'reloaded' | 'edited' | 'neither'> {
  return new Promise((resolve) => {
    const done = (r: 'reloaded' | 'edited' | 'neither') => (sub.dispose(), clearTimeout(timer), (w.seen.reloaded = undefined), resolve(r));
    // Told by followReads, which sees the file's new read on the notebook's cells.
    w.seen.reloaded = () => done('reloaded');
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook === nb && nb.isDirty && done('edited'));
    const timer = setTimeout(() => done('neither'), RELOAD_WAIT_MS);
  });
}

async function check(w: Watched): Promise<void> {
  const nb = openNotebook(w.uri);
  if (!nb) return;
  const read = readOf(nb);
  const n = ++w.early.next;
  const disk = await readDisk(w.uri);
  if (!disk) return;
  const name = nameOf(w.uri);
  const early = (await replacedBefore(w, n, disk)).flatMap((v) => {
    if (isOwnWrite(v.text)) return [v];
    const d = readTheirs(v.text, name);
    return d instanceof Dialog ? [{ ...v, dialog: d }] : []; // a write caught half done
  });
  if (disk.text === w.known.text && !early.length) return;
  if (isOwnWrite(disk.text)) {
    if (await mergeReplaced(nb, w, early, read)) adopt(w, { text: disk.text }, disk.mtime); // our save
    return;
  }
  // No fixed wait for a write to finish: a file written in pieces (or truncated first, so empty a moment)
  // does not read as a whole dialog until its last piece is in; each piece is an event.
  const empty = !disk.text.trim();
  let theirs = empty ? undefined : readTheirs(disk.text, name);
  if (!(theirs instanceof Dialog)) {
    // Maybe a write still under way: its next event checks the file again. Told only when it stays so.
    if ((await writtenWithin(w, UNREADABLE_WAIT_MS)) || (await readDisk(w.uri))?.text !== disk.text) return lookAgain(w, early);
    if (!empty) {
      log.warn(`${name} changed on disk but cannot be read as a dialog (${theirs}): not merged; the open dialog is as it was.`);
      void vscode.window.showWarningMessage(`${name} changed on disk but cannot be read as a dialog (${theirs}). Your open dialog is as it was; saving it will ask before overwriting the file.`);
      return;
    }
    theirs = new Dialog(); // left empty: a dialog without messages, as VS Code shows it when it reloads one
  }
  const version: Version = { text: disk.text, dialog: theirs };
  const replaced = notCarriedOn(w, early, theirs);
  if (!nb.isDirty && messageDistance(dialogOf(nb), theirs) === 0) return reloaded(nb, w, version, disk.mtime, replaced);
  if (!nb.isDirty) {
    const r = await reloadOrEdit(nb, w);
    if (r === 'reloaded') return reloaded(nb, w, version, disk.mtime, replaced);
    log.info(`${name} changed on disk; ${r === 'edited' ? 'an edit came before VS Code reloaded it' : 'VS Code did not reload it'}: merged here.`);
  }
  if ((await mergeReplaced(nb, w, replaced, read)) && (await mergeVersion(nb, w, version, CHANGED, read)) === 'reread') void changed(w);
}

/**
 * Merges, in order, the versions a later write replaced before the check (our own saves among them are
 * only taken as known). False when VS Code reloaded the notebook meanwhile: they are looked at again with
 * the file as it is then.
 */
async function mergeReplaced(nb: vscode.NotebookDocument, w: Watched, replaced: Version[], read: string | undefined): Promise<boolean> {
  for (const [k, v] of replaced.entries()) {
    if (isOwnWrite(v.text)) {
      adopt(w, v, undefined);
      continue;
    }
    log.info(`${nameOf(w.uri)}: a version on disk that a later write replaced at once is merged too.`);
    if ((await mergeVersion(nb, w, v, CHANGED, read)) === 'reread') {
      lookAgain(w, replaced.slice(k));
      return false;
    }
  }
  return true;
}

/** The known version a file's writer started from: the one `theirs` differs from least (core nearestVersion). */
function startedFrom(w: Watched, theirs: Dialog): { version: Version; dialog: Dialog } | undefined {
  const dialogs = w.history.map((h) => dialogOfVersion(h, nameOf(w.uri)));
  const at = nearestVersion(dialogs, theirs);
  return at >= 0 ? { version: w.history[at], dialog: dialogs[at] } : undefined;
}

/**
 * VS Code reloaded the clean notebook with `v`. A file written from an earlier version than the notebook
 * held (a write that raced our save, a `git checkout`) would so take back what was saved since: that
 * comes back in, merged from the version the file started from. So do the `replaced` versions, which were
 * on disk a moment before `v` (their writers were told they were written).
 */
async function reloaded(nb: vscode.NotebookDocument, w: Watched, v: Version, mtime: number, replaced: Version[] = []): Promise<void> {
  const name = nameOf(w.uri);
  const held = w.known;
  let holds = held.text ? dialogOfVersion(held, name) : undefined;
  for (const r of replaced) {
    const base = startedFrom(w, dialogOfVersion(r, name))?.dialog ?? new Dialog();
    holds = holds && !isOwnWrite(r.text) ? mergeDialogs(base, holds, r.dialog!).dialog : dialogOfVersion(r, name);
    adopt(w, r, undefined);
  }
  const last = w.known;
  const from = startedFrom(w, v.dialog!);
  adopt(w, { text: v.text }, mtime);
  if (!from || from.version === last || !holds) return;
  log.info(`${name} was written from an earlier version of the file than the one open here; what was saved since is kept.`);
  const r = await mergeTold(nb, from.dialog, holds, 'reloaded from disk, then what it took back merged in');
  if (r && r !== 'reread' && r.edited) await holdMtime(w);
}

/**
 * The file reads VS Code put into the notebook: its own, and the one its first and last cells share (VS Code
 * reloads a file without changing the notebook's metadata when only our bookkeeping in it differs, but
 * every cell it keeps or puts there carries the new read).
 */
function heldReads(nb: vscode.NotebookDocument): string[] {
  const own = readOf(nb);
  const first = nb.cellCount ? readOf(nb.cellAt(0)) : undefined;
  const cells = first !== undefined && first === readOf(nb.cellAt(nb.cellCount - 1)) ? first : undefined;
  return [own, cells].filter(isFileRead);
}

/**
 * VS Code reloaded the clean notebook, which held `held`: edits that reached it while VS Code read the
 * file (it checks the notebook's version before, not after) are in `held` only. What no version of the
 * file held comes back in (core unsavedBase), as the writers that made those edits were told.
 */
async function putBack(nb: vscode.NotebookDocument, w: Watched, held: Dialog): Promise<void> {
  if (nb.isClosed) return;
  const base = unsavedBase(held, dialogOf(nb), w.history.map((h) => dialogOfVersion(h, nameOf(w.uri))));
  if (messageDistance(base, held) === 0) return;
  log.info(`${nameOf(w.uri)}: VS Code reloaded it from disk while edits were on their way; those edits are put back.`);
  await mergeTold(nb, base, held, 'reloaded from disk, then the edits made meanwhile put back');
}

/** Merges `v` (read from disk) from the version it started from; the notebook now holds the file. */
async function mergeVersion(nb: vscode.NotebookDocument, w: Watched, v: Version, what: string, read: string | undefined): Promise<'reread' | undefined> {
  const name = nameOf(w.uri);
  const theirs = v.dialog!;
  const from = startedFrom(w, theirs);
  const base = from?.dialog ?? new Dialog();
  if (from && from.version !== w.history[w.history.length - 1]) log.info(`${name} ${what}: it was written from an earlier version of the file than the last one here; merged from that one, so nothing since is taken back.`);
  const r = await mergeTold(nb, base, theirs, what, read);
  // Reloaded by VS Code meanwhile (an edit did not stop it): looked at again (by the caller), as the notebook is now.
  if (r === 'reread') return r;
  if (!r) return;
  // Read again when needed: the merge took theirs's messages over (a conflict copy is re-id'd and marked).
  adopt(w, { text: v.text }, undefined);
  if (r.report.waiting.length) wait(nb, w, base, theirs, r.report.waiting);
  if (r.edited) await holdMtime(w);
  return undefined;
}

/**
 * Sets the file's mtime back to the earliest it has been seen with, while it holds what the notebook does.
 * While a save waits for us, only until `saveBy`: after it VS Code has stopped waiting and may be saving
 * already, and a write landing now would pass for the merged file and be saved over; the save is refused
 * instead.
 */
async function holdMtime(w: Watched): Promise<void> {
  const set = platform().setFileMtime;
  if (!set || w.uri.scheme !== 'file' || w.mtime === undefined) return;
  // Only while the file still holds what was merged: a newer write is merged (or refused) on its own event.
  const now = await readDisk(w.uri);
  if (now?.text !== w.known.text || now.mtime <= w.mtime || Date.now() > (w.saveBy ?? Infinity)) return;
  await set(w.uri.fsPath, w.mtime);
  // A write that landed between the read and the setting would pass for the merged file and be saved
  // over: it gets its own time back, so VS Code refuses the save and the write's event merges it. Not
  // VS Code's own save (it went ahead when it stopped waiting for us): that time, later than the one VS
  // Code recorded, would refuse every save after it, auto save's included, and a dialog whose editor
  // closed would stay open, modified, for good.
  const after = await readDisk(w.uri);
  if (after && after.text !== w.known.text && !isOwnWrite(after.text)) await set(w.uri.fsPath, Math.max(after.mtime, now.mtime, Date.now()));
}

/** Before a save: what is new on disk is merged first, so the save writes it too and is not refused. */
async function beforeSave(nb: vscode.NotebookDocument): Promise<void> {
  const w = watched.get(nb.uri.toString());
  if (!w) return;
  w.saveBy = Date.now() + SAVE_WAIT_MS;
  try {
    await changed(w);
    await queueCheck(w, () => holdMtime(w));
  } finally {
    w.saveBy = undefined;
  }
}

export function registerOutsideChanges(context: vscode.ExtensionContext): void {
  const open = (nb: vscode.NotebookDocument) => {
    if (nb.notebookType !== NOTEBOOK_TYPE || nb.isUntitled) return;
    const key = nb.uri.toString();
    if (watched.has(key)) return;
    const fsw = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(nb.uri, '..'), nameOf(nb.uri)), true, false, true);
    const w: Watched = { uri: nb.uri, known: { text: '' }, history: [], waiting: [], subs: [], chain: Promise.resolve(), seen: { reads: new Set(heldReads(nb)) }, early: { next: 0, reads: [], looked: 0 } };
    const onFile = () => ((w.seen.fileAt = Date.now()), readEarly(w), changed(w));
    w.subs.push(fsw, fsw.onDidChange(onFile), fsw.onDidCreate(onFile));
    // Straight from the OS as well, for a local file: ~100 ms before VS Code's watcher. Both report one write.
    const local = nb.uri.scheme === 'file' ? platform().watchLocalFile : undefined;
    if (local) w.subs.push(local(nb.uri.fsPath, onFile));
    watched.set(key, w);
    // The file as opened: the first check of the file, before any change is looked at.
    void queueCheck(w, async () => {
      const disk = await readDisk(nb.uri);
      if (disk) adopt(w, { text: disk.text }, disk.mtime);
    });
  };
  const forget = (key: string) => {
    const w = watched.get(key);
    if (w?.polling) clearTimeout(w.polling);
    if (w?.seen.sample) clearTimeout(w.seen.sample);
    w?.subs.forEach((s) => s.dispose());
    watched.delete(key);
  };
  /** Reads the base of a dialog with unsaved edits ahead of a change on disk, out of the way of typing. */
  const readAhead = (nb: vscode.NotebookDocument) => {
    const w = watched.get(nb.uri.toString());
    if (!w || !nb.isDirty || w.known.dialog || w.readingAhead) return;
    w.readingAhead = true;
    setTimeout(() => {
      w.readingAhead = false;
      if (watched.get(nb.uri.toString()) === w) dialogOfVersion(w.known, nameOf(w.uri));
    }, 1000);
  };
  /**
   * Follows the file reads the notebook holds: a new one while it had no unsaved edits, or had them for a
   * moment only while the file changed (RELOAD_RACE_MS), is VS Code's reload; otherwise a revert the user
   * asked for. The dirty state comes after the edit's event, so it is looked at again a moment later.
   */
  const followReads = (e: vscode.NotebookDocumentChangeEvent) => {
    const nb = e.notebook;
    const w = watched.get(nb.uri.toString());
    if (!w) return;
    const fresh = heldReads(nb).filter((r) => !w.seen.reads.has(r));
    const held = w.seen.last;
    const since = w.seen.dirtySince;
    const reload = mayReload(w) && (since === undefined || (w.seen.fileAt ?? -Infinity) >= since - RELOAD_RACE_MS);
    if (fresh.length && held && reload && e.contentChanges.length) void queueCheck(w, () => putBack(nb, w, held));
    fresh.forEach((r) => w.seen.reads.add(r));
    if (fresh.length) w.seen.reloaded?.();
    const look = () => {
      if (!nb.isDirty) w.seen.dirtySince = undefined;
      else w.seen.dirtySince ??= Date.now();
      w.seen.last = mayReload(w) ? dialogOf(nb) : undefined;
    };
    look();
    if (w.seen.sample) clearTimeout(w.seen.sample);
    w.seen.sample = setTimeout(() => !nb.isClosed && w.seen.last && look(), DIRTY_SAMPLE_MS);
  };
  vscode.workspace.notebookDocuments.forEach(open);
  context.subscriptions.push(
    vscode.workspace.onDidOpenNotebookDocument(open),
    vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && (followReads(e), readAhead(e.notebook))),
    vscode.workspace.onWillSaveNotebookDocument((e) => e.notebook.notebookType === NOTEBOOK_TYPE && e.waitUntil(beforeSave(e.notebook))),
    // The save's own write: adopted when its event comes, and looked at once more here in case none does.
    vscode.workspace.onDidSaveNotebookDocument((nb) => void (watched.get(nb.uri.toString()) && changed(watched.get(nb.uri.toString())!))),
    vscode.workspace.onDidCloseNotebookDocument((nb) => forget(nb.uri.toString())),
    { dispose: () => [...watched.keys()].forEach(forget) },
  );
}
