// Message <-> NotebookCellData. The cell kind and language carry the message type; everything else the
// core keeps (id, metadata, promoted attributes, attachments) rides in `metadata.dialog`, and the storage
// origin in `metadata.dialogOrigin` (transient for VS Code, its bulk kept aside: origins.ts), so a cell
// VS Code hands back unedited rebuilds the very same Message.

import * as vscode from 'vscode';
import { Json, JsonObject, isJsonObject, jsonClone } from '../../core/base';
import { Attachment, Dialog, isMsgType, Message } from '../../core/model';
import { aiRes } from '../../core/model';
import { decodeBase64, encodeBase64 } from '../../core/base';
import { REPLY_MIME, ReplyAttachments, ReplyThumbnails } from '../../shared/replyOutput';
import { fromCellOutput, toCellOutput } from './outputs';
import { DEFAULT_CODE_LANGUAGE } from '../defaults';
import { BOOKKEEPING, OriginHints, fullOrigin, originHints } from './origins';

export const NOTEBOOK_TYPE = 'dialog-notebook';
export const PROMPT_LANG = 'dialog-prompt';
export const RAW_LANG = 'raw';
export const DEFAULT_CODE_LANG = DEFAULT_CODE_LANGUAGE;

interface StoredAttachment {
  id: string;
  contentType: string;
  /**
   * Standard base64 of the bytes, or the undecodable text kept verbatim when `invalid`. Absent on a note:
   * its `metadata.attachments` (for the markdown renderer) holds the bytes, which are not sent twice.
   */
  data?: string;
  invalid?: boolean;
}

/** What `NotebookCellData.metadata.dialog` holds. */
export interface CellState {
  id?: string;
  msgType?: string;
  meta?: JsonObject;
  skipped?: Json;
  pinned?: Json;
  attachments?: StoredAttachment[];
  extra?: JsonObject;
  /** The content as read when it holds CR: VS Code's editor normalises line ends. */
  content?: string;
}

/** What both NotebookCellData and (adapted) NotebookCell offer. */
export interface CellLike {
  kind: vscode.NotebookCellKind;
  value: string;
  languageId: string;
  metadata?: { [key: string]: unknown };
  outputs?: readonly { items: readonly vscode.NotebookCellOutputItem[]; metadata?: { [key: string]: unknown } }[];
}

export function cellLike(cell: vscode.NotebookCell): CellLike {
  return {
    kind: cell.kind,
    value: cell.document.getText(),
    languageId: cell.document.languageId,
    metadata: cell.metadata,
    outputs: cell.outputs,
  };
}

export function cellState(c: { metadata?: { [key: string]: unknown } }): CellState {
  const s = c.metadata?.dialog;
  return isJsonObject(s) ? (s as CellState) : {};
}

/** The message type a cell stands for: note = Markup, prompt / raw by language, else code. */
export function cellType(c: CellLike): string {
  if (c.kind === vscode.NotebookCellKind.Markup) return 'note';
  if (c.languageId === PROMPT_LANG) return 'prompt';
  if (c.languageId === RAW_LANG) {
    const t = cellState(c).msgType;
    return t && !isMsgType(t) ? t : 'raw';
  }
  return 'code';
}

export function cellKind(msgType: string): vscode.NotebookCellKind {
  return msgType === 'note' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
}

export function cellLanguage(msgType: string, codeLang = DEFAULT_CODE_LANG): string {
  if (msgType === 'note') return 'markdown';
  if (msgType === 'prompt') return PROMPT_LANG;
  return msgType === 'code' ? codeLang : RAW_LANG;
}

const sameText = (a: string, b: string) => a.replace(/\r\n?/g, '\n') === b.replace(/\r\n?/g, '\n');

function storeAttachment(a: Attachment): StoredAttachment {
  return a.invalidBase64 !== undefined
    ? { id: a.id, contentType: a.contentType, data: a.invalidBase64, invalid: true }
    : { id: a.id, contentType: a.contentType, data: encodeBase64(a.data) };
}

function loadAttachment(s: StoredAttachment, shown: unknown): Attachment {
  const data = s.data ?? (shown as ReplyAttachments | undefined)?.[s.id]?.[s.contentType] ?? '';
  return s.invalid
    ? new Attachment(new Uint8Array(), s.contentType, s.id, data)
    : new Attachment(decodeBase64(data) ?? new Uint8Array(), s.contentType, s.id);
}

/** nbformat's attachment shape, which the markdown and reply renderers resolve `attachment:` links from. */
export function rendererAttachments(list: StoredAttachment[]): ReplyAttachments {
  const out: ReplyAttachments = {};
  for (const a of list) if (!a.invalid) out[a.id] = { [a.contentType]: a.data! };
  return out;
}

