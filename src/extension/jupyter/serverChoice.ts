// Which Jupyter Server a dialog's code runs on, decided from the workspace's trust and the settings
// alone, and where the dialog sits on that server. No vscode import: unit-tested as a plain function.

export type ServerChoice =
  /** No kernel may start; `reason` is for the user. */
  | { kind: 'refused'; reason: string }
  /** Start (or reuse) this window's local server; `python` '' means `python3` on the PATH. */
  | { kind: 'local'; python: string }
  | { kind: 'remote'; url: string; token: string };

export interface ServerSettings {
  trusted: boolean;
  /** `dialogNotebook.jupyter.serverUrl`. */
  serverUrl: string;
  /** `dialogNotebook.python`. */
  python: string;
  /** The token in SecretStorage (Dialog: Set Jupyter Token…). */
  storedToken?: string;
  /** `JUPYTER_TOKEN` of the extension host's environment. */
  envToken?: string;
  /** Whether this host can start a local server (not in the browser); default true. */
  canStartLocal?: boolean;
}

export const UNTRUSTED_REASON =
  'Code cells do not run in an untrusted workspace: a kernel runs any code in the dialog. Trust the workspace (Workspaces: Manage Workspace Trust) to run them.';

export const BROWSER_REASON =
  'VS Code in the browser cannot start a local Jupyter Server (only the desktop can): start one the browser may reach and set dialogNotebook.jupyter.serverUrl to it (README: Running code).';

export function chooseServer(s: ServerSettings): ServerChoice {
  if (!s.trusted) return { kind: 'refused', reason: UNTRUSTED_REASON };
  const url = s.serverUrl.trim();
  if (!url && s.canStartLocal === false) return { kind: 'refused', reason: BROWSER_REASON };
  if (!url) return { kind: 'local', python: s.python.trim() };
  if (!/^https?:\/\/[^/]/i.test(url)) {
    return { kind: 'refused', reason: `dialogNotebook.jupyter.serverUrl is "${url}": expected an http:// or https:// URL (empty: start a local Jupyter Server).` };
  }
  return { kind: 'remote', url, token: s.storedToken || s.envToken || '' };
}

/**
 * The dialog's path on a server whose root is `root` (a local folder), '/'-separated: the kernel starts
 * in that folder. A dialog outside the root is known by its name alone (its kernel starts in the root).
 */
export function sessionPath(root: string, file: string): string {
  // String operations rather than node:path, so the browser build has no Node import: both separators,
  // and drive letters compared without case as Windows does.
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const r = norm(root);
  const f = norm(file);
  const same = /^[a-z]:/i.test(r) ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : (a: string, b: string) => a === b;
  if (f.length > r.length && f[r.length] === '/' && same(f.slice(0, r.length), r)) return f.slice(r.length + 1);
  return f.split('/').pop() || file;
}
