// nbdev directives and the export flag (model §9, DECISIONS row "export directive").
//
// A directive lives either in the content's leading comment block (`#| export`) or in `meta.nbdev`
// (`{"export": "true"}`); comment entries win. The value `"true"` is stored as `""` (bare).

import { JsonObject, isJsonObject, setKey } from '../base/json';
import { Dialog, DialogError, Message, truthy } from './dialog';
import { PY_WS, endsWithLineBreak, pySplitlines, pyStrip } from '../python/text';
import { pyRepr } from '../python';

const W = `[${PY_WS}]`;
const DIR_PRE = new RegExp(`^${W}*#${W}*\\|`);
const MAGIC = new RegExp(`^${W}*%%[\\p{L}\\p{N}_]`, 'u');
const BLANK = new RegExp(`^${W}*$`);
// Applied to a stripped line, so the reference's trailing `\s*$` can match nothing; a lazy `(.*?)` before
// it would backtrack quadratically over long inner whitespace runs.
const DIR_BODY = new RegExp(`^([^${PY_WS}:]+)${W}*:?${W}?(.*)$`, 's');

/** Directive name → value (`""` when bare); insertion order is the order of appearance. */
export type Directives = Record<string, string>;

/** The leading block (directive lines, cell magics, blank lines) and the rest, as lines with their ends. */
export function partitionDirectives(content: string): [string[], string[]] {
  const lines = pySplitlines(content, true);
  let k = 0;
  while (k < lines.length && (DIR_PRE.test(lines[k]) || MAGIC.test(lines[k]) || BLANK.test(lines[k]))) k++;
  return [lines.slice(0, k), lines.slice(k)];
}

/** `[name, value]` of a directive line, or null. */
function parseDirective(line: string): [string, string] | null {
  if (!DIR_PRE.test(line)) return null;
  const m = DIR_BODY.exec(pyStrip(line.replace(DIR_PRE, '')));
  return m ? [m[1], m[2] === 'true' ? '' : m[2]] : null;
}

/** A cell magic line (`%%time`): it stays first when directives are rewritten. */
export function isMagic(line: string): boolean {
  return MAGIC.test(line);
}

/** The directives written as comments at the start of `content`. */
export function contentDirectives(content: string): Directives {
  const res: Directives = {};
  for (const line of partitionDirectives(content)[0]) {
    const d = parseDirective(line);
    if (d) setKey(res, d[0], d[1]);
  }
  return res;
}

/** The directives of `meta.nbdev`; every value must be a string. */
export function metaDirectives(meta: JsonObject | null | undefined): Directives {
  const d = meta?.nbdev;
  if (d === undefined || d === null) return {};
  if (!isJsonObject(d)) throw new DialogError('`nbdev` metadata must be an object of directive values');
  const bad = Object.keys(d).filter((k) => typeof d[k] !== 'string');
  if (bad.length) throw new DialogError(`\`nbdev\` metadata directive values must be str (e.g 'true'/'false'), got non-str for: ${pyRepr(bad)}`);
  const res: Directives = {};
  for (const k of Object.keys(d)) setKey(res, k, d[k] === 'true' ? '' : d[k]);
  return res;
}

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Meta directives overridden by comment directives. */
export function directives(m: Message): Directives {
  const cmts = contentDirectives(m.content);
  const res: Directives = { ...cmts };
  for (const [k, v] of Object.entries(metaDirectives(m.meta))) if (!has(cmts, k)) setKey(res, k, v);
  return res;
}

export function directive(m: Message, name: string, dflt: string | null = null): string | null {
  const d = directives(m);
  return has(d, name) ? d[name] : dflt;
}

export function hasDirective(m: Message, name: string): boolean {
  return directive(m, name) !== null;
}

const isExportName = (k: string) => k === 'export' || k === 'exports';
const hasExport = (o: object) => has(o, 'export') || has(o, 'exports');

