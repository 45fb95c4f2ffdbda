// nbformat output dicts <-> VS Code cell outputs, shaped the way VS Code's own ipynb extension shapes
// them (so the built-in renderers show streams, errors, images, html and markdown). This extension never
// executes code, so the exact nbformat dict rides in the output's metadata and is written back as read.

import * as vscode from 'vscode';
import { Json, JsonObject, decodeBase64, encodeBase64, isJsonObject, untagNumbers } from '../../core/base';
import { Output } from '../../core/model';

const STDOUT = 'application/vnd.code.notebook.stdout';
const STDERR = 'application/vnd.code.notebook.stderr';
const ERROR = 'application/vnd.code.notebook.error';

/** Richest first, as VS Code's ipynb extension orders items (unknown vendor mimes lead). */
const DISPLAY_ORDER = [
  'application/vnd.*',
  'application/javascript',
  'text/html',
  'image/svg+xml',
  'text/markdown',
  'image/png',
  'image/jpeg',
  'image/gif',
  'text/latex',
  'application/json',
  'text/plain',
];

function rank(mime: string): number {
  const exact = DISPLAY_ORDER.indexOf(mime);
  if (exact >= 0) return exact;
  return mime.startsWith('application/vnd.') ? 0 : DISPLAY_ORDER.length;
}

function joined(v: Json | undefined): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : '')).join('');
  return '';
}

/** JSON text for display: tagged numbers (`{"$dlg:num": "1.0"}`) shown as the numbers they are. */
function displayJson(v: Json): string {
  return JSON.stringify(untagNumbers(v));
}

const isJsonMime = (mime: string) => mime === 'application/json' || /^application\/.+\+json$/.test(mime);
const isBinaryImage = (mime: string) => mime.startsWith('image/') && mime !== 'image/svg+xml';

function mimeItem(mime: string, value: Json): vscode.NotebookCellOutputItem {
  if (isBinaryImage(mime) && typeof value === 'string') {
    return new vscode.NotebookCellOutputItem(decodeBase64(value.replace(/\s+/g, '')) ?? new Uint8Array(), mime);
  }
  if (isJsonMime(mime) || (typeof value !== 'string' && !Array.isArray(value))) {
    return vscode.NotebookCellOutputItem.text(displayJson(value), mime);
  }
  return vscode.NotebookCellOutputItem.text(joined(value), mime);
}

/** The items VS Code renders for one nbformat output. */
function outputItems(o: Output): vscode.NotebookCellOutputItem[] {
  switch (o.output_type) {
    case 'stream': {
      const text = joined(o.text);
      return [vscode.NotebookCellOutputItem.text(text, o.name === 'stderr' ? STDERR : STDOUT)];
    }
    case 'error': {
      const tb = Array.isArray(o.traceback) ? o.traceback.map((l) => String(l)).join('\n') : '';
      const err = { name: String(o.ename ?? ''), message: String(o.evalue ?? ''), stack: tb };
      return [vscode.NotebookCellOutputItem.text(JSON.stringify(err), ERROR)];
    }
    case 'display_data':
    case 'execute_result':
    case 'update_display_data': {
      const data = isJsonObject(o.data) ? o.data : {};
      return Object.keys(data)
        .sort((a, b) => rank(a) - rank(b))
        .map((mime) => mimeItem(mime, data[mime]));
    }
    default:
      return [vscode.NotebookCellOutputItem.text(displayJson(o), 'application/json')];
  }
}

/** A cell output showing `o`; `o` itself is kept in the metadata for the write back. */
export function toCellOutput(o: Output): vscode.NotebookCellOutput {
  return new vscode.NotebookCellOutput(outputItems(o), { dialog: { nb: o } });
}

const decoder = new TextDecoder();

/** Best effort for outputs another tool produced: the nbformat dict their items stand for. */
function itemsToNb(items: readonly vscode.NotebookCellOutputItem[]): Output {
  const first = items[0];
  if (first && (first.mime === STDOUT || first.mime === STDERR)) {
    const text = items.map((i) => decoder.decode(i.data)).join('');
    return { output_type: 'stream', name: first.mime === STDERR ? 'stderr' : 'stdout', text };
  }
  if (first && first.mime === ERROR) {
    const e = JSON.parse(decoder.decode(first.data)) as { name?: string; message?: string; stack?: string };
    return { output_type: 'error', ename: e.name ?? '', evalue: e.message ?? '', traceback: (e.stack ?? '').split('\n') };
  }
  const data: JsonObject = {};
  for (const i of items) {
    data[i.mime] = isBinaryImage(i.mime) ? encodeBase64(i.data) : decoder.decode(i.data);
  }
  return { output_type: 'display_data', metadata: {}, data };
}

/** The nbformat output a cell output stands for. */
export function fromCellOutput(out: { items: readonly vscode.NotebookCellOutputItem[]; metadata?: { [k: string]: unknown } }): Output {
  const kept = (out.metadata?.dialog as { nb?: unknown } | undefined)?.nb;
  return isJsonObject(kept) ? kept : itemsToNb(out.items);
}
