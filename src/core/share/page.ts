// The readable page of a shared dialog, in GitHub's Markdown: notes as they are, each prompt as a quoted
// question with its reply below, code with its text outputs, images inline, tool calls folded in
// <details>, thinking and token usage left out, Solveit's reply separator never shown. Display only.

import { isJsonObject } from '../base/json';
import { stripAnsi } from '../base/ansi';
import { Dialog, Message, Output } from '../model/dialog';
import { aiRes, joinOut } from '../model/outputs';
import { pyRstrip, pyStrip } from '../python/text';
import { pyJsonDumps, removeBlocks, removeThink, USAGE_INFO, dropTrailingNewlines } from '../reply/blocks';
import { toolSpans, ToolSpan } from '../reply/toolSpans';
import { OutputPiece, fence, pooledOutputs } from '../export/markdown';
import { withoutSeparators } from '../ipynb/cell';
import { encodeBase64 } from '../base/base64';
import { shareDialog, ShareOptions, SharedDialog } from './select';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Text a reader sees: no separator line, no trailing blank lines. */
function clean(s: string): string {
  return dropTrailingNewlines(withoutSeparators(s));
}

/** `attachment:ID` links as data URIs, so images show inline. */
function withAttachments(m: Message): string {
  let s = m.content;
  for (const a of m.attachments) {
    if (!s.includes(`attachment:${a.id}`)) continue;
    s = s.split(`attachment:${a.id}`).join(`data:${a.contentType};base64,${a.invalidBase64 ?? encodeBase64(a.data)}`);
  }
  return s;
}

/** A question as a block quote (fences and lists inside a quote render on GitHub). */
function quoted(s: string): string {
  return s.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n');
}

/** Tool results a reader needs only the start of (they can hold whole files or images as base64). */
export const TOOL_RESULT_SHOWN = 2000;

function cut(s: string): string {
  return s.length <= TOOL_RESULT_SHOWN ? s : `${s.slice(0, TOOL_RESULT_SHOWN)}\n… (${s.length - TOOL_RESULT_SHOWN} more characters)`;
}

/** One tool call, folded: its call on the summary line, arguments and result inside. */
export function toolFold(t: ToolSpan): string {
  const args = Object.keys(t.args);
  const summary = `${t.name}(${args.join(', ')})`;
  const body = [`<details>\n<summary>🔧 ${escapeHtml(summary)}</summary>\n`];
  if (args.length) body.push(fence('json', pyJsonDumps(t.args, { indent: 2 })));
  if (t.result) body.push(`Result:\n\n${fence('text', cut(t.result))}`);
  body.push('</details>');
  return body.join('\n\n');
}

/** A reply as a reader sees it: thinking and usage out, tool calls folded. */
export function replyPage(reply: string): string {
  const text = removeBlocks(removeThink(reply), USAGE_INFO);
  let out = '';
  let at = 0;
  for (const t of toolSpans(text)) {
    out += text.slice(at, t.start) + `\n${toolFold(t)}\n`;
    at = t.end;
  }
  return clean((out + text.slice(at)).replace(/\n{3,}/g, '\n\n')).replace(/^\n+/, '');
}

function outputPiece(o: Output): OutputPiece | null {
  const t = o.output_type;
  if (t === 'stream') return { text: stripAnsi(joinOut(o.text)) };
  if (t === 'error') return { text: stripAnsi(Array.isArray(o.traceback) ? o.traceback.map((x) => joinOut(x)).join('\n') : joinOut(o.traceback)) };
  const data = isJsonObject(o.data) ? o.data : {};
  const has = (k: string) => typeof data[k] === 'string' || Array.isArray(data[k]);
  for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
    if (has(mime)) return { md: `![output](data:${mime};base64,${joinOut(data[mime]).replace(/\s+/g, '')})` };
  }
  if (has('text/markdown')) return { md: pyStrip(joinOut(data['text/markdown'])) };
  if (has('text/html')) return { md: `<div>\n\n${pyRstrip(joinOut(data['text/html'])).replace(/\n\s*\n/g, '\n')}\n\n</div>` };
  if (has('text/plain')) return { text: stripAnsi(joinOut(data['text/plain'])) };
  return null;
}

/** Code outputs: plain text pooled into `text` fences, displays (images, markdown, HTML) as they are. */
export function outputsPage(outs: Output[]): string {
  return pooledOutputs(outs, outputPiece, 'text');
}

/** One message as it stands on the page ('' when there is nothing to show). */
export function msg2page(m: Message): string {
  switch (m.msgType) {
    case 'note':
      return clean(withAttachments(m));
    case 'raw':
      return m.content ? fence('', m.content) : '';
    case 'prompt': {
      const q = clean(withAttachments(m));
      const r = replyPage(aiRes(m));
      return [q && quoted(q), r].filter((x) => x).join('\n\n');
    }
    default: {
      if (!pyStrip(m.content) && !m.outputs.length) return '';
      const outs = outputsPage(m.outputs);
      return [pyStrip(m.content) ? fence('python', m.content) : '', outs].filter((x) => x).join('\n\n');
    }
  }
}

/** The page of an already trimmed dialog. */
export function sharedPage(d: Dialog): string {
  return d.messages.map(msg2page).filter((x) => x).join('\n\n') + '\n';
}

export interface SharePage extends SharedDialog {
  markdown: string;
}

/** What a share of `d` publishes: the trimmed dialog, its page, and what was left out. */
export function dlg2page(d: Dialog, opts: ShareOptions = {}): SharePage {
  const s = shareDialog(d, opts);
  return { ...s, markdown: sharedPage(s.dialog) };
}
