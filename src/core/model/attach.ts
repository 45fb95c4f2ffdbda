// What a pasted or dropped file becomes in a note or a prompt. An image becomes an attachment of the cell
// named by a fresh UUID-4 without extension, its mime the bundle's key (DECISIONS "name of a pasted or
// dropped image attachment"): only UUID-shaped `attachment:` references are sent to the model. Any other
// file is referenced as Solveit writes it, `![](path#ai)`, and read under the `#ai` rules when sent.

import mime from 'mime';
import { Attachment } from './dialog';
import { humanize } from './preview';

const ATTACHABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The image mime of a file name by its extension (attachable or not), undefined for other files. */
export function imageMimeOfName(name: string): string | undefined {
  const t = mime.getType(name.replace(/^.*[/\\]/, ''));
  return t?.startsWith('image/') ? t : undefined;
}

export function isAttachableImage(type: string): boolean {
  return ATTACHABLE.has(type.toLowerCase());
}

/** A refusal: one line saying why nothing changed. */
export interface Refusal {
  refused: string;
}

export const isRefusal = (x: unknown): x is Refusal => typeof x === 'object' && x !== null && typeof (x as Refusal).refused === 'string';

const TYPES_TEXT = 'PNG, JPEG, GIF or WebP';

/** Why an image of `size` bytes is refused, if it is: over `maxBytes` (checked before reading a file). */
export function sizeRefusal(label: string, size: number, maxBytes: number): Refusal | undefined {
  if (size <= maxBytes) return undefined;
  return { refused: `Not attached: ${label} is ${humanize(size)}B, over dialogNotebook.history.maxFileBytes (${humanize(maxBytes)}B).` };
}

/**
 * The attachment for an image's bytes, or why it is refused: a type other than PNG, JPEG, GIF or WebP,
 * or more than `maxBytes`. Bytes that do not decode are still attached (the history reports them).
 */
export function imageAttachment(bytes: Uint8Array, mime: string, label: string, maxBytes: number): Attachment | Refusal {
  const type = mime.toLowerCase();
  if (!isAttachableImage(type)) return { refused: `Not attached: ${label} is ${type || 'of an unknown type'}; a dialog takes ${TYPES_TEXT} images.` };
  return sizeRefusal(label, bytes.length, maxBytes) ?? new Attachment(bytes, type);
}

/** The markdown that shows and sends an attachment. */
export function attachmentMarkdown(a: Attachment): string {
  return `![](attachment:${a.id})`;
}

/**
 * Solveit's `#ai` reference to a file, by its '/'-separated path relative to the dialog's folder, or why
 * it cannot be written as one (the reference syntax ends at `)` and `#`).
 */
export function fileRefMarkdown(relPath: string): string | Refusal {
  if (/[)#\n\r]/.test(relPath)) return { refused: `Not referenced: ${relPath} has a ")", "#" or line break, which a #ai reference cannot hold.` };
  return `![](${relPath}#ai)`;
}
