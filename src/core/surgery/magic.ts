// The `%%add_msg` magic-line grammar (surgery.md, end), for a command palette or a magic cell:
//   %%add_msg [PATH] [code|note|prompt|raw] [export] [before=ID|after=ID] [dlg=…] [msg_type=…]
// followed by the body, taken verbatim as the source (trailing newlines removed).

import { DialogError, isMsgType } from '../model/dialog';
import { dropTrailingNewlines } from '../reply/blocks';

export interface AddMsgMagic {
  /** The dialog path (bare token or `dlg=`), or null for the current dialog. */
  dlg: string | null;
  msgType: string;
  export: boolean;
  before: string | null;
  after: string | null;
  source: string;
}

/** POSIX shell word splitting (Python `shlex.split`): quotes, backslash escapes, no expansion. */
export function shellSplit(s: string): string[] {
  const words: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (/\s/.test(c)) {
      if (cur !== null) words.push(cur);
      cur = null;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new DialogError('No closing quotation');
      cur = (cur ?? '') + s.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      cur ??= '';
      for (i++; ; i++) {
        if (i >= s.length) throw new DialogError('No closing quotation');
        if (s[i] === '"') break;
        if (s[i] === '\\' && i + 1 < s.length && '\\"$`\n'.includes(s[i + 1])) i++;
        cur += s[i];
      }
    } else if (c === '\\') {
      if (i + 1 >= s.length) throw new DialogError('No escaped character');
      cur = (cur ?? '') + s[++i];
    } else cur = (cur ?? '') + c;
  }
  if (cur !== null) words.push(cur);
  return words;
}

const TRUE_WORDS = new Set(['', '1', 'true', 'yes', 'on']);

/** Parses a `%%add_msg` cell (magic line plus body). Keywords win over bare tokens. */
export function parseAddMsgMagic(text: string): AddMsgMagic {
  const nl = text.indexOf('\n');
  const line = nl < 0 ? text : text.slice(0, nl);
  const body = nl < 0 ? '' : text.slice(nl + 1);
  const m = /^\s*%%add_msg(?:\s+|$)(.*)$/.exec(line);
  if (!m) throw new DialogError(`not an %%add_msg line: ${line}`);
  const bare: { dlg: string | null; msgType: string | null; export: boolean } = { dlg: null, msgType: null, export: false };
  const kw = new Map<string, string>();
  for (const tok of shellSplit(m[1])) {
    const eq = tok.indexOf('=');
    if (eq > 0) {
      const k = tok.slice(0, eq);
      if (!['dlg', 'msg_type', 'before', 'after', 'export'].includes(k)) throw new DialogError(`unknown %%add_msg keyword '${k}'`);
      kw.set(k, tok.slice(eq + 1));
    } else if (isMsgType(tok)) bare.msgType = tok;
    else if (tok === 'export') bare.export = true;
    else if (bare.dlg === null) bare.dlg = tok;
    else throw new DialogError(`%%add_msg takes one dialog path, got '${bare.dlg}' and '${tok}'`);
  }
  const msgType = kw.get('msg_type') ?? bare.msgType ?? 'code';
  if (!isMsgType(msgType)) throw new DialogError(`unknown msg_type '${msgType}'`);
  if (kw.has('before') && kw.has('after')) throw new DialogError('Pass at most one of before/after');
  return {
    dlg: kw.get('dlg') ?? bare.dlg,
    msgType,
    export: kw.has('export') ? TRUE_WORDS.has(kw.get('export')!.toLowerCase()) : bare.export,
    before: kw.get('before') ?? null,
    after: kw.get('after') ?? null,
    source: dropTrailingNewlines(body),
  };
}
