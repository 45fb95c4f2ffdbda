// read_url in an answer (issue 52): offered in every prompt while `dialogNotebook.web.enabled` is on (as
// Solveit's is), else to a prompt naming ``&`read_url` ``. The core (core/tools/web.ts) decides what is
// read and refused; this file gives it the platform's fetch and converter, the settings, and the user's
// answer for a host the dialog does not name (hostConsent.ts).

import * as vscode from 'vscode';
import { JsonObject } from '../../core';
import type { Dialog } from '../../core/model';
import { CHARS_PER_TOKEN, DialogToolDef, READ_URL, READ_URL_TOOL, WebDeps, readUrl } from '../../core/tools';
import type { ToolResult } from '../kernel/hostTools';
import { dialogOf } from '../document/dialogCache';
import { config } from '../config';
import { platform } from '../platform';
import { log } from '../log';
import { allowHost } from './hostConsent';

let userAgent = 'DialogNotebooks (VS Code extension)';

/** The User-Agent of read_url's requests, naming the extension and its version (set at activation). */
export function setUserAgent(version: string): void {
  userAgent = `DialogNotebooks/${version} (VS Code extension; read_url; +https://github.com/dialog-notebooks)`;
}

/** The web tools a prompt of a dialog gets: read_url with the setting on, or when a prompt names it. */
export function offeredWebTools(referenced: readonly string[]): DialogToolDef[] {
  return config.webEnabled || referenced.includes(READ_URL) ? [READ_URL_TOOL] : [];
}

/** read_url for one answer on `nb`. */
export class WebToolSession {
  /**
   * The dialog as the answer began: its messages' own text (what the user wrote or pasted; no reply,
   * output or page) names the hosts read without asking. Taken now, so that a note the model adds during
   * the answer (a page may ask it to) cannot name a host for it.
   */
  private readonly start: Dialog;
  private text?: string;

  constructor(
    readonly nb: vscode.NotebookDocument,
    readonly defs: readonly DialogToolDef[],
  ) {
    this.start = dialogOf(nb);
  }

  private dialogText(): string {
    return (this.text ??= this.start.messages.map((m) => m.content).join('\n'));
  }

  offers(name: string): boolean {
    return this.defs.some((d) => d.name === name);
  }

  private deps(): WebDeps {
    const p = platform();
    const maxBytes = config.webMaxPageBytes;
    return {
      fetch: (url, signal) => p.fetchPage(url, { signal, timeoutMs: config.webTimeoutMs, maxBytes, allowPrivate: config.webAllowPrivate, headers: { 'user-agent': userAgent, accept: 'text/html,text/markdown,text/plain,application/json,*/*;q=0.8' } }),
      resolve: p.resolveHost,
      toMarkdown: (html, url, selector) => p.htmlToMarkdown(html, url, selector),
      pdfToText: p.pdfToText,
      allowHost: (host, signal) => allowHost(host, config.webConfirm, () => this.dialogText(), signal),
      allowPrivate: config.webAllowPrivate,
      maxChars: config.webMaxResultTokens * CHARS_PER_TOKEN,
      maxBytes,
    };
  }

  async call(name: string, args: JsonObject, signal?: AbortSignal): Promise<ToolResult> {
    if (!this.offers(name)) return { ok: false, text: `Error: ${name} is not available here.`, printed: '' };
    log.info(`read_url(${JSON.stringify(args).slice(0, 300)})`);
    const started = Date.now();
    const r = await readUrl(args, this.deps(), signal);
    log.info(`read_url ${r.ok ? `returned ${r.text.length} characters${r.image ? ' and an image' : ''}` : `failed: ${r.text.slice(0, 300)}`} in ${Date.now() - started} ms`);
    return { ok: r.ok, text: r.text, printed: '', ...(r.image ? { images: [r.image] } : {}) };
  }
}
