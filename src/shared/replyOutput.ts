// The output a prompt's reply is shown by, shared by the extension (which makes it) and the notebook
// renderer (which shows it). The mime is ours alone: only our renderer, which sanitises, can show it.
// No imports: the renderer's bundle takes this without the dialog model.

export const REPLY_MIME = 'application/vnd.dialog-notebook.reply+markdown';

/** `metadata.attachments` of a reply output: nbformat's shape, name → { mime → standard base64 }. */
export type ReplyAttachments = { [name: string]: { [mime: string]: string } };

/** `metadata.thumbnails` of a reply output: the names of the attachments its prompt's request shows, in order. */
export type ReplyThumbnails = string[];
