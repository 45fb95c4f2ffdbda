// The share preview (Dialog: Share…): a webview showing the page as readers will see it, what is left
// out and what looks secret, with the choices; Publish sends only what it shows. The same view renders
// the page for Export as HTML (its sanitiser is the reply renderer's), then hands the HTML back.

import * as vscode from 'vscode';
import { hitText, sizeText } from '../../core/share';
import type { HostToPreview, PreviewState, PreviewToHost, ShareChoices } from '../../shared/shareProtocol';
import { config } from '../config';
import { log } from '../log';
import { githubTarget } from './github';
import { dialogName, Prepared, previewBlocks, shareOptions, Sharer, ShareResult } from './sharer';

const WHY = { pinned: 'pinned', skipped: 'skipped (hidden from the AI)', chosen: 'left out by you' } as const;

function nonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

export function defaultChoices(): ShareChoices {
  return { keepOutputs: config.shareKeepOutputs, keepPinned: false, keepSkipped: false, leaveOut: [], keepSecrets: false };
}

export class SharePreview {
  static readonly viewType = 'dialogNotebook.sharePreview';
  /** Open previews by dialog, so Share… on the same dialog shows the one already open. */
  static readonly open = new Map<string, SharePreview>();
  readonly panel: vscode.WebviewPanel;
  choices = defaultChoices();
  prepared: Prepared | undefined;
  /** The last state shown, and the last publish, for tests. */
  lastState: PreviewState | undefined;
  lastResult: ShareResult | undefined;
  private htmlWaiter: ((html: string) => void) | undefined;
  /** The view's script has started (messages posted before are lost). */
  private ready = false;

  constructor(
    context: vscode.ExtensionContext,
    private readonly sharer: Sharer,
    readonly nb: vscode.NotebookDocument,
    private readonly published: (r: ShareResult, p: SharePreview) => Promise<void>,
  ) {
    const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(context.extensionUri, 'media');
    this.panel = vscode.window.createWebviewPanel(SharePreview.viewType, `Share ${dialogName(nb)}`, vscode.ViewColumn.Beside, {
      enableScripts: true,
      localResourceRoots: [dist, media],
      retainContextWhenHidden: true,
    });
    const w = this.panel.webview;
    const n = nonce();
    const js = w.asWebviewUri(vscode.Uri.joinPath(dist, 'shareview.js'));
    const css = w.asWebviewUri(vscode.Uri.joinPath(media, 'share.css'));
    const csp = `default-src 'none'; script-src 'nonce-${n}'; style-src ${w.cspSource}; img-src ${w.cspSource} data: https:; base-uri 'none'; form-action 'none'`;
    w.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><link rel="stylesheet" href="${css}"><title>Share</title></head><body><div id="app"></div><script nonce="${n}" src="${js}"></script></body></html>`;
    w.onDidReceiveMessage((m: PreviewToHost) => void this.receive(m).catch((e) => log.error(`share preview: ${e instanceof Error ? e.message : String(e)}`)));
    this.panel.onDidDispose(() => SharePreview.open.delete(nb.uri.toString()));
    SharePreview.open.set(nb.uri.toString(), this);
  }

  private post(m: HostToPreview) {
    void this.panel.webview.postMessage(m);
  }

  /** Computes what would be shared with the current choices and shows it. */
  async refresh(exportHtml = false): Promise<PreviewState> {
    const p = (this.prepared = await this.sharer.prepare(this.nb, shareOptions(this.choices)));
    const before = this.sharer.previous(this.nb);
    const left = [
      ...p.page.left.map((l) => ({ id: l.id, n: l.index + 1, text: `message ${l.index + 1}: ${WHY[l.why]}`, chosen: l.why === 'chosen' })),
      ...p.page.images.map((i) => ({ id: i.id, n: i.index + 1, text: `message ${i.index + 1}: an image of ${sizeText(i.bytes)} (too big to share)`, chosen: false })),
      ...(p.page.outputsDropped ? [{ id: '', n: 0, text: `the outputs of ${p.page.outputsDropped} code message${p.page.outputsDropped === 1 ? '' : 's'}`, chosen: false }] : []),
    ];
    const state: PreviewState = {
      type: 'state',
      name: p.name,
      target: githubTarget().label,
      updates: before?.url,
      choices: this.choices,
      blocks: previewBlocks(p.page),
      left,
      secrets: p.hits.map((h) => ({ id: h.id, n: h.index + 1, text: hitText(h) })),
      blocked: p.blocked,
      exportHtml,
    };
    this.lastState = state;
    this.post(state);
    return state;
  }

  /** The page as sanitised HTML, rendered by the view. */
  renderHtml(): Promise<string> {
    return new Promise((resolve) => {
      this.htmlWaiter = resolve;
      if (this.ready) void this.refresh(true);
    });
  }

  /** Publishes with the current choices (the Publish button, or a script). */
  async publish(anew = false, token?: string): Promise<ShareResult> {
    const p = this.prepared ?? (await this.sharer.prepare(this.nb, shareOptions(this.choices)));
    this.post({ type: 'busy', text: 'Publishing…' });
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Sharing ${p.name}…` }, () =>
      this.sharer.publish(this.nb, p, { keepSecrets: this.choices.keepSecrets, anew, token }),
    );
    this.lastResult = r;
    // The view redrawn first (Publish becomes Update the gist), then the outcome: a redraw after it wiped the link.
    if (r.ok) await this.refresh();
    this.post(r.ok ? { type: 'done', text: r.message.replace(/: https?:\/\/\S+$/, ' (link copied):'), url: r.url } : { type: 'failed', text: r.message });
    await this.published(r, this);
    return r;
  }

  private async receive(m: PreviewToHost) {
    if (m.type === 'ready') {
      this.ready = true;
      await this.refresh(!!this.htmlWaiter);
    }
    else if (m.type === 'choices') {
      this.choices = m.choices;
      await this.refresh();
    } else if (m.type === 'publish') await this.publish();
    else if (m.type === 'html') {
      const w = this.htmlWaiter;
      this.htmlWaiter = undefined;
      w?.(m.html);
    } else if (m.type === 'exportHtml') await vscode.commands.executeCommand('dialogNotebook.exportHtml', this.nb.uri);
    else if (m.type === 'cancel') this.panel.dispose();
  }
}
