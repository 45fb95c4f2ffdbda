// Text edits (surgery.md "Text edits"): pure string operations, and the message-level wrapper that
// applies one to a message's content (or a prompt's reply) and reports a diff.

import { Dialog, DialogError, Message } from '../model/dialog';
import { aiRes } from '../model/outputs';
import { chompLine, cpLen, cpSlice, pySplitlines } from '../python/text';
import { pyStrRepr } from '../python';
import { strDiff } from './diff';
import { DialogEdit, MsgRef, UpdateEdit, indexIn, resolveMsg } from './edit';

export interface LineFilter {
  /** Process only the lines this regex finds a match in (or, with `invertFilter`, the others). */
  reFilter?: string | null;
  invertFilter?: boolean;
}

export interface StrReplaceOptions extends LineFilter {
  startLine?: number | null;
  endLine?: number | null;
  /** Replace only the first N matches. */
  nMatches?: number | null;
  /** `old` is a regex and `new` a Python-style replacement template (`\1`, `\g<name>`). */
  useRegex?: boolean;
}

/** Resolves a 1-based inclusive line range (negatives count from the end) with the spec's errors. */
function lineRange(count: number, start: number | null | undefined, end: number | null | undefined): [number, number] {
  const s = start == null ? 1 : start < 0 ? count + 1 + start : start;
  if (s < 1 || s > Math.max(count, 1)) throw new DialogError(`Invalid start line ${start}. Valid range: 1-${count}`);
  const e = end == null ? count : end < 0 ? count + 1 + end : end;
  if (e < s || e > count) throw new DialogError(`Invalid end line ${end}. Valid range: ${s}-${count}`);
  return [s, e];
}

function lineTest(f: LineFilter): ((line: string) => boolean) | null {
  if (!f.reFilter) return null;
  let re: RegExp;
  try {
    re = new RegExp(f.reFilter);
  } catch (e) {
    throw new DialogError(`invalid re_filter ${pyStrRepr(f.reFilter)}: ${(e as Error).message}`);
  }
  return (line) => re.test(line) !== !!f.invertFilter;
}

/** A Python `re.sub` replacement template as a JS replacer. */
function pyTemplate(tpl: string): (m: string, ...rest: unknown[]) => string {
  return (...args: unknown[]) => {
    const last = args[args.length - 1];
    const groups = typeof last === 'object' && last !== null ? (last as Record<string, string | undefined>) : {};
    const nums = args.slice(0, typeof last === 'object' && last !== null ? -3 : -2) as (string | undefined)[];
    const group = (g: string) => (/^\d+$/.test(g) ? nums[Number(g)] : groups[g]) ?? '';
    const esc: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };
    return tpl.replace(/\\(g<([^>]+)>|\d{1,2}|.)/gs, (_, all: string, name: string | undefined) =>
      name !== undefined ? group(name) : /^\d/.test(all) ? group(all) : esc[all] ?? `\\${all}`,
    );
  };
}

/** Replaces in one piece of text; returns [new text, number of replacements]. */
function replaceIn(text: string, old: string, neu: string, opts: StrReplaceOptions, budget: number): [string, number] {
  let n = 0;
  if (opts.useRegex) {
    let re: RegExp;
    try {
      re = new RegExp(old, 'g');
    } catch (e) {
      throw new DialogError(`invalid regex ${pyStrRepr(old)}: ${(e as Error).message}`);
    }
    const fill = pyTemplate(neu);
    const out = text.replace(re, (...a: unknown[]) => {
      if (n >= budget) return a[0] as string;
      n++;
      return fill(...(a as [string]));
    });
    return [out, n];
  }
  const parts = text.split(old);
  let out = parts[0];
  for (let k = 1; k < parts.length; k++) {
    out += (n < budget ? neu : old) + parts[k];
    if (n < budget) n++;
  }
  return [out, n];
}

/** `str_replace` on text: every match (or the first `nMatches`), optionally within lines / filtered lines. */
export function strReplace(text: string, old: string, neu: string, opts: StrReplaceOptions = {}): string {
  if (!old) throw new DialogError('old_str must not be empty');
  const lines = pySplitlines(text, true);
  const restricted = opts.startLine != null || opts.endLine != null;
  const [s, e] = restricted ? lineRange(lines.length, opts.startLine, opts.endLine) : [1, lines.length];
  const test = lineTest(opts);
  let budget = opts.nMatches ?? Infinity;
  const head = lines.slice(0, s - 1).join('');
  const tail = lines.slice(e).join('');
  const region = lines.slice(s - 1, e);
  let body: string;
  let found = 0;
  if (test) {
    const picked = region.filter((l) => test(chompLine(l)));
    if (!picked.length) return text;
    body = region
      .map((l) => {
        if (!test(chompLine(l))) return l;
        const [r, n] = replaceIn(l, old, neu, opts, budget);
        budget -= n;
        found += n;
        return r;
      })
      .join('');
  } else {
    [body, found] = replaceIn(region.join(''), old, neu, opts, budget);
  }
  if (!found) {
    const searched = region.join('');
    const shown = cpLen(searched) > 200 ? pyStrRepr(cpSlice(searched, 200)) + '...' : pyStrRepr(searched);
    const where = !restricted ? '' : s === e ? ` on line ${s}` : ` in lines ${s}-${e}`;
    throw new DialogError(`Failed to find ${pyStrRepr(old)} in: ${shown}${where}`);
  }
  return head + body + tail;
}

