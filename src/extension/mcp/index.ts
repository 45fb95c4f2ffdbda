// The agents' MCP server in the window (issue 44): Dialog: Connect an Agent… (starts it, shows the URL and
// the set-up lines, one pick copies each), Dialog: Stop Agent Server, `dialogNotebook.mcp.serverInfo` for
// scripts, the status bar item while it runs, the token kept in SecretStorage, and the start with the
// window (`dialogNotebook.mcp.enabled`). The SDK is loaded only when the server starts.

import * as vscode from 'vscode';
import { DialogKernels } from '../kernel/dialogKernels';
import { config } from '../config';
import { platform } from '../platform';
import { log } from '../log';
import { reason } from '../commands/feedback';
import { AgentServer, MCP_PATH, SERVER_ID } from './server';
import { setupLines } from './setup';

const TOKEN_SECRET = 'dialogNotebook.mcp.token';
/** Ports tried after the configured one when another window has it. */
const MORE_PORTS = 10;
/** How often the status item counts the connected agents again. */
const RECOUNT_MS = 60_000;
const NO_SERVER = 'Agents cannot connect in the browser: VS Code in a browser cannot listen for them. Use the desktop VS Code (or code-server) for agents outside VS Code.';

/** A new token: 32 random bytes, hex. */
function newToken(): string {
  return [...globalThis.crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether what listens on `port` is one of ours (another window's agents server). */
async function ownServerOn(port: number): Promise<boolean> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}${MCP_PATH}`, { method: 'POST', signal: AbortSignal.timeout(2000) });
    return ((await r.json()) as { server?: string }).server === SERVER_ID;
  } catch {
    return false;
  }
}

class AgentServerHost implements vscode.Disposable {
  private server?: AgentServer;
  private starting?: Promise<AgentServer>;
  private readonly item = vscode.window.createStatusBarItem('dialogNotebook.agents', vscode.StatusBarAlignment.Right, 99);
  private recount?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly kernels: () => DialogKernels | undefined,
  ) {
    this.item.name = 'Dialog Agents Server';
    this.item.command = 'dialogNotebook.connectAgent';
  }

  /** The token, made once and kept in SecretStorage (shared by the windows, so one set-up serves them all). */
  async token(): Promise<string> {
    const kept = await this.context.secrets.get(TOKEN_SECRET);
    if (kept) return kept;
    const t = newToken();
    await this.context.secrets.store(TOKEN_SECRET, t);
    return t;
  }

  /** The running server, started if it is not. */
  start(): Promise<AgentServer> {
    if (this.server) return Promise.resolve(this.server);
    this.starting ??= this.listen().then(
      (s) => {
        this.server = s;
        this.starting = undefined;
        this.show();
        return s;
      },
      (e: unknown) => {
        this.starting = undefined;
        throw e;
      },
    );
    return this.starting;
  }

  /**
   * Listens on the configured port; when another window has it, on the next free one, saying plainly
   * which URL serves which window (an agent set up with the first URL reaches the other window's dialogs).
   */
  private async listen(): Promise<AgentServer> {
    const opts = { token: await this.token(), kernels: this.kernels, version: String(this.context.extension.packageJSON.version), onClients: () => this.show() };
    const port = config.mcpPort;
    for (let p = port; p <= Math.min(65535, port + MORE_PORTS); p++) {
      try {
        const s = await AgentServer.start(p, opts);
        if (p !== port) {
          const who = (await ownServerOn(port)) ? 'another VS Code window serves its dialogs there' : 'another program has that port';
          const msg = `Port ${port} is taken (${who}): agents set up with http://127.0.0.1:${port}${MCP_PATH} reach that, not this window. This window's dialogs are served at ${s.url}; set dialogNotebook.mcp.port in this workspace to keep a port of its own.`;
          log.warn(msg);
          void vscode.window.showWarningMessage(msg);
        }
        return s;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      }
    }
    throw new Error(`Ports ${port}–${port + MORE_PORTS} on 127.0.0.1 are all taken: set dialogNotebook.mcp.port to a free one.`);
  }

  async stop(): Promise<void> {
    const s = this.server ?? (await this.starting?.catch(() => undefined));
    this.server = undefined;
    this.show();
    await s?.close();
  }

  private show(): void {
    const s = this.server;
    clearTimeout(this.recount);
    if (!s) return this.item.hide();
    // Agents that went quiet drop out of the count without a request to say so.
    this.recount = setTimeout(() => this.show(), RECOUNT_MS);
    const n = s.clients;
    this.item.text = `$(plug) ${n} agent${n === 1 ? '' : 's'}`;
    this.item.tooltip = `Agents server at ${s.url}: ${n} connected. Click for the set-up lines.`;
    this.item.show();
  }

  /** Dialog: Connect an Agent…: the URL and a set-up line per agent; picking one copies it. */
  async connect(): Promise<void> {
    let s: AgentServer;
    try {
      s = await this.start();
    } catch (e) {
      void vscode.window.showErrorMessage(`The agents server did not start: ${reason(e)}`);
      return;
    }
    const token = await this.token();
    /** `copied`: what the message says once it is copied. */
    type Item = vscode.QuickPickItem & { copy?: string; copied?: string; stop?: true };
    const items: Item[] = [
      ...setupLines(s.url, token).map((l) => ({ label: `$(copy) ${l.agent}`, copied: `${l.agent} set-up line. ${l.how[0].toUpperCase()}${l.how.slice(1)}; it holds the token, keep it to yourself.`, description: l.how, detail: l.shown.replace(/\s*\n\s*/g, '  '), copy: l.text })),
      { label: '$(copy) URL', copied: 'the agents server\'s URL. Agents send the token as "Authorization: Bearer …".', description: 'the endpoint alone (send the token as "Authorization: Bearer …")', detail: s.url, copy: s.url },
      { label: '$(debug-stop) Stop Agent Server', stop: true },
    ];
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = `Agents connect at ${s.url}`;
    qp.placeholder = 'Pick a set-up line to copy it (it holds the token: keep it to yourself)';
    qp.items = items;
    qp.ignoreFocusOut = true;
    qp.onDidAccept(async () => {
      const pick = qp.selectedItems[0];
      if (!pick) return;
      if (pick.stop) {
        qp.hide();
        await this.stop();
        return;
      }
      await vscode.env.clipboard.writeText(pick.copy!);
      // Said, and the list closed: the pick is done (the line is in the clipboard, the token with it).
      qp.hide();
      log.info(`Copied: ${pick.copied}`);
      void vscode.window.showInformationMessage(`Copied: ${pick.copied}`);
    });
    qp.onDidHide(() => qp.dispose());
    qp.show();
  }

  dispose(): void {
    this.item.dispose();
    void this.stop();
  }
}

export function registerMcp(context: vscode.ExtensionContext, kernels: () => DialogKernels | undefined): void {
  const noServer = !platform().listenLoopback;
  const host = noServer ? undefined : new AgentServerHost(context, kernels);
  const unavailable = () => void vscode.window.showWarningMessage(NO_SERVER);
  context.subscriptions.push(
    ...(host ? [host] : []),
    vscode.commands.registerCommand('dialogNotebook.connectAgent', () => (host ? host.connect() : unavailable())),
    vscode.commands.registerCommand('dialogNotebook.stopAgentServer', () => (host ? host.stop() : unavailable())),
    vscode.commands.registerCommand('dialogNotebook.mcp.serverInfo', async () => {
      if (!host) throw new Error(NO_SERVER);
      const s = await host.start();
      return { url: s.url, token: await host.token() };
    }),
  );
  if (!host) return;
  const startIfEnabled = () => {
    if (config.mcpEnabled) host.start().catch((e: unknown) => void vscode.window.showErrorMessage(`The agents server did not start: ${reason(e)}`));
  };
  startIfEnabled();
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('dialogNotebook.mcp.enabled') && startIfEnabled()));
}
