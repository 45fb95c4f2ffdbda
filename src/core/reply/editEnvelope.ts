// Editing one call inside a legacy `<details>` envelope in place (the minimal-edit rule): only the JSON
// fields that changed are rewritten, and the summary follows them in the form it had (escaped or
// not); the tag, the blank lines and every other field keep their bytes.

import { isJsonObject, Json, JsonObject, parseJsonObject, setKey } from '../base/json';
import { callPreview, previewArg, pyJsonDumps, toolText } from './blocks';
import { detailsEnvelopes } from './legacyEnvelopes';
import { htmlEscape } from './legacyDetails';

export interface EnvelopeEdit {
  /** New name and JSON arguments, when the call changed. */
  call?: { name: string; args: JsonObject };
  /** New result text, when it changed. */
  result?: string;
}

function preview(call: JsonObject, result: Json | undefined): string {
  const args = isJsonObject(call.arguments) ? call.arguments : {};
  const r = toolText(result ?? null);
  return callPreview(String(call.function ?? ''), args) + (r !== '' ? '→' + previewArg(r) : '');
}

/** `envelope` (one `<details>` tool envelope, exactly) with `edit` applied, or undefined when it is not one. */
export function editEnvelope(envelope: string, edit: EnvelopeEdit): string | undefined {
  const [env] = detailsEnvelopes(envelope);
  if (!env || env.start !== 0 || env.end !== envelope.length) return undefined;
  const d = parseJsonObject(env.body);
  if (!d || !isJsonObject(d.call)) return undefined;
  const oldPreview = preview(d.call, d.result);
  if (edit.call) {
    setKey(d.call, 'function', edit.call.name);
    setKey(d.call, 'arguments', edit.call.args);
  }
  if (edit.result !== undefined) setKey(d, 'result', edit.result);
  const at = envelope.lastIndexOf(env.body);
  let head = envelope.slice(0, at);
  const s = head.indexOf('<summary>');
  const e = head.indexOf('</summary>', s);
  if (s >= 0 && e > s) {
    // The summary is regenerated only when it is one we can recognise; a hand-written one stays.
    const old = head.slice(s + 9, e);
    const code = /^<code>([\s\S]*)<\/code>$/.exec(old);
    const inner = code ? code[1] : old;
    const now = preview(d.call, d.result);
    const next = inner === htmlEscape(oldPreview) ? htmlEscape(now) : inner === oldPreview ? now : undefined;
    if (next !== undefined) head = head.slice(0, s + 9) + (code ? `<code>${next}</code>` : next) + head.slice(e);
  }
  return head + pyJsonDumps(d, { indent: 2 }) + envelope.slice(at + env.body.length);
}
