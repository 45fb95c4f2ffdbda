// `#ai` file refs read through vscode.workspace.fs: where the dialog is no local file the Node reader can
// open (the browser, a virtual workspace such as github.dev's). The same guards as src/node/fileRefReader.ts
// as far as the API lets us see: only inside the root (`..` and absolute refs resolved first), no symbolic
// link on the way below the root, regular files only, up to the size cap. Never throws.
import * as vscode from 'vscode';
import { DEFAULT_MAX_FILE_BYTES, FileRefs } from '../../core/hist';
import { humanize } from '../../core/model';

export interface FsRefScope {
  /** The dialog's folder: refs are relative to it. */
  base: vscode.Uri;
  /** Only files inside this folder are read. */
  root: vscode.Uri;
  rootName: string;
  maxBytes?: number;
}

/** `path` with `.` and `..` segments resolved (posix, as URI paths are). */
function normalize(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '..') out.pop();
    else if (seg && seg !== '.') out.push(seg);
  }
  return `/${out.join('/')}`;
}

async function readRef(scope: FsRefScope, ref: string): Promise<Uint8Array | string> {
  const max = scope.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const root = normalize(scope.root.path);
  const path = normalize(ref.startsWith('/') ? ref : `${scope.base.path}/${ref}`);
  if (!path.startsWith(root === '/' ? '/' : `${root}/`)) return `not inside ${scope.rootName}`;
  try {
    // Each segment below the root: a link could lead anywhere the file system provider reaches.
    let at = root;
    let st: vscode.FileStat | undefined;
    for (const seg of path.slice(root.length).split('/').filter(Boolean)) {
      at = at === '/' ? `/${seg}` : `${at}/${seg}`;
      st = await vscode.workspace.fs.stat(scope.root.with({ path: at }));
      if (st.type & vscode.FileType.SymbolicLink) return 'a symlink, not a regular file';
    }
    if (!st || !(st.type & vscode.FileType.File)) return `${st && st.type & vscode.FileType.Directory ? 'a directory' : 'a special file'}, not a regular file`;
    if (st.size > max) return `larger than ${humanize(max)}B (${humanize(st.size)}B)`;
    const bytes = await vscode.workspace.fs.readFile(scope.root.with({ path }));
    return bytes.length > max ? `larger than ${humanize(max)}B` : bytes;
  } catch (e) {
    if (e instanceof vscode.FileSystemError && (e.code === 'FileNotFound' || e.code === 'FileNotADirectory')) return 'no such file';
    return `cannot read file (${e instanceof Error ? e.message : String(e)})`;
  }
}

/** The refs read one after another. */
export async function readFileRefsFs(scope: FsRefScope, refs: readonly string[]): Promise<FileRefs> {
  const files = new Map<string, Uint8Array | string>();
  for (const ref of refs) files.set(ref, await readRef(scope, ref));
  return files;
}