/**
 * A cell's metadata with one more attachment, stored as cellMetadata stores a message's (a note's bytes
 * also where the markdown renderer finds them); everything else in it is kept as it is.
 */
export function metadataWithAttachment(c: CellLike, a: Attachment): { [key: string]: unknown } {
  const s = cellState(c);
  const stored = storeAttachment(a);
  const md: { [key: string]: unknown } = { ...c.metadata };
  if (cellType(c) === 'note') {
    const shown = isJsonObject(md.attachments as Json) ? (md.attachments as ReplyAttachments) : {};
    md.attachments = { ...shown, ...rendererAttachments([stored]) };
    md.dialog = { ...s, attachments: [...(s.attachments ?? []), { id: a.id, contentType: a.contentType }] };
  } else md.dialog = { ...s, attachments: [...(s.attachments ?? []), stored] };
  return md;
}

/** The cell metadata for a message. */
export function cellMetadata(m: Message): { [key: string]: unknown } {
  const s: CellState = { id: m.id, msgType: m.msgType, meta: m.meta, skipped: m.skipped, pinned: m.pinned };
  const md: { [key: string]: unknown } = { dialog: s };
  if (m.attachments.length) {
    const stored = m.attachments.map(storeAttachment);
    if (m.msgType === 'note') {
      md.attachments = rendererAttachments(stored);
      s.attachments = stored.map((a) => (a.invalid ? a : { id: a.id, contentType: a.contentType }));
    } else s.attachments = stored;
  }
  if (m.origin) md[BOOKKEEPING] = originHints(m.origin);
  // `time_run` rides in the metadata; cell2msg gives it to the history as the host attribute again.
  const { time_run: tr, ...extra } = m.extra;
  if (tr !== undefined && tr !== m.meta.time_run) extra.time_run = tr;
  if (Object.keys(extra).length) s.extra = jsonClone(extra as JsonObject);
  if (m.content.includes('\r')) s.content = m.content;
  return md;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The thumbnails of a prompt's reply output: the images its request shows (`attachment:NAME` in its text),
 * by name, in attachment order; undefined when it shows none.
 */
export function thumbnailsOf(m: Message): ReplyThumbnails | undefined {
  const shown = m.attachments.filter((a) => a.invalidBase64 === undefined && a.contentType.startsWith('image/') && m.content.includes(`attachment:${a.id}`));
  return shown.length ? { thumbnails: shown.map((a) => a.id), cell: m.id, sizes: shown.map((a) => a.data.length) } : undefined;
}

/**
 * The output showing a prompt's reply: the reply as written, in our own mime only, so the only renderer
 * that shows it is ours (src/renderer), which sanitises it in every workspace. What is shown is what is
 * saved; only a reply UTF-8 cannot carry (a lone surrogate) also rides in the metadata, as written.
 * The images the request shows are named as thumbnails, drawn above the reply.
 */
export function replyOutput(reply: string, m?: Message): vscode.NotebookCellOutput {
  const md: { [key: string]: unknown } = {};
  if (LONE_SURROGATE.test(reply)) md.dialog = { text: reply };
  // The reply's own `attachment:` links need the bytes at hand; thumbnails are asked for when shown
  // (replyImages.ts).
  if (m?.attachments.length && reply.includes('attachment:')) md.attachments = rendererAttachments(m.attachments.map(storeAttachment));
  const thumbnails = m && thumbnailsOf(m);
  if (thumbnails) Object.assign(md, thumbnails);
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(reply, REPLY_MIME)], md);
}

/** The output showing a prompt cell's reply (and thumbnails), with its reply item. */
function replyOutputOf(c: Pick<CellLike, 'outputs'>) {
  for (const o of c.outputs ?? []) {
    const item = o.items.find((i) => i.mime === REPLY_MIME);
    if (item) return { output: o, item };
  }
  return undefined;
}

/** The reply a prompt cell holds ('' when none). */
export function cellReply(c: Pick<CellLike, 'outputs'>): string {
  const r = replyOutputOf(c);
  if (!r) return '';
  const kept = (r.output.metadata?.dialog as { text?: unknown } | undefined)?.text;
  return typeof kept === 'string' ? kept : UTF8.decode(r.item.data);
}

export function msg2cell(m: Message, codeLang = DEFAULT_CODE_LANG): vscode.NotebookCellData {
  const t = m.msgType;
  const cell = new vscode.NotebookCellData(cellKind(t), m.content, cellLanguage(t, codeLang));
  cell.metadata = cellMetadata(m);
  if (t === 'code') cell.outputs = m.outputs.map(toCellOutput);
  else if (t === 'prompt') cell.outputs = promptOutputs(m);
  return cell;
}

/** A prompt cell's outputs: its reply, with the images its request shows as thumbnails; none when both are empty. */
export function promptOutputs(m: Message): vscode.NotebookCellOutput[] {
  const reply = aiRes(m);
  // A prompt with images but no reply yet shows their thumbnails alone (an empty reply saves as none).
  return reply || thumbnailsOf(m) ? [replyOutput(reply, m)] : [];
}

