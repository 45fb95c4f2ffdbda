// The agents' door (issue 44): an MCP server (Streamable HTTP, the SDK's own transport) on 127.0.0.1 that
// serves dialoghelper's dialog tools, each with its `dname`, plus `list_dialogs`. Only the wire is here:
// who may knock (the loopback's Origin and Host refusals, then the bearer token), one MCP session per
// client, and the results as an agent takes them (images as image content, text cut to the limit,
// progress while python runs). The calls themselves go through door.ts like every other door's.

import type { IncomingMessage, ServerResponse } from 'node:http';
import * as vscode from 'vscode';
import { JsonObject, isJsonObject, pyRepr } from '../../core';
import { CHARS_PER_TOKEN, DialogToolDef, WORKSPACE_TOOLS } from '../../core/tools';
import type * as McpSdk from '../../node/mcpSdk';
import type { LoopbackServer } from '../../node/loopback';
import { DialogKernels } from '../kernel/dialogKernels';
import { config } from '../config';
import { platform } from '../platform';
import { log } from '../log';
import { DoorError, callDialogTool, callWorkspaceTool, doorTools, listDialogs, resolveDialog } from '../tools/door';

/** What a 401 says, and how a second window tells that the port is ours. */
export const SERVER_ID = 'Dialog Notebooks agents server';
/** The path agents post to. */
export const MCP_PATH = '/mcp';
/** How often python's progress is sent while it runs. */
const PROGRESS_MS = 2000;
/** Larger images are described, not sent (Anthropic's API takes up to 5 MB an image). */
const MAX_IMAGE_B64 = 5 * 1024 * 1024;

const DNAME = {
  type: 'string',
  description: "The dialog: its path relative to the workspace folder, '.ipynb' optional (list_dialogs lists them). Default: the dialog in the active editor. A dialog that is not open is opened in VS Code.",
};

const LIST_DIALOGS = {
  name: 'list_dialogs',
  description: "The workspace's dialogs (their dname) and whether each is open in VS Code.",
  inputSchema: { type: 'object' as const, properties: {} },
  annotations: { readOnlyHint: true },
};

const INSTRUCTIONS =
  "Tools on the dialogs (Solveit AI dialogs, .ipynb) open in the user's VS Code, live: edits appear at once in the open notebook, " +
  "each call is one Undo step for the user, and unsaved edits are kept. Each tool takes dname (see list_dialogs; default the active dialog). " +
  'Messages are addressed by id (view_dlg and find_msgs show them), never by position. python runs in the dialog\'s kernel.';

/** A tool as MCP lists it: the dialog tool's schema with `dname` beside its parameters. */
function mcpTool(def: DialogToolDef) {
  const params = def.parameters as { properties?: JsonObject; required?: string[] };
  return {
    name: def.name,
    description: def.description,
    inputSchema: { ...params, type: 'object' as const, properties: { ...(params.properties ?? {}), dname: DNAME } },
    annotations: { readOnlyHint: def.kind === 'read', destructiveHint: def.kind === 'destructive' },
  };
}

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
const textResult = (text: string, isError = false) => ({ content: [{ type: 'text', text }] as Content[], isError });

/** The bearer token check, in constant time (a timing difference must not spell the token out). */
function hasToken(req: IncomingMessage, token: string): boolean {
  const got = req.headers.authorization ?? '';
  const want = `Bearer ${token}`;
  let diff = got.length ^ want.length;
  for (let i = 0; i < want.length; i++) diff |= want.charCodeAt(i) ^ (got.charCodeAt(i) || 0);
  return diff === 0;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: message, server: SERVER_ID }));
}

interface Session {
  transport: McpSdk.StreamableHTTPServerTransport;
  server: McpSdk.Server;
  /** When its client last sent a request (Date.now()). */
  seen: number;
}

/** A session with no request for this long is not counted as a connected agent (clients rarely say goodbye). */
const CONNECTED_MS = 10 * 60_000;

export interface AgentServerOptions {
  token: string;
  kernels: () => DialogKernels | undefined;
  version: string;
  /** Called when an agent connects or leaves. */
  onClients?: (n: number) => void;
}

/** The running server: its URL, the sessions of the agents connected, and how to stop it. */
export class AgentServer {
  private readonly sessions = new Map<string, Session>();
  private loopback?: LoopbackServer;

  private constructor(
    private readonly sdk: typeof McpSdk,
    private readonly opts: AgentServerOptions,
  ) {}

  /** Starts on `port` (0: any free one); rejects with EADDRINUSE when it is taken, and where no server can listen. */
  static async start(port: number, opts: AgentServerOptions): Promise<AgentServer> {
    const p = platform();
    if (!p.listenLoopback || !p.loadMcp) throw new Error('The agents server needs the desktop VS Code: the browser build cannot listen for agents.');
    const s = new AgentServer(await p.loadMcp(), opts);
    s.loopback = await p.listenLoopback(port, (req, res) => s.handle(req, res));
    log.info(`Agents server listening on ${s.url}`);
    return s;
  }

