// Paste and drop into a note or a prompt of a dialog. An image (PNG, JPEG, GIF, WebP: from the clipboard,
// an OS file, the Explorer) becomes an attachment of the cell and `![](attachment:NAME)` at the cursor:
// the text and the cell's metadata change in one WorkspaceEdit, so one Undo removes both, and nothing is
// written to the folder. A file that is not an image, dropped on a prompt, becomes Solveit's `#ai`
// reference to it. VS Code's own edits (paste as text, copy the file and link it) stay offered beside ours.

import * as vscode from 'vscode';
import { Attachment, Refusal, attachmentMarkdown, fileRefMarkdown, imageAttachment, imageMimeOfName, isRefusal, sizeRefusal } from '../../core/model';
import { relativePath } from '../../core/fork';
import { DEFAULT_MAX_FILE_BYTES } from '../../core/hist';
import { config } from '../config';
import { log } from '../log';
import { refuse } from '../commands/feedback';
import { resolveCell } from '../commands/target';
import { NOTEBOOK_TYPE, PROMPT_LANG, cellLike, metadataWithAttachment } from '../document/cells';

/** The kind VS Code's markdown link and copy-file edits yield to in notebooks: cell attachments. */
export const ATTACH_KIND = vscode.DocumentDropOrPasteEditKind.Empty.append('markdown', 'link', 'image', 'attachment');
const FILE_REF_KIND = vscode.DocumentDropOrPasteEditKind.Empty.append('markdown', 'link', 'dialog', 'fileRef');

const SELECTOR: vscode.DocumentSelector = [
  { notebookType: NOTEBOOK_TYPE, language: 'markdown' },
  { notebookType: NOTEBOOK_TYPE, language: PROMPT_LANG },
];
const MIMES = ['image/*', 'files', 'text/uri-list'];

/** One pasted or dropped thing: a file's bytes (clipboard, OS) or a resource (Explorer). */
interface Item {
  name: string;
  mime: string;
  file?: vscode.DataTransferFile;
  uri?: vscode.Uri;
}

function items(dt: vscode.DataTransfer): Item[] {
  const files: Item[] = [];
  const seen = new Set<vscode.DataTransferFile>();
  for (const [mime, entry] of dt) {
    const file = entry.asFile();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    files.push({ name: file.name, mime: mime.startsWith('image/') ? mime : imageMimeOfName(file.name) ?? mime, file, uri: file.uri });
  }
  return files;
}

