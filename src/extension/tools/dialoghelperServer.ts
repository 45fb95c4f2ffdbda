// The door for code in a dialog's kernel (issue 45): dialoghelper's form POSTs, answered on 127.0.0.1
// for the dialogs open in this window. Started on port 0 when the first local kernel starts (desktop
// only). dialoghelper sends no credentials, so each kernel gets its own address: a random secret path
// prefix carried in `dh_settings['port']` (`"PORT/SECRET"`), which only that kernel learns and which
// names the dialog that calls. loopback.ts refuses web pages (Origin) and foreign Hosts first.

import type { IncomingMessage, ServerResponse } from 'node:http';
import * as vscode from 'vscode';
import { JsonObject } from '../../core';
import { splitIds } from '../../core/surgery';
import { dialogTool } from '../../core/tools';
import type { LoopbackServer } from '../../node/loopback';
import { platform } from '../platform';
import { CodeRunner } from '../kernel/runner';
import { reason } from '../commands/feedback';
import { log } from '../log';
import { NOTEBOOK_TYPE, cellState } from '../document/cells';
import { callDialogTool, currentMessage, resolveDialog } from './door';
import { dialogName } from './dialogTools';
import { prepareDialoghelper } from './dialoghelperKernel';
import { RouteHost, RouteReply, answerRoute } from './dialoghelperRoutes';

/** A form larger than this is refused (a message with big outputs fits easily). */
const MAX_BODY = 64 * 1024 * 1024;

function secret(): string {
  const b = new Uint8Array(24);
  globalThis.crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error(`the request is larger than ${MAX_BODY / 1024 / 1024} MB`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, r: RouteReply): void {
  if ('text' in r) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(r.text);
  else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify('json' in r ? r.json : { error: r.error }));
}

