// "Find Messages": a quick pick over the active dialog, searched with the core `findMsgs` as you type.
// Query syntax: plain text, or `/regex/`; `type:prompt` (code, note, raw) tokens filter by type.

import * as vscode from 'vscode';
import { Dialog, isMsgType } from '../../core/model';
import { findMsgs, FindOptions } from '../../core/surgery';
import { firstLine } from '../../core/outline';
import { typeIcon } from '../../shared/outlineView';
import { aiRes } from '../../core/model';
import { refuse } from './feedback';
import { activeDialog, selectCells } from './target';
import { dialogOf } from '../document/dialogCache';

export interface FindItem extends vscode.QuickPickItem {
  index: number;
  id: string;
}

/** The find options a query stands for. */
export function parseQuery(query: string): FindOptions {
  const types: string[] = [];
  const rest = query.replace(/(?:^|\s)type:(\w+)/g, (all, t: string) => {
    if (isMsgType(t)) types.push(t);
    return all.startsWith(' ') ? ' ' : '';
  }).trim();
  const re = /^\/(.*)\/$/s.exec(rest);
  return { pattern: re ? re[1] : rest, useRegex: !!re, msgType: types.length ? types : undefined, context: 0 };
}

/** Why the query's `/regex/` is invalid (the core would search it as plain text), else undefined. */
export function invalidRegex(query: string): string | undefined {
  const o = parseQuery(query);
  if (!o.useRegex) return undefined;
  try {
    new RegExp(o.pattern ?? '', 'ims');
    return undefined;
  } catch (e) {
    return `Invalid regular expression /${o.pattern}/: ${(e as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /, '')}`;
  }
}

/** A reply's first line of real text: replies often open with a row of 🧠 (thinking) markers. */
export function replyPreview(reply: string): string {
  return firstLine(reply.replace(/^[\s🧠]*🧠[\s🧠]*$/gmu, ''));
}

/** The picker's rows for `query`; an invalid `/regex/` gives one row saying so, not the matches of its text. */
export function findItems(d: Dialog, query: string): FindItem[] {
  const invalid = invalidRegex(query);
  if (invalid) return [{ label: `$(error) ${invalid}`, alwaysShow: true, index: -1, id: '' }];
  const res = findMsgs(d, parseQuery(query));
  return res.msgs.map((m) => ({
    label: `$(${typeIcon(m.msgType)}) ${firstLine(m.content) || '(empty)'}`,
    description: `${m.msgType} ${m.id}`,
    detail: m.msgType === 'prompt' && aiRes(m) ? `↳ ${replyPreview(aiRes(m))}` : undefined,
    // VS Code's own fuzzy filter must not hide what findMsgs matched.
    alwaysShow: true,
    index: d.messages.indexOf(m),
    id: m.id,
  }));
}

/** Opens the picker; with `query` given (scripts, tests) reveals the first match without asking. */
export async function findMessages(arg?: { query?: string } | unknown): Promise<FindItem | undefined> {
  const nb = activeDialog();
  if (!nb) {
    refuse('Open a dialog to search its messages.');
    return undefined;
  }
  const d = dialogOf(nb);
  const given = arg && typeof arg === 'object' && typeof (arg as { query?: unknown }).query === 'string' ? (arg as { query: string }).query : undefined;
  if (given !== undefined) {
    const invalid = invalidRegex(given);
    if (invalid) {
      refuse(invalid);
      return undefined;
    }
    const hit = findItems(d, given)[0];
    if (hit) selectCells(nb, hit.index);
    else refuse(`No message matches ${JSON.stringify(given)}.`);
    return hit;
  }
  const qp = vscode.window.createQuickPick<FindItem>();
  qp.placeholder = 'Find messages: text, /regex/, type:prompt|code|note|raw';
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  const update = () => {
    qp.items = findItems(d, qp.value);
  };
  update();
  qp.onDidChangeValue(update);
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      const hit = qp.selectedItems[0];
      if (hit && hit.index < 0) return; // the invalid-regex row: keep the picker open to fix the query
      // VS Code names the accepted row by its place in the list the window showed; a click on a list the
      // typing has since replaced names a place we no longer have: keep the picker open, showing the new list.
      if (!hit && qp.items.length) return;
      if (hit) selectCells(nb, hit.index);
      qp.hide();
      resolve(hit);
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(undefined);
    });
    qp.show();
  });
}

export function registerFindCommand(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand('dialogNotebook.findMessages', findMessages));
}
