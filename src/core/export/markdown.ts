// The markdown document projection (ai-projections §12): display only, never parsed back.
// Pandoc-style divs: `::: prompt`, `::: reply`, `::: output`, folded tool calls.

import { isJsonObject, Json, parseJsonObject } from '../base/json';
import { encodeBase64 } from '../base/base64';
import { Dialog, Message, Output } from '../model/dialog';
import { stripAnsi } from '../base/ansi';
import { aiRes, joinOut } from '../model/outputs';
import { concatStreams } from '../hist/render';
import { cpLen, cpSlice, pyRstrip, pyStrip } from '../python/text';
import { pyStr } from '../python';
import { parseUsage, usageDetail, usageSummary } from '../answer/cost';
import { codeSpan, dropTrailingNewlines, fencedBlocks, longestRun, pyJsonDumps, TOOL_INFO, USAGE_INFO } from '../reply/blocks';

/** A fence longer than any backtick run inside. */
export function fence(info: string, text: string): string {
  const body = dropTrailingNewlines(text);
  const f = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${f}${info}\n${body}\n${f}`;
}

/** Notes: `attachment:ID` links become data URIs. */
function noteMd(m: Message): string {
  let s = m.content;
  for (const a of m.attachments) {
    if (!s.includes(`attachment:${a.id}`)) continue;
    const data = a.invalidBase64 ?? encodeBase64(a.data);
    s = s.split(`attachment:${a.id}`).join(`data:${a.contentType};base64,${data}`);
  }
  return s;
}

/** A pandoc div whose fence outnumbers any run of colons inside (as the reference counts them). */
function div(cls: string, body: string): string {
  const f = ':'.repeat(Math.max(3, longestRun(body, ':') + 1));
  return `${f} ${cls}\n${body}\n${f}`;
}

/** An output as a markdown block, or plain text to pool with its neighbours. */
export type OutputPiece = { text: string } | { md: string };

/** One output as a markdown block, or plain text to pool with its neighbours. */
function outputPiece(o: Output): OutputPiece | null {
  const t = o.output_type;
  if (t === 'stream') return { text: stripAnsi(joinOut(o.text as Json)) };
  if (t === 'error') return { text: stripAnsi(Array.isArray(o.traceback) ? o.traceback.map((x) => joinOut(x)).join('\n') : joinOut(o.traceback)) };
  const data = isJsonObject(o.data) ? o.data : {};
  const has = (k: string) => typeof data[k] === 'string' || Array.isArray(data[k]);
  if (has('text/html')) return { md: fence('{=html}', pyRstrip(joinOut(data['text/html']))) };
  if (has('image/svg+xml')) return { md: fence('{=html}', pyRstrip(joinOut(data['image/svg+xml']))) };
  for (const mime of ['image/jpeg', 'image/png']) {
    if (has(mime)) return { md: `![](data:${mime};base64,${joinOut(data[mime]).replace(/\s+/g, '')})` };
  }
  if (has('text/markdown')) return { md: pyStrip(joinOut(data['text/markdown'])) };
  if (has('text/latex')) return { md: pyStrip(joinOut(data['text/latex'])) };
  if (has('application/javascript')) return { md: fence('{=html}', `<script>${joinOut(data['application/javascript'])}</script>`) };
  if (has('text/plain')) return { text: stripAnsi(joinOut(data['text/plain'])) };
  return null;
}

/** Code outputs: displays first, then streams, then results and errors; plain text pooled. */
export function outputsMd(outs: Output[]): string {
  return pooledOutputs(outs, outputPiece, 'output');
}

/** Outputs as blocks: each one `piece` makes markdown of as it is, runs of plain text in one `lang` fence. */
export function pooledOutputs(outs: Output[], piece: (o: Output) => OutputPiece | null, lang: string): string {
  const blocks: string[] = [];
  let pool: string[] = [];
  const flush = () => {
    const text = pyRstrip(pool.join('\n'));
    if (text) blocks.push(fence(lang, text));
    pool = [];
  };
  for (const o of concatStreams(outs)) {
    const p = piece(o);
    if (!p) continue;
    if ('text' in p) pool.push(p.text.replace(/\n$/, ''));
    else if (p.md) {
      flush();
      blocks.push(p.md);
    }
  }
  flush();
  return blocks.join('\n\n');
}

/** A tool argument or result in a call summary: `¶` for newlines, cut to 40, JSON-quoted. */
function summaryArg(v: unknown): string {
  const s = (typeof v === 'string' ? v : pyJsonDumps(v)).replace(/\n/g, '¶');
  return JSON.stringify(cpLen(s) > 40 ? cpSlice(s, 40) + '…' : s);
}

/** A fenced `{.tool}` block as a folded div; python/bash calls show their code and output. */
function toolDiv(body: string): string | null {
  const call = parseJsonObject(body);
  if (!call || typeof call.name !== 'string') return null;
  const c = call as { name: string; args?: Record<string, unknown>; result?: unknown };
  const args = isJsonObject(c.args as Json) ? c.args! : {};
  const head = `${c.name}(${Object.keys(args).map((k) => `${k}=${summaryArg(args[k])}`).join(', ')})→${summaryArg(c.result ?? '')}`;
  const keys = Object.keys(args);
  const codeKey = keys.length === 1 && (c.name === 'python' || c.name === 'bash') ? keys[0] : null;
  const detail = codeKey
    ? `Code:\n${fence(c.name, String(args[codeKey]))}\n\nOutput:\n\n${fence('', pyStr(c.result ?? ''))}`
    : fence('json', pyJsonDumps(call, { indent: 2 }));
  return div('{.details .tool-usage-details}', `## ${codeSpan(head)}\n\n${detail}`);
}

