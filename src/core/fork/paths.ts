// '/'-separated file paths, the only kind the core sees: lineage stores the parent relative to the fork
// so that a folder of dialogs can be moved or shared whole. Hosts convert their own paths first (VS Code
// URIs already use '/'; the CLI converts Windows separators).

/** A rooted path: `/…`, or a drive `C:/…` (a Windows path after conversion). */
function root(p: string): string {
  const drive = /^[A-Za-z]:\//.exec(p);
  return drive ? drive[0] : p.startsWith('/') ? '/' : '';
}

/** The segments of `p` after its root, with `.` and `x/..` folded; leading `..` stay in a relative path. */
function segments(p: string): string[] {
  const out: string[] = [];
  const rooted = root(p) !== '';
  for (const s of p.slice(root(p).length).split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (s !== '..' || !rooted) out.push(s);
  }
  return out;
}

/** `p` with `.`, `..` and doubled separators folded: the key two spellings of one file share. */
export function normalPath(p: string): string {
  return root(p) + segments(p).join('/');
}

/** The folder part of a file path (`''` for a bare name). */
export function dirPath(file: string): string {
  const n = normalPath(file);
  const k = n.lastIndexOf('/');
  return k < 0 ? '' : n.slice(0, k + 1);
}

/** The path `rel` names when read from beside `fromFile` (an absolute `rel` stands for itself). */
export function resolvePath(fromFile: string, rel: string): string {
  return root(rel) ? normalPath(rel) : normalPath(dirPath(fromFile) + rel);
}

/**
 * The path of `toFile` relative to the folder of `fromFile`. Both must be absolute or both relative to
 * one base; on different roots (Windows drives) there is no relative path and `toFile` is returned.
 */
export function relativePath(fromFile: string, toFile: string): string {
  if (root(fromFile) !== root(toFile)) return normalPath(toFile);
  const from = segments(dirPath(fromFile));
  const to = segments(toFile);
  let k = 0;
  while (k < from.length && k < to.length - 1 && from[k] === to[k]) k++;
  return [...from.slice(k).map(() => '..'), ...to.slice(k)].join('/');
}

/** The file name without folder and `.ipynb`: a dialog's name. */
export function stemOf(file: string): string {
  return normalPath(file).replace(/^.*\//, '').replace(/\.ipynb$/i, '');
}

/**
 * What tells a fork's name from its parent's, for rows that would otherwise look alike once cut to the
 * width of a side bar: `basic.fork-2` under `basic` is `fork-2`. A name that does not extend its
 * parent's is whole.
 */
export function nameBesideParent(name: string, parent: string): string {
  if (!parent || !name.startsWith(parent)) return name;
  const rest = name.slice(parent.length).replace(/^[.\-_ ]+/, '');
  return rest || name;
}
