// The NotebookSerializer: bytes -> core Dialog -> NotebookData on open, and back on save. A file that the
// core cannot read throws, so VS Code shows an error editor and never writes it.

import * as vscode from 'vscode';
import { readIpynb, writeIpynb } from '../../core/ipynb';
import { DEFAULT_CODE_LANG, NOTEBOOK_TYPE, dlg2notebook, notebook2dlg } from './cells';
import { Dialog } from '../../core/model';
import { implodeExploded } from '../../core/reply';

/** Cell outputs and metadata are content: changing them dirties the document and is saved. */
export const SERIALIZER_OPTIONS: vscode.NotebookDocumentContentOptions = {
  transientOutputs: false,
  transientCellMetadata: {},
  transientDocumentMetadata: {},
};

export class DialogSerializer implements vscode.NotebookSerializer {
  constructor(private readonly codeLanguage: () => string = () => DEFAULT_CODE_LANG) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    let text: string;
    try {
      // Keep a BOM for the core to see; reject bytes that are not UTF-8 rather than mangle them on save.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(content);
    } catch {
      throw new Error('Cannot open as a dialog: the file is not valid UTF-8 text.');
    }
    // A brand-new file (e.g. "New Dialog" saved for the first time) is an empty dialog.
    if (!text.trim()) return dlg2notebook(new Dialog(), this.codeLanguage());
    try {
      return dlg2notebook(readIpynb(text), this.codeLanguage());
    } catch (e) {
      throw new Error(`Cannot open as a dialog: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const d = notebook2dlg(data);
    // Exploded reply cells still in the notebook are written back as their prompt's reply.
    implodeExploded(d);
    return new TextEncoder().encode(writeIpynb(d));
  }
}

export function registerSerializer(context: vscode.ExtensionContext): void {
  const lang = () => vscode.workspace.getConfiguration('dialogNotebook').get<string>('defaultCodeLanguage') || DEFAULT_CODE_LANG;
  context.subscriptions.push(vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new DialogSerializer(lang), SERIALIZER_OPTIONS));
}
