// The `<details class='tool-usage-details'>` reply envelopes (reply-format §10): the seeds' format and
// what most real files hold. Read by converting them to fenced blocks (`convTools`); written again by
// `dlg2reply` for replies that already used them (DECISIONS, "reply wire format").

import { isJsonObject, Json, parseJsonObject } from '../base/json';
import { truthy } from '../model/dialog';
import { detailsEnvelopes, divEnvelopes, tokenEnvelopes } from './legacyEnvelopes';
import { callPreview, fenced, previewArg, pyJsonDumps, ToolCallData, toolText, TOOL_INFO, truncStr, USAGE_INFO } from './blocks';

// Solveit wrote the tag without `markdown='1'`; fastllm with it. Both close with `</details>`.
// legacyEnvelopes.ts finds them (and the never-released `:::` div variant) in linear time.
export const TOOL_TAG = "<details class='tool-usage-details' markdown='1'>";
export const TOKEN_TAG = "<details class='token-usage-details' markdown='1'>";

// The div variant of the token envelope: one line and its newline runs, no lazy part to rescan.
const DIV_TOKEN = /^(:{3,}) \{\.details \.token-usage-details\}\n*(?:## ([^\n]*)\n*)?`([^`\n]*)`\n*\1$\n?/gm;

/** A legacy tool envelope found in a reply: its bytes and the fenced block it stands for. */
export interface LegacyBlock {
  start: number;
  end: number;
  /** The fenced `json {.tool}` block that replaces it. */
  fenced: string;
  /** The call id it records. */
  id: Json;
}

/** The fenced block for one envelope's JSON, or undefined when it is not a readable call record. */
function convertPayload(json: string): { fenced: string; id: Json } | undefined {
  const d = parseJsonObject(json);
  if (!d || !isJsonObject(d.call)) return undefined;
  const call = d.call;
  const payload: Record<string, unknown> = { id: d.id ?? null, name: call.function ?? null, args: call.arguments || {}, result: d.result ?? null };
  if (truthy(d.server)) payload.server = true;
  return { fenced: fenced(pyJsonDumps(payload, { indent: 2 }), TOOL_INFO), id: d.id ?? null };
}

/** Every legacy tool envelope in `text`, in order. */
export function legacyToolBlocks(text: string): LegacyBlock[] {
  if (!text.includes('tool-usage-details')) return [];
  const out: LegacyBlock[] = [];
  for (const e of [...detailsEnvelopes(text), ...divEnvelopes(text)]) {
    const f = convertPayload(e.body);
    if (f) out.push({ start: e.start, end: e.end, ...f });
  }
  return out.sort((a, b) => a.start - b.start);
}

function usageBlock(summary: string, detail: string): string {
  return fenced(pyJsonDumps({ summary, detail }), USAGE_INFO);
}

/** Rewrites the legacy tool envelopes only, leaving token envelopes as they are. */
export function convToolEnvelopes(text: string): string {
  let out = '';
  let at = 0;
  for (const b of legacyToolBlocks(text)) {
    if (b.start < at) continue;
    out += text.slice(at, b.start) + b.fenced;
    at = b.end;
  }
  return out + text.slice(at);
}

/** `conv_tools`: rewrites legacy tool and token envelopes into fenced blocks; idempotent (§10). */
export function convTools(text: string): string {
  if (!text.includes('-usage-details')) return text;
  const tools = convToolEnvelopes(text);
  let out = '';
  let at = 0;
  for (const e of tokenEnvelopes(tools)) {
    out += tools.slice(at, e.start) + usageBlock(e.summary, e.detail);
    at = e.end;
  }
  return (out + tools.slice(at)).replace(DIV_TOKEN, (_m, _c, s: string | undefined, d: string) => usageBlock(s ?? '', d));
}

export function htmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

/**
 * fastllm's `mk_tr_details`: the `<details>` envelope with its surrounding blank lines. Arguments are
 * stringified and truncated at mx*5 and the result at mx, unless mx is null.
 */
export function mkDetailsBlock(r: ToolCallData, mx: number | null = 2000): string {
  const given = r.arguments ?? {};
  const args = mx === null ? given : Object.fromEntries(Object.keys(given).map((k) => [k, truncStr(given[k], mx * 5)]));
  const result = truncStr(toolText(r.text), mx);
  const payload = { id: r.id, server: !!r.server, call: { function: r.name, arguments: args }, result };
  const summary = callPreview(r.name, args) + (result !== '' && result !== null ? '→' + previewArg(result) : '');
  return (
    `\n\n${TOOL_TAG}\n<summary><code>${htmlEscape(summary)}</code></summary>\n\n` +
    '```json\n' +
    pyJsonDumps(payload, { indent: 2 }) +
    '\n```\n\n</details>\n\n'
  );
}
