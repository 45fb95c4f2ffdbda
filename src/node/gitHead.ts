// A file's text at git HEAD (for find_msgs' only_chg): `git cat-file blob HEAD:./name` run in the file's
// folder, so git finds the repository and the path as it would from a terminal there. The raw blob: no
// filters, as the commit holds it. Only when the read fails does a second run tell why.

import { execFile } from 'node:child_process';
import { basename, dirname } from 'node:path';

const MAX = 256 * 1024 * 1024;

function git(cwd: string, args: string[]): Promise<{ ok: boolean; out: Buffer; err: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: MAX, windowsHide: true, env: { ...process.env, LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' } }, (e, out, err) =>
      resolve({ ok: !e, out, err: err.toString('utf8').trim(), missing: (e as NodeJS.ErrnoException | null)?.code === 'ENOENT' }),
    );
  });
}

/** The text of `path` at HEAD; null when HEAD does not hold it (untracked, or no commit yet); throws when it is in no repository or git cannot run. */
export async function gitHeadText(path: string): Promise<string | null> {
  const cwd = dirname(path);
  const r = await git(cwd, ['cat-file', 'blob', `HEAD:./${basename(path)}`]);
  if (r.ok) return new TextDecoder().decode(r.out);
  if (r.missing) throw new Error('git is not installed (or not on the PATH)');
  const repo = await git(cwd, ['rev-parse', '--is-inside-work-tree']);
  if (!repo.ok || repo.out.toString().trim() !== 'true') throw new Error(`${path} is not in a git repository`);
  return null;
}