async function resources(dt: vscode.DataTransfer): Promise<Item[]> {
  const list = await dt.get('text/uri-list')?.asString();
  const out: Item[] = [];
  for (const line of list?.split(/\r?\n/) ?? []) {
    if (!line.trim() || line.startsWith('#')) continue;
    try {
      const uri = vscode.Uri.parse(line.trim(), true);
      const name = uri.path.replace(/^.*\//, '');
      out.push({ name, mime: imageMimeOfName(name) ?? '', uri });
    } catch {
      log.debug(`paste/drop: not a URI: ${line}`);
    }
  }
  return out;
}

const MEDIA = /^(image|audio|video)\//;

/** An image item's attachment, or why not; its size checked before its bytes are read. */
async function attach(it: Item, max: number): Promise<Attachment | Refusal> {
  try {
    if (!it.file && it.uri) {
      const big = sizeRefusal(it.name, (await vscode.workspace.fs.stat(it.uri)).size, max);
      if (big) return big;
    }
    const bytes = it.file ? await it.file.data() : await vscode.workspace.fs.readFile(it.uri!);
    return imageAttachment(bytes, it.mime, it.name, max);
  } catch (e) {
    return { refused: `Not attached: ${it.name} could not be read (${e instanceof Error ? e.message : String(e)}).` };
  }
}

/** The `#ai` reference from the dialog to a file of its workspace folder, or why there is none. */
function fileRef(nb: vscode.NotebookDocument, it: Item): string | Refusal {
  const uri = it.uri;
  const home = vscode.workspace.getWorkspaceFolder(nb.uri)?.uri ?? vscode.Uri.joinPath(nb.uri, '..');
  const inside = uri && uri.scheme === home.scheme && uri.authority === home.authority && (uri.path + '/').startsWith(home.path.replace(/\/?$/, '/'));
  if (!inside) return { refused: `Not referenced: ${it.name} is not a file of the dialog's workspace folder; drop it from the Explorer.` };
  return fileRefMarkdown(relativePath(nb.uri.path, uri.path));
}

interface Planned {
  text: string;
  edit?: vscode.WorkspaceEdit;
  kind: vscode.DocumentDropOrPasteEditKind;
  title: string;
}

/** What a paste or drop of `dt` into cell document `doc` does; undefined leaves it to VS Code's own edits. */
export async function planInsert(doc: vscode.TextDocument, dt: vscode.DataTransfer): Promise<Planned | Refusal | undefined> {
  const cell = resolveCell(doc.uri);
  if (!cell) return undefined;
  const prompt = cell.document.languageId === PROMPT_LANG;
  let found = items(dt);
  if (!found.length) found = await resources(dt);
  const max = config.maxFileBytes(DEFAULT_MAX_FILE_BYTES);
  const parts: string[] = [];
  const added: Attachment[] = [];
  for (const it of found) {
    if (MEDIA.test(it.mime)) {
      if (!it.mime.startsWith('image/')) {
        if (!prompt) continue;
        return { refused: `Not attached: ${it.name} is ${it.mime}; a dialog takes PNG, JPEG, GIF or WebP images.` };
      }
      const a = await attach(it, max);
      if (isRefusal(a)) return a;
      added.push(a);
      parts.push(attachmentMarkdown(a));
    } else if (prompt) {
      const ref = fileRef(cell.notebook, it);
      if (isRefusal(ref)) return ref;
      parts.push(ref);
    }
  }
  if (!parts.length) return undefined;
  if (!added.length) return { text: parts.join(' '), kind: FILE_REF_KIND, title: 'Insert #ai File Reference' };
  let metadata = cellLike(cell).metadata;
  for (const a of added) metadata = metadataWithAttachment({ ...cellLike(cell), metadata }, a);
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, metadata!)]);
  log.info(`attached ${added.map((a) => `${a.contentType} (${a.data.length} bytes) as ${a.id}`).join(', ')} to cell ${cell.index + 1} of ${cell.notebook.uri.path}`);
  return { text: parts.join(' '), edit, kind: ATTACH_KIND, title: added.length > 1 ? 'Insert Images as Attachments' : 'Insert Image as Attachment' };
}

/**
 * A refusal changes nothing: an edit that puts back what it replaces (so no other provider writes a file
 * instead; a paste over a selection keeps the selected text), and one line saying why.
 */
function refusedEdit(r: Refusal, kept = ''): Planned {
  refuse(r.refused);
  return { text: kept, kind: ATTACH_KIND, title: r.refused };
}

class AttachProvider implements vscode.DocumentPasteEditProvider, vscode.DocumentDropEditProvider {
  async provideDocumentPasteEdits(doc: vscode.TextDocument, ranges: readonly vscode.Range[], dt: vscode.DataTransfer, _c: vscode.DocumentPasteEditContext, token: vscode.CancellationToken) {
    const p = await planInsert(doc, dt);
    if (!p || token.isCancellationRequested) return undefined;
    const plan = isRefusal(p) ? refusedEdit(p, ranges.length === 1 ? doc.getText(ranges[0]) : '') : p;
    const e = new vscode.DocumentPasteEdit(plan.text, plan.title, plan.kind);
    e.additionalEdit = plan.edit;
    e.yieldTo = [vscode.DocumentDropOrPasteEditKind.Text];
    return [e];
  }

  async provideDocumentDropEdits(doc: vscode.TextDocument, _p: vscode.Position, dt: vscode.DataTransfer, token: vscode.CancellationToken) {
    const p = await planInsert(doc, dt);
    if (!p || token.isCancellationRequested) return undefined;
    const plan = isRefusal(p) ? refusedEdit(p) : p;
    const e = new vscode.DocumentDropEdit(plan.text, plan.title, plan.kind);
    e.additionalEdit = plan.edit;
    return e;
  }
}

export function registerAttachPaste(context: vscode.ExtensionContext): void {
  const provider = new AttachProvider();
  const kinds = [ATTACH_KIND, FILE_REF_KIND];
  context.subscriptions.push(
    vscode.languages.registerDocumentPasteEditProvider(SELECTOR, provider, { providedPasteEditKinds: kinds, pasteMimeTypes: MIMES }),
    vscode.languages.registerDocumentDropEditProvider(SELECTOR, provider, { providedDropEditKinds: kinds, dropMimeTypes: MIMES }),
  );
}
