// What a search indexes of a dialog: one row per message part, the prompt and its reply apart, outputs as
// the text a person read (streams, text/plain, errors), never image bytes or attachments' base64.

import { isJsonObject } from '../base/json';
import { cleanCliOutput, stripAnsi } from '../base/ansi';
import { Dialog, Message, truthy } from '../model/dialog';
import { aiRes, joinOut } from '../model/outputs';

/** What a hit is: labels the quick pick shows and `kind:` filters on. */
export type SearchKind = 'prompt' | 'reply' | 'code' | 'output' | 'note' | 'raw';
export const SEARCH_KINDS: readonly SearchKind[] = ['prompt', 'reply', 'code', 'output', 'note', 'raw'];

export interface SearchPart {
  /** The message's id. */
  id: string;
  kind: SearchKind;
  text: string;
  /** Hidden from the AI (`skipped`): found, and marked so. */
  skipped: boolean;
}

/** Text past this many characters of one part is not indexed (a 50 MB output stays searchable at its head). */
export const PART_TEXT_LIMIT = 200_000;

function cap(s: string): string {
  return s.length > PART_TEXT_LIMIT ? s.slice(0, PART_TEXT_LIMIT) : s;
}

/** The text of a code message's outputs: streams as a terminal showed them, text/plain, errors; no images, no HTML. */
export function outputText(m: Message): string {
  const out: string[] = [];
  for (const o of m.outputs) {
    if (!isJsonObject(o)) continue;
    if (o.output_type === 'stream') out.push(cleanCliOutput(stripAnsi(joinOut(o.text))));
    else if (o.output_type === 'error') {
      const tb = Array.isArray(o.traceback) ? o.traceback.map((l) => stripAnsi(joinOut(l))).join('\n') : '';
      out.push(tb || `${joinOut(o.ename)}: ${joinOut(o.evalue)}`);
    } else if (isJsonObject(o.data) && o.data['text/plain'] !== undefined) out.push(joinOut(o.data['text/plain']));
  }
  return dropBase64(out.join('\n'));
}

/** A printed data URI or base64 blob in an output is bytes, not words: it would only fill the index. */
function dropBase64(s: string): string {
  return s.replace(/[A-Za-z0-9+/=]{256,}/g, '…');
}

/** The parts of one message that have text. */
export function messageSearchParts(m: Message): SearchPart[] {
  const skipped = truthy(m.skipped);
  const parts: SearchPart[] = [];
  const add = (kind: SearchKind, text: string): void => {
    if (text.trim()) parts.push({ id: m.id, kind, text: cap(text), skipped });
  };
  switch (m.msgType) {
    case 'prompt':
      add('prompt', m.content);
      add('reply', aiRes(m));
      break;
    case 'code':
      add('code', m.content);
      add('output', outputText(m));
      break;
    case 'raw':
      add('raw', m.content);
      break;
    default:
      add('note', m.content);
  }
  return parts;
}

/** Every part of a dialog, in message order. */
export function dialogParts(d: Dialog): SearchPart[] {
  return d.messages.flatMap(messageSearchParts);
}
