// A local stand-in for GitHub's gist REST API (as GitHub Enterprise serves it, under /api/v3): POST, GET,
// PATCH and DELETE /gists with GitHub's JSON shapes and error bodies, gists kept in memory, raw files
// under /raw/. Only the token it was given passes, and those it issued at /login/oauth/access_token (as
// a sign-in gets one) until `revoke`; `failNext` scripts the next error (401, 422 …). With `cors` it
// answers browsers with the CORS headers api.github.com and gist.githubusercontent.com send (vscode.dev).
// Binds 127.0.0.1 only.

import { createServer, IncomingMessage } from 'node:http';
import { AddressInfo } from 'node:net';
import { sendJson } from './mockHttp';

export interface StoredGist {
  id: string;
  description: string;
  public: boolean;
  files: Record<string, string>;
  revisions: number;
}

export interface GitHubStandIn {
  /** The server's root: set `github-enterprise.uri` to it (the API is at url/api/v3). */
  url: string;
  token: string;
  /** Tokens issued at /login/oauth/access_token, in order. */
  issued: string[];
  /** Every token stops working (a token revoked on github.com): the next write answers 401. */
  revoke(): void;
  gists: Map<string, StoredGist>;
  /** Every request, preflights (OPTIONS) too; `origin`: the Origin header a browser sends. */
  requests: { method: string; path: string; body: any; auth: string; origin: string }[];
  failNext(status: number, body: unknown): void;
  close(): Promise<void>;
}

const DOCS = 'https://docs.github.com/rest/gists/gists';

async function body(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

// What api.github.com answers a browser with (its preflight, and every response).
const CORS_ALLOW_HEADERS =
  'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, Accept-Encoding, X-GitHub-OTP, X-Requested-With, User-Agent, GraphQL-Features, X-Github-Next-Global-ID, X-GitHub-Api-Version';
const CORS_EXPOSE_HEADERS =
  'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset';

export async function startGitHub(token = 'gho_standin_token_0001', opts: { cors?: boolean } = {}): Promise<GitHubStandIn> {
  const valid = new Set([token]);
  const issued: string[] = [];
  const gists = new Map<string, StoredGist>();
  const requests: GitHubStandIn['requests'] = [];
  const failures: { status: number; body: unknown }[] = [];
  let next = 0;
  let url = '';
  const shape = (g: StoredGist) => ({
    url: `${url}/api/v3/gists/${g.id}`,
    id: g.id,
    html_url: `${url}/gist/octocat/${g.id}`,
    description: g.description,
    public: g.public,
    owner: { login: 'octocat', id: 1 },
    files: Object.fromEntries(
      Object.entries(g.files).map(([name, content]) => [name, { filename: name, type: 'text/plain', raw_url: `${url}/raw/${g.id}/${encodeURIComponent(name)}`, size: Buffer.byteLength(content), truncated: false, content }]),
    ),
    history: Array.from({ length: g.revisions }, (_, k) => ({ version: `${g.id}-${g.revisions - k}` })),
  });
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const b = await body(req).catch(() => undefined);
    requests.push({ method: req.method ?? '', path, body: b, auth: String(req.headers.authorization ?? ''), origin: String(req.headers.origin ?? '') });
    if (opts.cors) {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-expose-headers', CORS_EXPOSE_HEADERS);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'access-control-allow-headers': CORS_ALLOW_HEADERS, 'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE', 'access-control-max-age': '86400' });
        return void res.end();
      }
    }
    const raw = /^\/raw\/([0-9a-f]+)\/(.+)$/.exec(path);
    if (raw && req.method === 'GET') {
      const g = gists.get(raw[1]);
      const name = decodeURIComponent(raw[2]);
      if (!g || !(name in g.files)) return sendJson(res, 404, { message: 'Not Found' });
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(g.files[name]);
    }
    // A sign-in's last step (OAuth's token exchange, as GitHub answers it with Accept: application/json).
    if (path === '/login/oauth/access_token' && req.method === 'POST') {
      const t = `gho_standin_issued_${String(issued.length + 1).padStart(4, '0')}`;
      issued.push(t);
      valid.add(t);
      return sendJson(res, 200, { access_token: t, token_type: 'bearer', scope: 'gist' });
    }
    const m = /^\/api\/v3\/gists(?:\/([0-9a-f]+))?$/.exec(path);
    if (!m) return sendJson(res, 404, { message: 'Not Found', documentation_url: DOCS });
    const id = m[1];
    const f = failures.shift();
    if (f) return sendJson(res, f.status, f.body);
    // Reading a gist needs no token; writing needs ours.
    if (req.method !== 'GET' && !valid.has(String(req.headers.authorization ?? '').replace(/^(token|bearer) /i, ''))) return sendJson(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    if (req.method === 'POST' && !id) {
      if (!b?.files || !Object.keys(b.files).length) return sendJson(res, 422, { message: 'Validation Failed', errors: [{ resource: 'Gist', code: 'missing_field', field: 'files' }], documentation_url: DOCS, status: '422' });
      const g: StoredGist = { id: (++next).toString(16).padStart(20, 'a0'), description: b.description ?? '', public: !!b.public, files: {}, revisions: 1 };
      for (const [n, v] of Object.entries<any>(b.files)) g.files[n] = v.content;
      gists.set(g.id, g);
      return sendJson(res, 201, shape(g), { location: `${url}/api/v3/gists/${g.id}` });
    }
    const g = id ? gists.get(id) : undefined;
    if (!g) return sendJson(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
    if (req.method === 'GET') return sendJson(res, 200, shape(g));
    if (req.method === 'PATCH') {
      if (b?.description !== undefined) g.description = b.description;
      for (const [n, v] of Object.entries<any>(b?.files ?? {})) {
        if (v === null) delete g.files[n];
        else g.files[n] = v.content;
      }
      g.revisions++;
      return sendJson(res, 200, shape(g));
    }
    if (req.method === 'DELETE') {
      gists.delete(g.id);
      res.writeHead(204);
      return res.end();
    }
    return sendJson(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token,
    issued,
    revoke: () => valid.clear(),
    gists,
    requests,
    failNext: (status, b) => void failures.push({ status, body: b }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
