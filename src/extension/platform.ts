// What differs between the desktop (Node extension host) and the browser (web-worker extension host, as on
// vscode.dev, github.dev and code-server's browser host): one small interface, set once by each entry
// (src/node/main.ts, src/web/main.ts) before VS Code activates the extension. Everything else is shared.

import type { FileRefs, ImageResizer } from '../core/hist';
import type { FileRefScope } from '../node/fileRefReader';
import type { EnvironmentFinder } from './environments/environments';
import type { KernelSpecFolder } from './environments/kernelSpecs';
import type { LocalServer, LocalServerOptions } from './jupyter/localServer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoopbackServer } from '../node/loopback';
import type * as McpSdk from '../node/mcpSdk';
import type { WebResponse } from '../core/tools';
import type { FetchPageOptions } from './web/fetchPage';
import type { IndexClient } from './search/indexCalls';

export interface Platform {
  /** `desktop` (Node) or `browser` (a web worker: no processes, no native modules, no local files). */
  readonly kind: 'desktop' | 'browser';
  /** A variable of the extension host's environment (none in the browser). */
  env(name: string): string | undefined;
  /** Scales images as the model gets them (sharp / OffscreenCanvas); null when it cannot. */
  imageResizer(): ImageResizer | null;
  /**
   * The mtime and size of a local file (undefined: nothing, or no regular file, there), without
   * `workspace.fs`, whose every call first waits for a round trip to the window; undefined where there
   * are no local files (the browser).
   */
  statFile?: (path: string) => Promise<{ mtime: number; size: number } | undefined>;
  /** A local file's bytes and mtime (undefined: not readable); undefined where there are no local files. */
  readLocalFile?: (path: string) => Promise<{ bytes: Uint8Array; mtime: number } | undefined>;
  /**
   * Calls `changed` as soon as a local file is written or replaced (also by a rename onto it), straight from
   * the OS: VS Code's file watcher reports about 100 ms later. It may call more than once for one write, and
   * for a write to another file of the same folder. Undefined where there are no local files (the browser).
   */
  watchLocalFile?: (path: string, changed: () => void) => { dispose(): void };
  /** Sets a local file's mtime (ms); undefined where there are no local files (the browser). */
  setFileMtime?: (path: string, mtime: number) => Promise<void>;
  /** Reads a dialog's `#ai` file refs from local files; undefined where there are none (the browser). */
  readFileRefs?: (scope: FileRefScope, refs: readonly string[]) => Promise<FileRefs>;
  /** The WebSocket class Jupyter connections use. */
  readonly WebSocket: typeof globalThis.WebSocket;
  /** Starts a local Jupyter Server; undefined where no process can be started (the browser). */
  startLocalServer?: (opts: LocalServerOptions) => Promise<LocalServer>;
  /** Finds the machine's Python environments (processes, files); undefined where there are none (the browser). */
  readonly environmentFinder?: EnvironmentFinder;
  /** A folder of environment kernelspecs for the local Jupyter Server's JUPYTER_PATH (with startLocalServer). */
  kernelSpecFolder?: () => KernelSpecFolder;
  /**
   * Serves HTTP on 127.0.0.1 (`port` 0: any free one), refusing web pages' and foreign hosts' requests
   * before `handle` sees them (node/loopback.ts); undefined where no server can listen (the browser).
   */
  listenLoopback?: (port: number, handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>) => Promise<LoopbackServer>;
  /** Loads the MCP SDK's server parts (a lazy bundle, node/mcpSdk.ts); undefined where no server can listen. */
  loadMcp?: () => Promise<typeof McpSdk>;
  /**
   * A local file's text at git HEAD of the repository holding it (find_msgs' only_chg): null when HEAD
   * does not hold it (untracked, or no commit yet); throws when it is in no repository or git cannot
   * run; undefined where no process can run (the browser).
   */
  gitHeadText?: (path: string) => Promise<string | null>;
  /**
   * One web request of read_url (web/fetchPage.ts): the desktop returns a redirect for read_url to check
   * before it follows it, and connects to the address it checked (a private one refused unless allowed);
   * the browser follows it itself and says where it ended.
   */
  fetchPage(url: string, opts: Omit<FetchPageOptions, 'redirect' | 'fetch'>): Promise<WebResponse>;
  /** The addresses a host name resolves to (read_url refuses private ones); undefined where names cannot be resolved (the browser). */
  resolveHost?: (host: string) => Promise<string[]>;
  /** A PDF's text, page after page, for read_url (node/pdfText.ts); undefined where PDFs are not read (the browser). */
  pdfToText?: (bytes: Uint8Array) => Promise<{ text: string; pages: number }>;
  /** An HTML page as Markdown for read_url (web/htmlMarkdown.ts; a lazy bundle on the desktop). */
  htmlToMarkdown(html: string, url: string, selector?: string): Promise<string>;
  /** The message search index: in a worker thread on the desktop, in place in the browser's worker. */
  searchIndex(): IndexClient;
  /** The folder a local Jupyter Server serves when the dialog is in no local folder. */
  homeDir(): string;
}

// Kept on globalThis, not in a module variable: the extension-host test bundles carry their own copy of
// this module and call shared code (the request builder) that asks for the platform the entry set.
const SLOT = Symbol.for('dialogNotebook.platform');
type Slot = { [SLOT]?: Platform };

/** Why a browser's fetch failed with a bare TypeError: it cannot tell a server that refuses CORS from one that is down. */
export const CROSS_ORIGIN_HINT = 'most likely the site refuses cross-origin reads (CORS), which VS Code in a browser needs. VS Code desktop reads any site.';

export function setPlatform(p: Platform): void {
  (globalThis as Slot)[SLOT] = p;
}

export function platform(): Platform {
  const current = (globalThis as Slot)[SLOT];
  if (!current) throw new Error('Dialog Notebooks: no platform set (load the extension through src/node/main.ts or src/web/main.ts)');
  return current;
}