/** `strs_replace`: the pairs in sequence. */
export function strsReplace(text: string, olds: unknown, news: unknown, opts: StrReplaceOptions = {}): string {
  for (const [name, v] of [['old_strs', olds], ['new_strs', news]] as const) {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
      throw new DialogError(`\`${name}\` should be a list[str] but got ${Array.isArray(v) ? 'a list with non-str items' : typeof v}`);
    }
  }
  const o = olds as string[];
  const n = news as string[];
  if (o.length !== n.length) throw new DialogError(`Length mismatch: ${o.length} old_strs vs ${n.length} new_strs`);
  return o.reduce((t, old, k) => strReplace(t, old, n[k], opts), text);
}

/** `insert_line`: insert after line N (0 = before the first); lines are rejoined with `\n`. */
export function insertLine(text: string, n: number, newStr: string): string {
  const lines = pySplitlines(text);
  if (!Number.isInteger(n) || n < 0 || n > lines.length) throw new DialogError(`Invalid line ${n}. Valid range: 0-${lines.length}`);
  lines.splice(n, 0, newStr);
  return lines.join('\n');
}

/** `replace_lines`: replace an inclusive line range (null = first/last, negative end from the end). */
export function replaceLines(text: string, start: number | null = null, end: number | null = null, newContent = ''): string {
  const add = newContent && !newContent.endsWith('\n') ? newContent + '\n' : newContent;
  if (!text) return newContent;
  const lines = pySplitlines(text, true);
  const [s, e] = lineRange(lines.length, start, end);
  return [...lines.slice(0, s - 1), add, ...lines.slice(e)].join('');
}

/** `del_lines`: delete an inclusive range (`1, -1` = everything), optionally only filtered lines. */
export function delLines(text: string, start: number | null | undefined, end: number | null | undefined, f: LineFilter = {}): string {
  if (start == null || end == null) throw new DialogError('del_lines requires explicit start_line and end_line');
  const lines = pySplitlines(text, true);
  const [s, e] = lineRange(lines.length, start, end);
  const test = lineTest(f);
  const kept = lines.filter((l, k) => k < s - 1 || k >= e || (test !== null && !test(chompLine(l))));
  return kept.join('');
}

export type TextOp = (text: string) => string;

/** One message's result: a diff, `none: No changes.` or `error: …`. */
export type TextEditResult = string;

/**
 * Plans a text edit on one message, a list, or `"all"` (surgery.md common rules). `out` edits a
 * prompt's reply. Per-message failures are returned as `error: …` results and leave that message
 * unchanged; unknown ids throw before anything is planned. One id gives its result string; a list
 * or "all" gives `[id, result]` pairs without the `none:` ones.
 */
export function planTextEdit(
  d: Dialog,
  ids: MsgRef | MsgRef[] | 'all',
  op: TextOp,
  opts: { out?: boolean } = {},
): DialogEdit<TextEditResult | [string, TextEditResult][]> {
  const bulk = ids === 'all' || Array.isArray(ids);
  const msgs: Message[] = ids === 'all' ? [...d.messages] : (Array.isArray(ids) ? ids : [ids]).map((r) => resolveMsg(d, r));
  const edits: UpdateEdit[] = [];
  const results: [string, TextEditResult][] = [];
  for (const m of msgs) {
    let res: string;
    try {
      if (opts.out && m.msgType !== 'prompt') {
        throw new DialogError(`${m.id}: out=True edits a prompt's reply; assign \`msg.output\` directly for other types`);
      }
      const before = opts.out ? aiRes(m) : m.content;
      if (!before) throw new DialogError(`Message has no ${opts.out ? 'output' : 'source'}`);
      const after = op(before);
      if (after === before) res = 'none: No changes.';
      else {
        res = strDiff(before, after) || 'none: No changes.';
        edits.push({ kind: 'update', index: indexIn(d, m), id: m.id, set: opts.out ? { output: after } : { content: after } });
      }
    } catch (e) {
      if (!(e instanceof DialogError)) throw e;
      res = `error: ${e.message}`;
    }
    results.push([m.id, res]);
  }
  edits.sort((a, b) => a.index - b.index);
  return { edits, result: bulk ? results.filter(([, r]) => !r.startsWith('none:')) : results[0][1] };
}
