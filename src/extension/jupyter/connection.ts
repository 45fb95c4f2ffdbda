// A connection to a Jupyter Server (the local one or a remote / JupyterHub user server) by URL + token,
// through the official client `@jupyterlab/services`, with fetch and the platform's WebSocket (`ws` on
// Node, the browser's own in a web worker, where the token must be passed explicitly, as it is here).
// It is checked once up front so an unreachable server or a wrong token is one clear error. The client is
// imported on the first connection, not at activation (dist/lazy/, scripts/build.mjs).

import type { KernelManager, KernelSpecAPI, ServerConnection, SessionManager } from '@jupyterlab/services';
import { platform } from '../platform';
import { tokenRefusedHint } from '../secretHints';

export type ConnectErrorKind = 'unreachable' | 'auth' | 'not-jupyter';

/** The server could not be used; `kind` tells the host which fix to suggest. */
export class JupyterConnectError extends Error {
  constructor(
    readonly kind: ConnectErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'JupyterConnectError';
  }
}

export interface JupyterConnection {
  /** Base URL, ending in `/`. */
  readonly url: string;
  readonly settings: ServerConnection.ISettings;
  readonly kernels: KernelManager;
  readonly sessions: SessionManager;
  /** The kernelspecs the server offers (for picking the dialog's kernel and for error messages). */
  kernelSpecs(): Promise<KernelSpecAPI.ISpecModels>;
  /** Stops polling the server; kernels keep running (shut them down through their sessions). */
  dispose(): void;
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** Asks the server's authenticated status endpoint, turning every way it can fail into a JupyterConnectError. */
async function check(url: string, token: string, timeoutMs: number): Promise<void> {
  let res: Response;
  try {
    // Plain fetch rather than the client's request, whose errors drop the cause (ECONNREFUSED, ENOTFOUND …).
    // `manual`: a hub answers a bad token with a redirect to its login page, which must not look like success.
    res = await fetch(`${url}api/status`, {
      headers: { Authorization: `token ${token}` },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new JupyterConnectError('unreachable', `Cannot reach the Jupyter Server at ${url} (${why}). Is it running, and is the URL right?`);
  }
  if (res.status === 401 || res.status === 403 || (res.status >= 300 && res.status < 400)) {
    throw new JupyterConnectError('auth', `The Jupyter Server at ${url} refused the token (HTTP ${res.status}). ${tokenRefusedHint(platform().kind)}`);
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || !type.includes('json')) {
    throw new JupyterConnectError(
      'not-jupyter',
      `${url} does not answer as a Jupyter Server (HTTP ${res.status}, ${type || 'no content type'}). For JupyterHub, use the user server URL (…/user/NAME/).`,
    );
  }
}

/** Connects to the server at `url` with `token` after checking both work. */
export async function connectServer(url: string, token: string, timeoutMs = 15000): Promise<JupyterConnection> {
  const base = withSlash(url.trim());
  const { KernelManager, KernelSpecAPI, ServerConnection, SessionManager } = await import('@jupyterlab/services');
  const settings = ServerConnection.makeSettings({
    baseUrl: base,
    wsUrl: base.replace(/^http/, 'ws'),
    token,
    appendToken: true, // the WebSocket cannot carry the Authorization header
    fetch: globalThis.fetch,
    Request: globalThis.Request,
    Headers: globalThis.Headers,
    WebSocket: platform().WebSocket,
  });
  await check(base, token, timeoutMs);
  const kernels = new KernelManager({ serverSettings: settings });
  const sessions = new SessionManager({ kernelManager: kernels, serverSettings: settings });
  return {
    url: base,
    settings,
    kernels,
    sessions,
    kernelSpecs: () => KernelSpecAPI.getSpecs(settings),
    dispose: () => {
      sessions.dispose();
      kernels.dispose();
    },
  };
}
