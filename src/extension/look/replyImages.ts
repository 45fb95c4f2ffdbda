// The images of a prompt's thumbnails, for the reply renderer when it shows them (see ImagesRequest in
// shared/replyOutput.ts): read from the prompt cell's metadata, where its attachments are kept.

import * as vscode from 'vscode';
import { ImagesReply, REPLY_RENDERER_ID, ReplyAttachments, isImagesRequest } from '../../shared/replyOutput';
import { NOTEBOOK_TYPE, PROMPT_LANG, cellState, rendererAttachments } from '../document/cells';

/** The attachments `names` of the prompt cell whose id is `cellId` (the first that has any of them). */
export function promptImages(nb: vscode.NotebookDocument, cellId: string, names: string[]): ReplyAttachments {
  for (const c of nb.getCells()) {
    if (c.kind !== vscode.NotebookCellKind.Code || c.document.languageId !== PROMPT_LANG) continue;
    const s = cellState(c);
    if ((s.id ?? '') !== cellId) continue;
    const found = rendererAttachments((s.attachments ?? []).filter((a) => names.includes(a.id) && !!a.data));
    if (Object.keys(found).length) return found;
  }
  return {};
}

export function registerReplyImages(context: vscode.ExtensionContext): void {
  const messaging = vscode.notebooks.createRendererMessaging(REPLY_RENDERER_ID);
  context.subscriptions.push(
    messaging.onDidReceiveMessage(({ editor, message }) => {
      if (editor.notebook.notebookType !== NOTEBOOK_TYPE || !isImagesRequest(message)) return;
      const reply: ImagesReply = { type: 'images', request: message.request, images: promptImages(editor.notebook, message.cell, message.names) };
      void messaging.postMessage(reply, editor);
    }),
  );
}
