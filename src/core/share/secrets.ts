// Where a shared dialog could leak a secret: every text a reader gets, by message and part, and the
// secrets the extension itself holds (API keys) found in them. The maintained rule set (secretlint) runs
// outside core over the same texts; both report a message and a line.

import { isJsonObject } from '../base/json';
import { Dialog } from '../model/dialog';
import { aiRes, joinOut } from '../model/outputs';

export type SharePart = 'text' | 'reply' | 'output' | 'attachment';

export interface ShareText {
  /** The message's id and position in the shared dialog. */
  id: string;
  index: number;
  part: SharePart;
  text: string;
}

export interface SecretHit {
  id: string;
  index: number;
  part: SharePart;
  /** 1-based line within the part. */
  line: number;
  /** What was found ("Anthropic API key", or the rule's message). */
  what: string;
  /** The finding with most of it masked, for showing. */
  masked: string;
}

/** Every text a reader of the shared dialog gets: cell text, replies, text outputs, text attachments. */
export function shareTexts(d: Dialog, indexes?: readonly number[]): ShareText[] {
  const out: ShareText[] = [];
  d.messages.forEach((m, k) => {
    const index = indexes?.[k] ?? k;
    const push = (part: SharePart, text: string) => text && out.push({ id: m.id, index, part, text });
    push('text', m.content);
    if (m.msgType === 'prompt') push('reply', aiRes(m));
    else
      for (const o of m.outputs) {
        if (o.output_type === 'stream') push('output', joinOut(o.text));
        else if (o.output_type === 'error') push('output', [joinOut(o.evalue), ...(Array.isArray(o.traceback) ? o.traceback.map((x) => joinOut(x)) : [])].join('\n'));
        else if (isJsonObject(o.data))
          for (const [mime, v] of Object.entries(o.data)) if (/^text\/|json/.test(mime)) push('output', joinOut(v));
      }
    for (const a of m.attachments) if (/^text\/|json/.test(a.contentType)) push('attachment', new TextDecoder().decode(a.data));
  });
  return out;
}

/** A secret with all but its first 4 and last 2 characters hidden. */
export function maskSecret(s: string): string {
  return s.length <= 8 ? '•'.repeat(s.length) : `${s.slice(0, 4)}${'•'.repeat(Math.min(12, s.length - 6))}${s.slice(-2)}`;
}

/** The 1-based line of offset `at` in `text`. */
export function lineAt(text: string, at: number): number {
  let n = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < at; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

/** The known secrets (named, e.g. "Anthropic API key") found in `texts`; secrets shorter than 8 are ignored. */
export function findKnownSecrets(texts: readonly ShareText[], known: readonly { name: string; value: string }[]): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const k of known) {
    if (k.value.length < 8) continue;
    for (const t of texts) {
      for (let at = t.text.indexOf(k.value); at >= 0; at = t.text.indexOf(k.value, at + k.value.length)) {
        hits.push({ id: t.id, index: t.index, part: t.part, line: lineAt(t.text, at), what: k.name, masked: maskSecret(k.value) });
      }
    }
  }
  return hits;
}

/** A hit as the preview and errors name it: "message 12 (reply), line 3: Anthropic API key sk-a••••4f". */
export function hitText(h: SecretHit): string {
  return `message ${h.index + 1}${h.part === 'text' ? '' : ` (${h.part})`}, line ${h.line}: ${h.what} ${h.masked}`;
}
