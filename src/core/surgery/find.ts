// `findMsgs` (surgery.md "Search"): filter a dialog's messages, widen each match by context rows.

import { exported } from '../model/directives';
import { Dialog, DialogError, Message, MsgType } from '../model/dialog';
import { aiRes, hasError } from '../model/outputs';
import { preview } from '../model/preview';
import { pyRstrip, pyStrip } from '../python/text';
import { headerLevel, sectionMsgs } from '../model/sections';
import { MsgRef, resolveMsg, splitIds } from './edit';

export interface FindOptions {
  /** Regex (JS syntax); an invalid one is searched as a literal. Empty matches everything. */
  pattern?: string;
  msgType?: MsgType | string | (MsgType | string)[];
  onlyErr?: boolean;
  onlyExp?: boolean;
  /** Comma-separated string or list; each resolved (exact or unique prefix) against the whole dialog. */
  ids?: string | MsgRef[];
  before?: number;
  after?: number;
  /** Defaults to 1 (0 with `headersOnly`); a non-zero context overrides before/after. */
  context?: number | null;
  limit?: number | null;
  useCase?: boolean;
  useRegex?: boolean;
  headersOnly?: boolean;
  headerSection?: string | null;
  pred?: ((m: Message) => boolean) | null;
}

const POSITION_REFUSED =
  'Find results include context rows, so a position may hold a neighbour of the match: index by message id (exact or unique prefix), e.g. ';

/** The matches plus their context rows, in dialog order; index by id only. */
export class FindResult {
  constructor(
    readonly msgs: Message[],
    readonly matched: Set<string>,
  ) {}

  get ids(): string[] {
    return this.msgs.map((m) => m.id);
  }

  /** Exact id or unique prefix among the rows; a number is refused (it may address a context row). */
  msg(k: string | number): Message {
    if (typeof k === 'number') {
      const first = [...this.matched].sort()[0] ?? '';
      throw new DialogError(`${POSITION_REFUSED}res['${first}']`);
    }
    return new Dialog(this.msgs).msg(k);
  }

  /** Previews, `\n`-joined; context rows use `-` as separator (`h2:n-## H2`). */
  show(maxlen = 180): string {
    return this.msgs.map((m) => preview(m, maxlen, this.matched.has(m.id) ? ':' : '-')).join('\n');
  }
}

function headingPool(d: Dialog, arg: string): Message[] {
  const want = arg.startsWith('#') ? pyRstrip(arg) : pyStrip(arg);
  const head = d.messages.find((m) => {
    if (!headerLevel(m)) return false;
    const first = m.content.split('\n')[0];
    return arg.startsWith('#') ? pyRstrip(first) === want : pyStrip(first.replace(/^#+/, '')) === want;
  });
  return head ? sectionMsgs(d.messages, head) : [];
}

function textMatcher(pattern: string, useCase: boolean, useRegex: boolean): (s: string) => boolean {
  if (!pattern) return () => true;
  if (useRegex) {
    try {
      const re = new RegExp(pattern, useCase ? 'ms' : 'ims');
      return (s) => re.test(s);
    } catch {
      // an invalid regex is searched as a literal (surgery.md "Search" 3)
    }
  }
  if (useCase) return (s) => s.includes(pattern);
  const p = pattern.toLowerCase();
  return (s) => s.toLowerCase().includes(p);
}

/** Searches `d` (surgery.md "Search"; vectors V211–V220). */
export function findMsgs(d: Dialog, opts: FindOptions = {}): FindResult {
  const pool = opts.headerSection != null ? headingPool(d, opts.headerSection) : d.messages;
  const types = opts.msgType == null ? null : new Set(Array.isArray(opts.msgType) ? opts.msgType : [opts.msgType]);
  const idRefs = opts.ids == null ? [] : typeof opts.ids === 'string' ? splitIds(opts.ids) : opts.ids;
  const idSet = idRefs.length ? new Set(idRefs.map((r) => resolveMsg(d, r))) : null;
  const test = textMatcher(opts.pattern ?? '', !!opts.useCase, opts.useRegex ?? true);
  const hits: number[] = [];
  pool.forEach((m, k) => {
    if (opts.headersOnly && !headerLevel(m)) return;
    if (types && !types.has(m.msgType)) return;
    if (opts.onlyErr && !hasError(m)) return;
    if (opts.onlyExp && !exported(m)) return;
    if (opts.pred && !opts.pred(m)) return;
    if (idSet && !idSet.has(m)) return;
    const reply = aiRes(m);
    if (!test(reply ? `${m.content}\n${reply}` : m.content)) return;
    hits.push(k);
  });
  const kept = opts.limit != null ? hits.slice(0, Math.max(0, opts.limit)) : hits;
  const context = opts.context ?? (opts.headersOnly ? 0 : 1);
  const before = context ? context : opts.before ?? 0;
  const after = context ? context : opts.after ?? 0;
  const rows = new Set<number>();
  for (const k of kept) {
    for (let j = Math.max(0, k - before); j <= Math.min(pool.length - 1, k + after); j++) rows.add(j);
  }
  const msgs = [...rows].sort((a, b) => a - b).map((j) => pool[j]);
  return new FindResult(msgs, new Set(kept.map((k) => pool[k].id)));
}