/** True iff the merged directives hold `export` or `exports`, with any value (`#| export: false` counts). */
export function exported(m: Message): boolean {
  return hasExport(directives(m));
}

/** The host's switch: an `export`/`exports` key in `meta.nbdev`. */
export function metaExported(m: Message): boolean {
  const d = m.meta.nbdev;
  return isJsonObject(d) && hasExport(d);
}

/** Sets `meta.nbdev.export = "true"`, or removes `export`/`exports` (and an emptied `nbdev`). Content is untouched. */
export function setMetaExported(m: Message, v: boolean): void {
  const d = isJsonObject(m.meta.nbdev) ? { ...m.meta.nbdev } : {};
  if (v) {
    d.export = 'true';
    m.meta = { ...m.meta, nbdev: d };
    return;
  }
  if (!isJsonObject(m.meta.nbdev)) return;
  delete d.export;
  delete d.exports;
  const meta: JsonObject = { ...m.meta, nbdev: d };
  if (!Object.keys(d).length) delete meta.nbdev;
  m.meta = meta;
}

const dirLine = (k: string, v: string) => `#| ${k}${v ? `: ${v}` : ''}\n`;

/**
 * `update(export=flag)` of the reference: a content `export`/`exports` directive is removed (the other
 * leading directives re-rendered canonically after the cell magics, blank lines of the block dropped),
 * then the metadata switch is set to `flag`.
 */
export function updateExport(m: Message, flag: boolean): void {
  const cmts = contentDirectives(m.content);
  if (hasExport(cmts)) {
    const [block, rest] = partitionDirectives(m.content);
    const lines = Object.entries(cmts).filter(([k]) => !isExportName(k)).map(([k, v]) => dirLine(k, v));
    m.content = [...block.filter(isMagic), ...lines, ...rest].join('');
  }
  setMetaExported(m, flag);
}

/**
 * Flips `exported`, editing the form the message already uses (DECISIONS "export directive"): metadata
 * when the switch is in `meta.nbdev`, the content line when the content carries it; turning export on
 * uses the metadata form if the message keeps other directives there, else adds `#| export` to the content
 * (after any cell magics). Lines are removed as written; nothing else in the content changes.
 */
export function toggleExported(m: Message): boolean {
  if (exported(m)) {
    const [block, rest] = partitionDirectives(m.content);
    const keep = block.filter((l) => {
      const d = parseDirective(l);
      return !(d && isExportName(d[0]));
    });
    if (keep.length !== block.length) m.content = [...keep, ...rest].join('');
    if (metaExported(m)) setMetaExported(m, false);
    return false;
  }
  if (isJsonObject(m.meta.nbdev) && Object.keys(m.meta.nbdev).length) setMetaExported(m, true);
  else {
    const lines = pySplitlines(m.content, true);
    let k = 0;
    while (k < lines.length && isMagic(lines[k])) k++;
    if (k > 0 && !endsWithLineBreak(lines[k - 1])) lines[k - 1] += '\n';
    lines.splice(k, 0, k < lines.length ? '#| export\n' : '#| export');
    m.content = lines.join('');
  }
  return true;
}

/** The contents of exported code messages, joined by a blank line, directive lines as written. */
export function dlg2py(d: Dialog): string {
  return d.messages
    .filter((m) => m.msgType === 'code' && exported(m))
    .map((m) => m.content)
    .join('\n\n');
}

const EXPORT_LINE = new RegExp(`^#\\|${W}*exports?[^\\n]*\\n`);

/** Prefixes `s` with `src`'s leading export directive line, unless `s` already starts with `#|`. */
export function copyExport(s: string, src: string): string {
  const m = EXPORT_LINE.exec(src);
  return m && !s.startsWith('#|') ? m[0] + s : s;
}

/** All exported messages if there are any, otherwise every non-pinned message. */
export function exportFilter(msgs: readonly Message[]): Message[] {
  const ex = msgs.filter(exported);
  return ex.length ? ex : msgs.filter((m) => !truthy(m.pinned));
}
