// The media of an open dialog as the model gets it, for the answer and the History tab alike: its `#ai`
// files read (fileRefs.ts) and its raster images scaled down. The scaled images are kept per dialog for
// the session (an unchanged image is resized once, not on every answer), and the resizer (`sharp` on
// the desktop) is loaded only when a dialog has an image to scale.

import * as vscode from 'vscode';
import { DEFAULT_MAX_PIXELS, FileRefs, ImageResizer, PreparedImages, prepareMedia } from '../../core/hist';
import { Message } from '../../core/model';
import { config } from '../config';
import { platform } from '../platform';
import { dialogFiles } from './fileRefs';

/** Images scaled down and `#ai` files read: what `dlg2chat` looks up synchronously. */
export interface DialogMedia {
  images?: PreparedImages;
  files?: FileRefs;
}

const prepared = new WeakMap<vscode.NotebookDocument, { maxPixels: number; images: PreparedImages }>();

/** The dialog's scaled images so far (a new set when `dialogNotebook.history.maxImagePixels` changed). */
export function dialogImages(nb: vscode.NotebookDocument): PreparedImages {
  const maxPixels = config.maxImagePixels(DEFAULT_MAX_PIXELS);
  let p = prepared.get(nb);
  if (!p || p.maxPixels !== maxPixels) prepared.set(nb, (p = { maxPixels, images: new PreparedImages({ byContent: true }) }));
  return p.images;
}

/** The platform's resizer, loaded for the first image to scale; where none loads, images pass unchanged. */
const lazyResizer: ImageResizer = {
  resize(bytes, mime, maxPixels) {
    const r = platform().imageResizer();
    return r ? r.resize(bytes, mime, maxPixels) : Promise.resolve(bytes);
  },
};

/** Reads the `#ai` files of `messages` (the dialog's) and scales the images not scaled yet. */
export async function dialogMedia(nb: vscode.NotebookDocument, messages: readonly Message[]): Promise<DialogMedia & { files: FileRefs }> {
  const files = await dialogFiles(nb, messages);
  const images = dialogImages(nb);
  await prepareMedia(messages, lazyResizer, { maxPixels: config.maxImagePixels(DEFAULT_MAX_PIXELS), files, into: images });
  return { images, files };
}
