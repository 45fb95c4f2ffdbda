// Read-only text documents a command fills (Compare with Parent, Open Changes as Text): their texts by
// uri, so a document closed and opened again shows them again while the window lives.

import * as vscode from 'vscode';

export class ReadOnlyDocs implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** `command`: what to run again for a document whose text this window no longer holds. */
  constructor(private readonly command: string) {}

  put(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? `(no longer available: run ${this.command} again)\n`;
  }
}
