// Dialog: Fork Here: a new dialog file beside the original holding its history up to the selected
// message (all of it, or the first k and last n), its lineage in its own metadata, opened at once. The
// parent is only read; an existing file is overwritten only when the user says so.

import * as vscode from 'vscode';
import { defaultForkPath, forkDialog } from '../../core/fork';
import { writeIpynb } from '../../core/ipynb';
import { explodedFrom, savedDialog } from '../../core/reply';
import { dialogOf } from '../document/dialogCache';
import { CommandResult, reason, refuse } from '../commands/feedback';
import { named } from '../commands/named';
import { NO_TARGET, commandTarget } from '../commands/target';
import { log } from '../log';
import { LineageIndex } from './lineageIndex';
import { openDialogAt } from './openAt';

/** Answers to the questions Fork Here asks; each one given is not asked (tests, other commands). */
export interface ForkHereOptions {
  /** The fork's file (a uri or uri string); asked, with a free `name.fork-N.ipynb` beside the parent, when absent. */
  target?: vscode.Uri | string;
  /** Keep the whole history up to the message; with `lastN`, only the first `firstK` (default 1) and last `lastN`. */
  whole?: boolean;
  firstK?: number;
  lastN?: number;
  /** Whether to overwrite a target that exists. */
  overwrite?: boolean;
  /** Whether to save a dialog with unsaved changes first (false forks what the editor shows). */
  save?: boolean;
  /** Fork and Rerun: clear the forked prompt's reply and run it again in the fork. */
  rerun?: boolean;
}

export type ForkResult = CommandResult & { uri?: vscode.Uri };

const name = (uri: vscode.Uri) => uri.path.replace(/^.*\//, '');
const dirOf = (uri: vscode.Uri) => vscode.Uri.joinPath(uri, '..');
const cancelled = (why: string): ForkResult => {
  log.info(`fork: ${why}`);
  return { ok: false, message: why };
};

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The fork's file: the given one, else a name asked for (relative to the parent's folder). */
async function askTarget(parent: vscode.Uri): Promise<vscode.Uri | undefined> {
  const dir = dirOf(parent);
  const siblings = (await vscode.workspace.fs.readDirectory(dir).then(undefined, () => [])).map(([n]) => n);
  const suggested = name(parent.with({ path: defaultForkPath(parent.path, siblings) }));
  const value = await vscode.window.showInputBox({
    title: `Fork ${name(parent)}`,
    prompt: 'File name of the fork, beside the dialog',
    value: suggested,
    valueSelection: [0, suggested.length - '.ipynb'.length],
    validateInput: (v) => (!/\S\.ipynb$/i.test(v.trim()) ? 'A dialog file name ending in .ipynb' : undefined),
  });
  return value === undefined ? undefined : vscode.Uri.joinPath(dir, value.trim());
}

const countInput = (title: string, value: string, min: number) =>
  vscode.window.showInputBox({
    title,
    value,
    validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) >= min ? undefined : `A whole number ≥ ${min}`),
  });

/** `{}` for the whole history, `{firstK, lastN}` for a cut one, undefined when cancelled. */
async function askRange(o: ForkHereOptions): Promise<{ firstK?: number; lastN?: number } | undefined> {
  if (o.lastN !== undefined) return { firstK: o.firstK, lastN: o.lastN };
  if (o.whole) return {};
  const whole = 'Whole history up to here';
  const pick = await vscode.window.showQuickPick([whole, 'First k and last n messages…'], { title: 'What the fork keeps' });
  if (pick === undefined) return undefined;
  if (pick === whole) return {};
  const k = await countInput('Fork: keep the first k messages', '1', 0);
  if (k === undefined) return undefined;
  const n = await countInput('Fork: and the last n messages up to here', '5', 1);
  return n === undefined ? undefined : { firstK: Number(k), lastN: Number(n) };
}

export async function forkHere(index: LineageIndex, arg?: unknown, o: ForkHereOptions = {}): Promise<ForkResult> {
  const t = commandTarget(arg);
  if (!t || t.focus < 0) return refuse(NO_TARGET);
  const { nb } = t;
  if (nb.isUntitled) return refuse('Save the dialog before forking it: a fork records the file it came from.');
  if (nb.isDirty) {
    const yes = 'Save and Fork';
    const save =
      o.save ??
      (await vscode.window
        .showWarningMessage(`${name(nb.uri)} has unsaved changes. Save it first, so the file the fork records as its parent holds the message it is split at?`, { modal: true }, yes, 'Fork Without Saving')
        .then((a) => (a === undefined ? undefined : a === yes)));
    if (save === undefined) return cancelled('cancelled');
    // VS Code cancels a save when the extension host misses its save participants' deadline (a busy
    // machine): the second attempt usually goes through.
    if (save && !(await nb.save()) && !(await nb.save())) return refuse(`Could not save ${name(nb.uri)}; nothing was forked.`);
  }
  const d = dialogOf(nb);
  const m = d.messages[t.focus];
  // An exploded part is the reply of its prompt: the fork is made at the prompt.
  const at = explodedFrom(m) ?? m.id;

  const target = o.target !== undefined ? (typeof o.target === 'string' ? vscode.Uri.parse(o.target) : o.target) : await askTarget(nb.uri);
  if (!target) return cancelled('cancelled');
  if (target.toString() === nb.uri.toString()) return refuse('A fork never overwrites the dialog it is forked from: choose another name.');
  if (await exists(target)) {
    const yes = 'Overwrite';
    const overwrite = o.overwrite ?? (await vscode.window.showWarningMessage(`${name(target)} already exists. Overwrite it with the fork?`, { modal: true }, yes)) === yes;
    if (!overwrite) return cancelled(`${name(target)} exists and was not overwritten`);
  }
  const range = await askRange(o);
  if (!range) return cancelled('cancelled');

  let text: string;
  let last: { index: number; id: string };
  try {
    const fork = forkDialog(savedDialog(d), at, { parentPath: nb.uri.path, forkPath: target.path, time: new Date().toISOString(), clearReply: o.rerun, ...range });
    text = writeIpynb(fork);
    last = { index: fork.messages.length - 1, id: fork.messages[fork.messages.length - 1].id };
  } catch (e) {
    return refuse(named(reason(e), d));
  }
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  } catch (e) {
    return refuse(`Could not write ${name(target)}: ${reason(e)}`);
  }
  index.invalidate();
  const message = `Forked ${name(nb.uri)} at ${at} into ${name(target)}`;
  log.info(message);
  const opened = await openDialogAt(target, last.index, last.id);
  // The prompt runs through the Dialog controller, as if its ▶ were clicked in the fork.
  if (o.rerun && opened) void vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: last.index, end: last.index + 1 }], document: opened.uri });
  return { ok: true, message, uri: target };
}
