// The part both mock model servers share: a server on 127.0.0.1 (a free port) that records every request
// and answers each with the next scripted response. Plain Node, so mocha and extension-host tests can
// both start one; with `cors` it also answers browsers (the web pass, test/web), as providers that
// allow direct browser access do.

import { createServer, IncomingHttpHeaders, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, parsed. */
  body: any;
  /** When its headers arrived (`performance.now()`, comparable within the process, as for benchmarks). */
  at: number;
  /** This process's CPU time then (`process.cpuUsage()`). */
  cpu: NodeJS.CpuUsage;
  /** Resolves once the response is over: true when the client went before it ended (an abort, a stop). */
  closed: Promise<boolean>;
}

export interface MockServer<S> {
  /** The base URL to give the SDK (no trailing slash). */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Scripts the next responses, one per request. */
  enqueue(...responses: S[]): void;
  close(): Promise<void>;
}

/** A response being written: SSE events with pauses, stopping quietly once the client has gone. */
export class SseWriter {
  closed = false;

  constructor(private readonly res: ServerResponse) {
    res.on('close', () => (this.closed = true));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  }

  /** One SSE message (`event:` line when `event` is given); false once the client is gone. */
  send(data: unknown, event?: string): boolean {
    if (this.closed) return false;
    this.res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    return true;
  }

  pause(ms: number): Promise<void> {
    return ms > 0 && !this.closed ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
  }

  /** Ends the response, or (`holdOpen`) leaves it open until the client closes it (a stop test). */
  end(holdOpen = false): Promise<void> {
    if (!holdOpen) {
      this.res.end();
      return Promise.resolve();
    }
    return new Promise((r) => (this.closed ? r() : this.res.on('close', () => r())));
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Starts a server that hands each request, with the next scripted response (undefined when the queue
 * is empty), to `respond`; `unauthorized` first checks the credentials and answers when they fail.
 */
export async function startMock<S>(
  respond: (script: S | undefined, req: RecordedRequest, res: ServerResponse) => Promise<void>,
  unauthorized: (req: RecordedRequest, res: ServerResponse) => boolean,
  opts: { cors?: boolean } = {},
): Promise<MockServer<S>> {
  const queue: S[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const at = performance.now();
    const cpu = process.cpuUsage();
    if (opts.cors) {
      // Any origin, and the preflight allows whatever headers the SDK asks for; preflights are not recorded.
      res.setHeader('access-control-allow-origin', '*');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
          'access-control-max-age': '600',
        });
        return void res.end();
      }
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: recorded as text
      }
      const closed = new Promise<boolean>((r) => res.on('close', () => r(!res.writableEnded)));
      const rec: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at, cpu, closed };
      requests.push(rec);
      if (unauthorized(rec, res)) return;
      respond(queue.shift(), rec, res).catch((e) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(e) } });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...r) => void queue.push(...r),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
