// CRAFT.ipynb files (solveit-features: folder context inherited by subfolders): their notes and prompts,
// with replies, go to the model before the dialog's own messages without becoming cells of it; their
// code runs in the dialog's kernel instead (the host does that).

import { Dialog, Message, promptOutput, truthy } from '../model/dialog';
import { dlg2chat } from './chat';
import { histMessages } from './hist';
import { AimInfo } from './media';
import { Msg } from './parts';
import { PreviewTurn, chatTurns } from './preview';

/** One CRAFT file found for a dialog, root-most first: read, or why it could not be. */
export interface CraftFile {
  /** How the user knows the file: its path in the workspace. */
  name: string;
  dialog?: Dialog;
  /** Why it could not be read (then it is left out). */
  error?: string;
}

export interface CraftContext {
  files: readonly CraftFile[];
  /** The turns sent before the dialog's messages (user, assistant, …, ending with an assistant turn). */
  chat: Msg[];
  /** The History tab's view of `chat`: each file's first turn starts with its labelled `craft` part. */
  turns: PreviewTurn[];
  tokens: number;
  /** The code cells to run in the dialog's kernel, in order, with the file each comes from. */
  code: { name: string; source: string }[];
  /** The files that could not be read, with the reason. */
  unreadable: string[];
}

export const EMPTY_CRAFT: CraftContext = { files: [], chat: [], turns: [], tokens: 0, code: [], unreadable: [] };

const ACK = 'Understood: I will keep this context in mind.';

/** The notes and prompts of a CRAFT dialog the model is sent, closed by a prompt naming the file (so it ends with an answer). */
function craftMessages(name: string, d: Dialog): Message[] {
  const msgs = histMessages(d.messages).filter((m) => m.msgType === 'note' || m.msgType === 'prompt');
  if (!msgs.length) return [];
  const close = new Message({ msgType: 'prompt', content: `(The messages above are the CRAFT context of ${name}: background for this folder's dialogs.)`, output: promptOutput(ACK) });
  return [...msgs, close];
}

/** Code cells of a CRAFT dialog that run in the kernel (skipped ones do not). */
function craftCode(d: Dialog): string[] {
  return d.messages.filter((m) => m.msgType === 'code' && !truthy(m.skipped) && m.content.trim()).map((m) => m.content);
}

/** The context that `files` (root-most first) give a dialog; `aim` null means vision on. */
export function craftContext(files: readonly CraftFile[], aim: AimInfo | null = null): CraftContext {
  if (!files.length) return EMPTY_CRAFT;
  const chat: Msg[] = [];
  const turns: PreviewTurn[] = [];
  const code: CraftContext['code'] = [];
  const unreadable: string[] = [];
  for (const f of files) {
    if (!f.dialog) {
      unreadable.push(`${f.name}: ${f.error ?? 'unreadable'}`);
      continue;
    }
    for (const source of craftCode(f.dialog)) code.push({ name: f.name, source });
    const msgs = craftMessages(f.name, f.dialog);
    if (!msgs.length) continue;
    const own = dlg2chat(msgs, aim);
    const shown = chatTurns(own);
    const tokens = shown.reduce((n, t) => n + t.tokens, 0);
    const n = msgs.length - 1;
    shown[0].parts.unshift({ kind: 'craft', text: `CRAFT ${f.name}: ${n} message${n === 1 ? '' : 's'}, ~${tokens} tokens` });
    chat.push(...own);
    turns.push(...shown);
  }
  const tokens = turns.reduce((n, t) => n + t.tokens, 0);
  return { files, chat, turns, tokens, code, unreadable };
}

/** The History tab's parts for CRAFT files that could not be read. */
export function craftNotes(craft: CraftContext): PreviewTurn['parts'] {
  return craft.unreadable.map((u) => ({ kind: 'craft', text: `CRAFT left out, it could not be read: ${u}` }));
}

/** A CRAFT file that exists now: its key (a URI) and stamp (its mtime and size, say), which change when it does. */
export interface CraftStamp {
  key: string;
  stamp: string;
}

/**
 * CRAFT files read once per change: each is kept with the stamp it was read at and read again only when
 * its stamp differs; a dialog's context is rebuilt only when one of its files was. The host stats the
 * files and reads them (`read`); for unchanged files a request costs a lookup.
 */
export class CraftStore {
  private readonly reads = new Map<string, { stamp: string; file: CraftFile }>();
  private readonly built = new Map<string, { files: CraftFile[]; craft: CraftContext }>();

  /** The context of dialog `dialogKey` from the CRAFT files `found` (root-most first). */
  async context(dialogKey: string, found: readonly CraftStamp[], read: (key: string) => Promise<CraftFile>, aim: AimInfo | null = null): Promise<CraftContext> {
    const files: CraftFile[] = [];
    for (const f of found) {
      let had = this.reads.get(f.key);
      if (had?.stamp !== f.stamp) {
        had = { stamp: f.stamp, file: await read(f.key) };
        this.reads.set(f.key, had);
      }
      files.push(had.file);
    }
    const key = `${dialogKey}|${aim?.supports_vision === false ? 'text' : 'vision'}`;
    const prev = this.built.get(key);
    if (prev && prev.files.length === files.length && prev.files.every((f, k) => f === files[k])) return prev.craft;
    const craft = craftContext(files, aim);
    this.built.set(key, { files, craft });
    return craft;
  }

  /** The context last built for the dialog (none before the first `context`). */
  known(dialogKey: string, aim: AimInfo | null = null): CraftContext {
    return this.built.get(`${dialogKey}|${aim?.supports_vision === false ? 'text' : 'vision'}`)?.craft ?? EMPTY_CRAFT;
  }

  /** Forgets a dialog that closed. */
  forget(dialogKey: string): void {
    for (const k of [...this.built.keys()]) if (k.startsWith(`${dialogKey}|`)) this.built.delete(k);
  }
}
