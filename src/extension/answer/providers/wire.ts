// What both chat APIs share on the wire: the tool names and call ids they accept, and tool-call
// arguments streamed as JSON fragments.

import { JsonObject, isJsonObject, parseJson } from '../../../core';

/** A name or id as the APIs accept it (`^[a-zA-Z0-9_-]{1,64}$`); dialogs hold dotted names (`tools.write_stdin`). */
export function wireName(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || '_';
}

/** A call's gathered argument JSON; an unparseable or non-object input is kept whole under `input`. */
export function callArgs(json: string): JsonObject {
  if (!json.trim()) return {};
  try {
    const v = parseJson(json).value;
    return isJsonObject(v) ? v : { input: v };
  } catch {
    return { input: json };
  }
}
