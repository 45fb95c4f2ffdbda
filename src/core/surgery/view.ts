// Read-only views (surgery.md "Views") and `update_msg` with its before/after diff.

import { Json, JsonObject, isJsonObject, jsonEqual } from '../base/json';
import { Dialog, DialogError, Message } from '../model/dialog';
import { aiRes, hasError } from '../model/outputs';
import { showMsgs } from '../model/preview';
import { pySplitlines, truncstr } from '../python/text';
import { pyRepr } from '../python';
import { renderOutputsAi } from '../hist/render';
import { strDiff } from './diff';
import { DialogEdit, MessagePatch, MsgEdit, MsgRef, indexIn, resolveMsg } from './edit';
import { MessageFields, UpdateOptions, updateMessage } from '../model/update';
import { toXml } from '../hist/xml';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE) of bytes. */
export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** `lnhash(n, line)` = `"{n}|{hhhh}|"`, hhhh = CRC-32 of the UTF-8 line AND 0xFFFF (V236). */
export function lnhash(n: number, line: string): string {
  return `${n}|${(crc32(new TextEncoder().encode(line)) & 0xffff).toString(16).padStart(4, '0')}|`;
}

export interface ViewMsgOptions {
  nums?: boolean;
  startLine?: number;
  /** null or −1 = the last line; other negatives count from the end, Python-slice style. */
  endLine?: number | null;
  lnhashs?: boolean;
  inclOut?: boolean;
  truncOut?: boolean;
}

/** `view_msg` / `m.view()`: numbered content lines, optionally with the output (V235). */
export function viewMsg(m: Message, opts: ViewMsgOptions = {}): string {
  const { nums = true, startLine = 1, endLine = null, lnhashs = false, inclOut = false, truncOut = true } = opts;
  const lines = pySplitlines(m.content);
  const n = lines.length;
  const s = startLine < 0 ? Math.max(0, n + startLine) : Math.max(0, startLine - 1);
  const e = endLine == null || endLine === -1 ? n : endLine < 0 ? n + endLine + 1 : endLine;
  const shown = lines.slice(s, Math.max(s, e)).map((l, k) => {
    const no = s + k + 1;
    return (lnhashs ? lnhash(no, l) : nums ? `${no}: ` : '') + l;
  });
  let res = shown.join('\n');
  if (inclOut) {
    let out = m.msgType === 'prompt' ? aiRes(m) : m.msgType === 'code' ? renderOutputsAi(m.output) : '';
    if (out) {
      if (truncOut) out = truncstr(out, 512);
      res += `\n<out>\n${out}\n</out>`;
    }
  }
  return res;
}

/** `view_msgs`: each as `# msg {id}\n` + its view. */
export function viewMsgs(d: Dialog, ids: MsgRef[], opts: ViewMsgOptions = {}): string {
  return ids
    .map((r) => resolveMsg(d, r))
    .map((m) => `# msg ${m.id}\n${viewMsg(m, opts)}`)
    .join('\n');
}

export interface ViewDlgOptions {
  inclOut?: boolean;
  onlyErrors?: boolean;
  truncOut?: boolean;
}

/** `view_dlg`: `<dialog name="NAME">` (name not escaped) + each message's XML (V237–V239). */
export function viewDlg(d: Dialog, opts: ViewDlgOptions = {}): string {
  const only = !!opts.onlyErrors;
  const msgs = only ? d.messages.filter(hasError) : d.messages;
  const body = msgs.map((m) => toXml(m, { inclOut: only || !!opts.inclOut, truncOut: opts.truncOut ?? true })).join('');
  return `<dialog name="${d.name}">${body}</dialog>`;
}

/** `summary_dlg`: one preview per message (V240). */
export function summaryDlg(d: Dialog, maxlen = 180): string {
  return showMsgs(d.messages, maxlen);
}

function sortedTop(o: JsonObject): JsonObject {
  const res: JsonObject = {};
  for (const k of Object.keys(o).sort()) res[k] = o[k];
  return res;
}

/** The snapshot `update_msg` diffs: the message XML and its meta with top-level keys sorted. */
export function updateSnapshot(m: Message): string {
  return `${toXml(m)}\nmeta: ${pyRepr(sortedTop(isJsonObject(m.meta) ? m.meta : {}))}`;
}

/**
 * Plans `update_msg` (model §10): fields, `mergemeta` and `export` are applied to a copy, so a bad
 * field name changes nothing. The result is the diff of the snapshots (V241) or `none: No changes.`.
 */
export function planUpdateMsg(d: Dialog, id: MsgRef, fields: MessageFields = {}, opts: UpdateOptions = {}): DialogEdit<string> {
  const m = resolveMsg(d, id);
  if (fields.id !== undefined && String(fields.id) !== m.id) throw new DialogError('update_msg cannot change a message id');
  const next = m.clone();
  updateMessage(next, fields, opts);
  const diff = strDiff(updateSnapshot(m), updateSnapshot(next));
  const set: MessagePatch = {};
  if (next.msgType !== m.msgType) set.msgType = next.msgType;
  if (next.content !== m.content) set.content = next.content;
  if (!jsonEqual(next.output as Json, m.output as Json)) set.output = next.output;
  if (!jsonEqual(next.meta, m.meta)) set.meta = next.meta;
  if (!jsonEqual(next.skipped, m.skipped)) set.skipped = next.skipped;
  if (!jsonEqual(next.pinned, m.pinned)) set.pinned = next.pinned;
  if (fields.attachments !== undefined) set.attachments = next.attachments;
  const extra = Object.keys(next.extra).filter((k) => next.extra[k] !== m.extra[k]);
  if (extra.length) set.extra = Object.fromEntries(extra.map((k) => [k, next.extra[k]]));
  const edits: MsgEdit[] = Object.keys(set).length ? [{ kind: 'update', index: indexIn(d, m), id: m.id, set }] : [];
  return { edits, result: diff || 'none: No changes.' };
}