/**
 * A fenced `{.usage}` block as a folded div: the summary as heading, the detail as code; a block of
 * usage fields shows them as Solveit's fold would (`$0.0012`, `total=… | in=… | out=…`).
 */
function usageDiv(body: string): string | null {
  const o = parseJsonObject(body);
  if (!o) return null;
  const u = o.summary === undefined && o.detail === undefined ? parseUsage(body) : null;
  const summary = u ? usageSummary(u) : pyStr(o.summary ?? '');
  const detail = u ? usageDetail(u) : pyStr(o.detail ?? '');
  return div('{.details .token-usage-details}', `## ${summary}\n\n${codeSpan(detail)}`);
}

function replyMd(reply: string): string {
  let out = '';
  let pos = 0;
  for (const b of fencedBlocks(reply)) {
    const folded = b.info === TOOL_INFO ? toolDiv(b.body) : b.info === USAGE_INFO ? usageDiv(b.body) : null;
    if (folded === null) continue;
    out += reply.slice(pos, b.start) + folded + '\n';
    pos = b.end;
  }
  out += reply.slice(pos);
  return div('reply', dropTrailingNewlines(out));
}

/** One message as markdown (`""` for empty code). */
export function msg2md(m: Message): string {
  switch (m.msgType) {
    case 'note':
      return noteMd(m);
    case 'raw':
      return fence('', m.content);
    case 'prompt': {
      const reply = aiRes(m);
      const p = div('prompt', dropTrailingNewlines(noteMd(m)));
      return pyStrip(reply) ? `${p}\n\n${replyMd(reply)}` : p;
    }
    default: {
      if (!m.content) return '';
      const code = fence('python', m.content);
      const outs = outputsMd(m.outputs);
      return outs ? `${code}\n\n${div('output', outs)}` : code;
    }
  }
}

/** The dialog as one markdown document: non-empty renderings joined by blank lines, final newline. */
export function dlg2md(d: Dialog): string {
  return d.messages.map(msg2md).filter((x) => x).join('\n\n') + '\n';
}
