// The dialog document: a dialog as a VS Code notebook and back. The serializer (bytes -> core Dialog ->
// cells on open, and back on save), Message <-> cell (cells.ts, with each cell's state in its metadata)
// and nbformat outputs <-> cell outputs, the storage origins of read cells (origins.ts) and the
// serializer's side of them (bookkeeping.ts), the texts our saves wrote (ownWrites.ts), what a save writes
// while a reply streams (streamingReplies.ts), and one Dialog per notebook version (dialogCache.ts) that
// every reader shares. The ground floor: it imports no other room of the extension.

import * as vscode from 'vscode';
import { followDialogs } from './dialogCache';
import { registerSerializer } from './serializer';
import { registerOrigins } from './origins';

export function registerDocument(context: vscode.ExtensionContext): void {
  // First: every other listener that reads a dialog sees it with this change event's cells.
  context.subscriptions.push(followDialogs());
  registerSerializer(context);
  registerOrigins(context);
}
