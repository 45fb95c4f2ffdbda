// Where a reply's tool calls stand, with what they say, for showing them (the reply renderer): both wire
// forms, read from their JSON only, so a summary line written by hand or unescaped (`<http://…>`)
// cannot change what is shown.

import { isJsonObject, JsonObject, parseJsonObject } from '../base/json';
import { fencedBlocks, toolText, TOOL_INFO } from './blocks';
import { legacyToolBlocks } from './legacyDetails';

export interface ToolSpan {
  /** Offsets of the block in the reply. */
  start: number;
  end: number;
  name: string;
  args: JsonObject;
  /** The result as text, with its real line breaks. */
  result: string;
  server: boolean;
}

function span(start: number, end: number, body: string): ToolSpan | undefined {
  const v = parseJsonObject(body);
  if (!v || typeof v.name !== 'string') return undefined;
  return { start, end, name: v.name, args: isJsonObject(v.args) ? v.args : {}, result: toolText(v.result ?? null), server: !!v.server };
}

/** The tool calls of `reply`, legacy envelopes and fenced blocks, in order and not overlapping. */
export function toolSpans(reply: string): ToolSpan[] {
  const out: ToolSpan[] = [];
  for (const b of legacyToolBlocks(reply)) {
    const s = span(b.start, b.end, fencedBlocks(b.fenced)[0]?.body ?? '');
    if (s) out.push(s);
  }
  const inLegacy = (at: number) => out.some((s) => s.start <= at && at < s.end);
  const legacy = out.length;
  for (const b of reply.includes(TOOL_INFO) ? fencedBlocks(reply) : []) {
    if (b.info !== TOOL_INFO || (legacy && inLegacy(b.start))) continue;
    const s = span(b.start, b.end, b.body);
    if (s) out.push(s);
  }
  out.sort((a, b) => a.start - b.start);
  return out.filter((s, k) => k === 0 || s.start >= out[k - 1].end);
}