export class DialoghelperServer implements vscode.Disposable {
  private server: Promise<LoopbackServer> | undefined;
  /** Each kernel's secret → its dialog's uri; a restart or close takes the old one back. */
  private readonly secrets = new Map<string, string>();
  /** The cell run each dialog's calls last started from: a new run makes its cell the current message. */
  private readonly runs = new Map<string, object>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly runner: CodeRunner) {
    this.subs.push(
      runner.onKernelStart((nb, ks, local) => this.prepare(nb, ks, local)),
      vscode.workspace.onDidCloseNotebookDocument((nb) => {
        this.revoke(nb.uri.toString());
        this.runs.delete(nb.uri.toString());
      }),
    );
  }

  /** The server's port, once started (for tests and the bench). */
  async port(): Promise<number | undefined> {
    return (await this.server?.catch(() => undefined))?.port;
  }

  private revoke(uri: string): void {
    for (const [s, u] of this.secrets) if (u === uri) this.secrets.delete(s);
  }

  private async prepare(nb: vscode.NotebookDocument, ks: Parameters<typeof prepareDialoghelper>[0], local: boolean): Promise<void> {
    const name = dialogName(nb);
    let port: string | null = null;
    const listen = platform().listenLoopback;
    if (!local) {
      log.info(`The kernel of ${name} runs on a remote Jupyter Server: dialoghelper in it cannot reach this window (127.0.0.1 here is not its localhost); it knows its dialog's name only.`);
    } else if (!listen) {
      log.info(`dialoghelper in the kernel of ${name} cannot reach this window: the browser build has no local server.`);
    } else {
      try {
        const server = await (this.server ??= listen(0, (req, res) => this.handle(req, res)).then((s) => {
          log.info(`dialoghelper's routes listen on 127.0.0.1:${s.port} (a secret path per kernel)`);
          return s;
        }));
        this.revoke(nb.uri.toString());
        const s = secret();
        this.secrets.set(s, nb.uri.toString());
        port = `${server.port}/${s}`;
      } catch (e) {
        this.server = undefined;
        log.warn(`dialoghelper's routes could not start: ${reason(e)}`);
      }
    }
    await prepareDialoghelper(ks, name, port);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [, key, ...rest] = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.split('/');
    const uri = this.secrets.get(key ?? '');
    const caller = uri && vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri && n.notebookType === NOTEBOOK_TYPE);
    // Unknown address: say nothing of what exists.
    if (!caller) return send(res, 404, { error: 'Not found.' });
    const route = rest.join('/');
    if (req.method !== 'POST') return send(res, 405, { error: `${route} takes a POST (as dialoghelper sends).` });
    const form = new URLSearchParams(await readBody(req));
    const t0 = performance.now();
    const target = form.get('dlg_name') || dialogName(caller);
    let reply: RouteReply;
    try {
      reply = await answerRoute(route, form, this.host(caller, form));
    } catch (e) {
      reply = { error: reason(e) };
    }
    const what = 'error' in reply ? `error: ${reply.error}` : 'ok';
    log.info(`dialoghelper ${route} on ${target} (from ${dialogName(caller)}, ${Math.round(performance.now() - t0)} ms): ${what.slice(0, 200)}`);
    // Errors too are 200: dialoghelper raises DialogAPIError with the sentence only for a reply it reads.
    send(res, 200, reply);
  }

  /** The message the kernel's calls on `nb` start from: the running cell on a new run, else where the last call left it. */
  private startFrom(caller: vscode.NotebookDocument, nb: vscode.NotebookDocument): string | null | undefined {
    if (nb !== caller) return undefined;
    const run = this.runner.runningCell(nb);
    const key = nb.uri.toString();
    if (!run || this.runs.get(key) === run) return undefined;
    this.runs.set(key, run);
    return cellState(run.cell).id ?? null;
  }

  /** The running cell's id when the call would change or delete it (VS Code replaces a changed cell, ending its run). */
  private runningId(nb: vscode.NotebookDocument, tool: string, args: JsonObject): string | undefined {
    const run = this.runner.runningCell(nb);
    if (!run || tool === 'add_msg' || dialogTool(tool)?.kind === 'read') return undefined;
    const id = cellState(run.cell).id;
    const named = [args.id, args.ids].flatMap((v) => (typeof v === 'string' ? splitIds(v) : Array.isArray(v) ? v.map(String) : []));
    return id && (named.includes(id) || named.includes('all')) ? id : undefined;
  }

  private host(caller: vscode.NotebookDocument, form: URLSearchParams): RouteHost {
    const dlg = form.get('dlg_name');
    return {
      dialog: async () => (dlg && dlg !== dialogName(caller) ? resolveDialog(dlg) : caller),
      tool: async (nb, name, args: JsonObject) => {
        const running = this.runningId(nb, name, args);
        if (running) return { ok: false, text: `message ${running} is the cell running this code: VS Code cannot change a cell while it runs (the run would be lost); change it from another cell`, printed: '' };
        // The user's own code runs with the user's say: no confirmation (it could rewrite the file anyway).
        return callDialogTool({ door: 'dialoghelper' }, nb, name, args, { kernels: this.runner, confirm: false, current: this.startFrom(caller, nb) });
      },
      // Only looks: the next tool call starts from the running cell all the same.
      current: (nb) => {
        const run = nb === caller ? this.runner.runningCell(nb) : undefined;
        return run && this.runs.get(nb.uri.toString()) !== run ? (cellState(run.cell).id ?? null) : currentMessage(nb);
      },
      run: async (nb, ids) => {
        const want = new Set(ids);
        const ranges = nb
          .getCells()
          .filter((c) => want.has(cellState(c).id ?? ''))
          .map((c) => ({ start: c.index, end: c.index + 1 }));
        // Not awaited: the calling cell is still running, and these run after it, as the Run command queues them.
        void vscode.commands.executeCommand('notebook.cell.execute', { ranges, document: nb.uri }).then(undefined, (e) => log.warn(`dialoghelper could not run ${ids.join(', ')}: ${reason(e)}`));
      },
      root: () => vscode.workspace.getWorkspaceFolder(caller.uri)?.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri,
    };
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
    void this.server?.then((s) => s.close(), () => undefined);
    this.server = undefined;
  }
}