  get url(): string {
    return `${this.loopback!.origin}${MCP_PATH}`;
  }

  get port(): number {
    return this.loopback!.port;
  }

  /** The agents connected: the sessions whose client sent a request lately. */
  get clients(): number {
    const since = Date.now() - CONNECTED_MS;
    return [...this.sessions.values()].filter((s) => s.seen >= since).length;
  }

  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
    await this.loopback?.close();
    log.info('Agents server stopped');
  }

  private changed(): void {
    this.opts.onClients?.(this.clients);
  }

  /** One HTTP request: the token first (the loopback refused Origin and foreign Host already), then its session. */
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hasToken(req, this.opts.token)) return refuse(res, 401, 'A bearer token is needed: copy the set-up line from "Dialog: Connect an Agent…" in VS Code.', { 'www-authenticate': 'Bearer realm="dialog-notebooks"' });
    if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_PATH) return refuse(res, 404, `The MCP endpoint is ${MCP_PATH}.`);
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const s = this.sessions.get(sid);
      if (!s) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: initialize again.' }, id: null }));
      const back = s.seen < Date.now() - CONNECTED_MS;
      s.seen = Date.now();
      if (back) this.changed();
      return s.transport.handleRequest(req, res);
    }
    // No session yet: this must be an agent's initialize, which starts one (the transport refuses anything else).
    const transport: McpSdk.StreamableHTTPServerTransport = new this.sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: () => globalThis.crypto.randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, seen: Date.now() });
        log.info(`Agent connected: ${server.getClientVersion()?.name ?? 'an MCP client'}`);
        this.changed();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId && this.sessions.delete(transport.sessionId)) {
        log.info(`Agent left: ${server.getClientVersion()?.name ?? 'an MCP client'}`);
        this.changed();
      }
    };
    const server = this.mcpServer();
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) await server.close();
  }

  /** The MCP server of one session: the tools the workspace's trust allows, and the calls. */
  private mcpServer(): McpSdk.Server {
    const server = new this.sdk.Server({ name: 'dialog-notebooks', version: this.opts.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(this.sdk.ListToolsRequestSchema, () => ({ tools: [...doorTools().map(mcpTool), LIST_DIALOGS] }));
    server.setRequestHandler(this.sdk.CallToolRequestSchema, async (req, extra) => {
      const client = server.getClientVersion()?.name;
      const { name } = req.params;
      const raw = req.params.arguments as JsonObject | undefined;
      const args = raw && isJsonObject(raw) ? raw : {};
      if (name === 'list_dialogs') return textResult(pyRepr(await listDialogs()));
      const { dname, ...rest } = args;
      if (WORKSPACE_TOOLS.includes(name)) {
        const r = await callWorkspaceTool({ door: 'mcp', client }, name, rest);
        return textResult(r.text, !r.ok);
      }
      let nb: vscode.NotebookDocument;
      try {
        nb = await resolveDialog(typeof dname === 'string' ? dname : undefined);
      } catch (e) {
        if (e instanceof DoorError) return textResult(`Error: ${e.message}`, true);
        throw e;
      }
      const token = req.params._meta?.progressToken;
      const limitMs = config.mcpPythonTimeLimitMs;
      const started = Date.now();
      // python may run long: progress keeps the agent waiting (and says how long is left before the limit).
      const ticker =
        name === 'python' && token !== undefined
          ? setInterval(() => {
              const s = Math.round((Date.now() - started) / 1000);
              void extra
                .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: s, total: limitMs / 1000, message: `python running for ${s} s` } })
                .catch(() => undefined);
            }, PROGRESS_MS)
          : undefined;
      try {
        const r = await callDialogTool({ door: 'mcp', client }, nb, name, rest, {
          kernels: this.opts.kernels(),
          signal: extra.signal,
          timeLimitMs: name === 'python' ? limitMs : undefined,
          maxChars: config.mcpMaxResultTokens * CHARS_PER_TOKEN,
        });
        const content: Content[] = [{ type: 'text', text: r.text }];
        for (const img of r.images ?? []) {
          content.push(img.data.length <= MAX_IMAGE_B64 ? { type: 'image', data: img.data, mimeType: img.mime } : { type: 'text', text: `[an ${img.mime} image of ${Math.round((img.data.length * 3) / 4 / 1024)} kB, too large to send]` });
        }
        return { content, isError: !r.ok };
      } finally {
        clearInterval(ticker);
      }
    });
    return server;
  }
}