/**
 * The thumbnails a prompt cell's output names now, in thumbnailsOf's shape (as the metadata holds them,
 * to be compared with it); undefined when none.
 */
export function shownThumbnails(c: Pick<CellLike, 'outputs'>): ReplyThumbnails | undefined {
  const md = replyOutputOf(c)?.output.metadata;
  return Array.isArray(md?.thumbnails) && md.thumbnails.length ? ({ thumbnails: md.thumbnails, cell: md.cell, sizes: md.sizes } as ReplyThumbnails) : undefined;
}

export function cell2msg(c: CellLike): Message {
  const s = cellState(c);
  const msgType = cellType(c);
  const m = new Message({
    id: s.id,
    content: s.content !== undefined && sameText(s.content, c.value) ? s.content : c.value,
    msgType,
    meta: s.meta ? jsonClone(s.meta) : {},
    attachments: (s.attachments ?? []).map((a) => loadAttachment(a, c.metadata?.attachments)),
    extra: s.extra ? jsonClone(s.extra) : {},
  });
  // The history's `time` attribute reads the host attribute; the file keeps it in the cell metadata.
  if (typeof m.meta.time_run === 'string') m.extra.time_run = m.meta.time_run;
  if (s.skipped !== undefined) m.skipped = jsonClone(s.skipped);
  if (s.pinned !== undefined) m.pinned = jsonClone(s.pinned);
  if (msgType === 'code') m.output = (c.outputs ?? []).map(fromCellOutput);
  else if (msgType === 'prompt') m.output = cellReply(c);
  const origin = c.metadata?.[BOOKKEEPING];
  if (isJsonObject(origin as Json)) m.origin = fullOrigin(origin as OriginHints);
  return m;
}

/** What `NotebookData.metadata.dialog` holds (the read's origin is in `metadata.dialogOrigin`). */
interface NotebookState {
  name?: string;
  meta?: JsonObject;
}

/** The language of code cells: the notebook's kernel language (`language_info`, `kernelspec`), else `fallback`. */
export function codeLanguage(d: { meta: JsonObject }, fallback = DEFAULT_CODE_LANG): string {
  const info = d.meta.language_info;
  const spec = d.meta.kernelspec;
  const name = (isJsonObject(info) && info.name) || (isJsonObject(spec) && spec.language);
  return typeof name === 'string' && name ? name.toLowerCase() : fallback;
}

export function dlg2notebook(d: Dialog, fallbackLang = DEFAULT_CODE_LANG): vscode.NotebookData {
  const lang = codeLanguage(d, fallbackLang);
  const data = new vscode.NotebookData(d.messages.map((m) => msg2cell(m, lang)));
  data.metadata = { dialog: { name: d.name, meta: d.meta } satisfies NotebookState };
  if (d.origin) data.metadata[BOOKKEEPING] = d.origin;
  return data;
}

/** The dialog of notebook data; `convert` makes each cell's message (the open notebook's reuses unchanged ones). */
export function notebook2dlg<C = CellLike>(data: { cells: readonly C[]; metadata?: { [key: string]: unknown } }, convert: (c: C) => Message = cell2msg as (c: C) => Message): Dialog {
  const raw = data.metadata?.dialog;
  const s: NotebookState = isJsonObject(raw) ? (raw as NotebookState) : {};
  const d = new Dialog(data.cells.map((c) => convert(c)), s.name ?? '', s.meta ? jsonClone(s.meta) : {});
  const origin = data.metadata?.[BOOKKEEPING];
  if (isJsonObject(origin as Json)) d.origin = origin as Record<string, unknown>;
  return d;
}

/** The notebook metadata of an open dialog (what the file's `metadata` holds), without converting its cells. */
export function notebookMeta(nb: { metadata: { [key: string]: unknown } }): JsonObject {
  const s = nb.metadata?.dialog;
  const meta = isJsonObject(s) ? (s as NotebookState).meta : undefined;
  return meta ?? {};
}

/** `nb`'s notebook metadata with the dialog's metadata replaced by `meta` (for `NotebookEdit.updateNotebookMetadata`). */
export function notebookMetadataWith(nb: { metadata: { [key: string]: unknown } }, meta: JsonObject): { [key: string]: unknown } {
  const s = isJsonObject(nb.metadata?.dialog) ? (nb.metadata.dialog as NotebookState) : {};
  return { ...nb.metadata, dialog: { ...s, meta } };
}

/** Every message of an open notebook, in order. */
export function notebookDialog(nb: vscode.NotebookDocument): Dialog {
  return notebook2dlg({ cells: nb.getCells().map(cellLike), metadata: nb.metadata });
}
