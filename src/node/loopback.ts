// The local servers' common door check (ARCHITECTURE.md, "Doors to one dialog"): every server of ours
// listens on 127.0.0.1 only, and refuses a request that a web page could have sent (an `Origin` header)
// or that names another host (DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends
// `Host: evil.example`), before it reads anything else. The token, where a client can send one, is each
// server's own check after this one.

import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  readonly port: number;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Why a request is refused (status and a sentence), or undefined when it may go on. */
export function refusal(req: IncomingMessage, port: number): { status: number; message: string } | undefined {
  if (req.headers.origin !== undefined) return { status: 403, message: 'Requests from web pages (with an Origin header) are refused.' };
  const host = (req.headers.host ?? '').toLowerCase();
  const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!allowed.includes(host)) return { status: 421, message: `Host ${host || '(none)'} is not this server's; use 127.0.0.1:${port}.` };
  return undefined;
}

/**
 * Starts a server on 127.0.0.1 (`port` 0: any free one) whose requests first pass `refusal`. Rejects
 * with EADDRINUSE when the port is taken, so that a caller can say who has it.
 */
export function listenLoopback(port: number, handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<LoopbackServer> {
  let server: Server;
  return new Promise((resolve, reject) => {
    server = createServer((req, res) => {
      const no = refusal(req, (server.address() as AddressInfo).port);
      if (no) {
        res.writeHead(no.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: no.message }));
        return;
      }
      Promise.resolve(handle(req, res)).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
      });
    });
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const p = (server.address() as AddressInfo).port;
      resolve({
        port: p,
        origin: `http://127.0.0.1:${p}`,
        close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}
