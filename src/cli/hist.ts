// `dlg hist`: what a model would be sent for a prompt, turn by turn, with a token estimate per turn.
import { Dialog } from '../core/model';
import { dlg2hist, HistTurn } from '../core/hist';
import { tokenEstimate } from '../core/hist';
import { Json } from '../core/base';
import { histRecord } from './goldenEncoding';
import { DEFAULT_MAX_PIXELS, FileRefs, prepareMedia } from '../core/hist';
import { sharpResizer } from '../node/sharpResizer';

export interface HistArgs {
  upto?: string;
  json: boolean;
  /** The dialog's `#ai` file refs as read (src/cli/fileRefs.ts). */
  files: FileRefs;
  /** Images above this many pixels are scaled down (with sharp, where it loads) as the model would get them. */
  maxPixels?: number;
}

const turnText = (t: HistTurn) =>
  typeof t === 'string' ? t : t.map((p) => (typeof p === 'string' ? p : p instanceof Uint8Array ? `[${p.length} bytes]` : `[${p.url}]`)).join('\n');

export async function histOutput(d: Dialog, args: HistArgs): Promise<string> {
  const resizer = sharpResizer();
  const images = resizer
    ? await prepareMedia(d.messages, resizer, { maxPixels: args.maxPixels ?? DEFAULT_MAX_PIXELS, files: args.files })
    : undefined;
  const turns = dlg2hist(d, { supports_vision: true }, { upto: args.upto, files: args.files, images });
  const tokens = turns.map((t) => tokenEstimate(turnText(t)));
  if (args.json) {
    const recs = histRecord(turns) as Json[];
    return JSON.stringify(recs.map((parts, k) => ({ role: k % 2 ? 'assistant' : 'user', tokens: tokens[k], parts })), null, 1) + '\n';
  }
  const total = tokens.reduce((a, b) => a + b, 0);
  const blocks = turns.map((t, k) => `── ${k % 2 ? 'assistant' : 'user'} · ~${tokens[k]} tokens ──\n${turnText(t)}\n`);
  return blocks.join('\n') + `\n── ${turns.length} turns · ~${total} tokens ──\n`;
}
