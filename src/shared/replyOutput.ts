// The output a prompt's reply is shown by, shared by the extension (which makes it) and the notebook
// renderer (which shows it). The mime is ours alone: only our renderer, which sanitises, can show it.
// No imports: the renderer's bundle takes this without the dialog model.

export const REPLY_MIME = 'application/vnd.dialog-notebook.reply+markdown';

/** package.json's `notebookRenderer` id of that renderer, which the extension talks to. */
export const REPLY_RENDERER_ID = 'dialog-notebook.reply';

/** `metadata.attachments` of a reply output: nbformat's shape, name → { mime → standard base64 }. */
export type ReplyAttachments = { [name: string]: { [mime: string]: string } };

/**
 * The thumbnails a reply output names (`metadata.thumbnails`, `.cell`, `.sizes`): the attachments its
 * prompt's request shows, in order, the prompt's cell id and each image's byte length.
 */
export interface ReplyThumbnails {
  thumbnails: string[];
  cell: string;
  sizes: number[];
}

/**
 * A reply output names its thumbnails but does not carry their bytes (they are in the prompt cell's
 * metadata already, and a dialog's pasted screenshots weigh megabytes that VS Code would copy at every
 * open): the renderer asks the extension for the images of the thumbnails it shows, once each.
 * `metadata.cell` of the output is the prompt's cell id, `metadata.sizes` each thumbnail's byte length
 * (a changed image under the same name is asked for again).
 */
export interface ImagesRequest {
  type: 'images';
  request: number;
  cell: string;
  names: string[];
}

/** The extension's answer to an ImagesRequest: the images it found, by name. */
export interface ImagesReply {
  type: 'images';
  request: number;
  images: ReplyAttachments;
}

export function isImagesRequest(m: unknown): m is ImagesRequest {
  const r = m as ImagesRequest | null;
  return !!r && r.type === 'images' && typeof r.request === 'number' && typeof r.cell === 'string' && Array.isArray(r.names) && r.names.every((n) => typeof n === 'string');
}
