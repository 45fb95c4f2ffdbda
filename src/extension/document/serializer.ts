// The NotebookSerializer: bytes -> core Dialog -> NotebookData on open, and back on save. A file that the
// core cannot read throws, so VS Code shows an error editor and never writes it.

import * as vscode from 'vscode';
import { DialogReadError, readIpynb, withoutUnreferencedAttachments, writeIpynb } from '../../core/ipynb';
import { DEFAULT_CODE_LANG, NOTEBOOK_TYPE, dlg2notebook, notebook2dlg } from './cells';
import { Dialog } from '../../core/model';
import { savedDialog } from '../../core/reply';
import { savedOutputs } from './streamingReplies';
import { config } from '../config';
import { BOOKKEEPING, noteFileRead } from './origins';
import { withBookkeeping } from './bookkeeping';
import { log } from '../log';
import { noteWritten } from './ownWrites';

/**
 * Cell outputs and metadata are content: changing them dirties the document and is saved. Our storage
 * bookkeeping is not: VS Code's diff and dirty state ignore it, and a save finds it in the open notebook
 * (origins.ts, bookkeeping.ts).
 */
export const SERIALIZER_OPTIONS: vscode.NotebookDocumentContentOptions = {
  transientOutputs: false,
  transientCellMetadata: { [BOOKKEEPING]: true },
  transientDocumentMetadata: { [BOOKKEEPING]: true },
};

export class DialogSerializer implements vscode.NotebookSerializer {
  constructor(private readonly codeLanguage: () => string = () => DEFAULT_CODE_LANG) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    let text: string;
    try {
      // Keep a BOM for the core to see; reject bytes that are not UTF-8 rather than mangle them on save.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(content);
    } catch {
      log.error('Cannot open as a dialog: the file is not valid UTF-8 text.');
      throw new Error('Cannot open as a dialog: the file is not valid UTF-8 text.');
    }
    // A brand-new file (e.g. "New Dialog" saved for the first time) is an empty dialog.
    if (!text.trim()) return dlg2notebook(new Dialog(), this.codeLanguage());
    try {
      const d = readIpynb(text);
      const token = (d.origin as { file?: unknown } | undefined)?.file;
      if (typeof token === 'string') noteFileRead(token); // a reload is told by its cells (outsideChanges.ts)
      return dlg2notebook(d, this.codeLanguage());
    } catch (e) {
      // One line saying what is wrong: the read error's own, else what broke (a bug to report).
      const cause = e instanceof DialogReadError ? e.message : `unexpected error (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}); please report it`;
      const why = `Cannot open as a dialog: ${cause.split('\n', 1)[0]}`;
      log.error(why);
      throw new Error(why, { cause: e });
    }
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    // Exploded reply cells still in the notebook are written back as their prompt's reply; a reply still
    // streaming is not saved (streamingReplies.ts); an image pasted and undone leaves its attachment in the
    // cell's metadata, which is not written.
    const whole = withBookkeeping(data);
    const cells = whole.cells.map((c) => ({ ...c, outputs: savedOutputs(c) }));
    const text = writeIpynb(withoutUnreferencedAttachments(savedDialog(notebook2dlg({ cells, metadata: whole.metadata }))));
    noteWritten(text); // our own write when the file holds it (outsideChanges.ts)
    return new TextEncoder().encode(text);
  }
}

export function registerSerializer(context: vscode.ExtensionContext): void {
  const lang = () => config.defaultCodeLanguage;
  context.subscriptions.push(vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new DialogSerializer(lang), SERIALIZER_OPTIONS));
}
