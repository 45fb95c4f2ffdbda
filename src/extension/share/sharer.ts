// Sharing a dialog: what it would publish (the page, the trimmed dialog, what is left out, what looks
// secret), and publishing it as a secret gist: new, or a new revision of the gist this dialog was shared
// to before (ShareStore). Nothing is sent before the checks pass; a failure publishes nothing.

import * as vscode from 'vscode';
import { writeIpynb } from '../../core/ipynb';
import { savedDialog } from '../../core/reply';
import { dlg2page, hitText, msg2page, SecretHit, SHARE_MAX_BYTES, ShareOptions, SharePage, shareTexts, sizeText } from '../../core/share';
import { dialogOf } from '../document/dialogCache';
import { log } from '../log';
import { ApiKeys } from '../answer/keys';
import { JupyterToken } from '../jupyter/token';
import { Gist, GistClient, GistError } from './gist';
import { gistSession, GitHubTarget, githubTarget, nbviewerUrl } from './github';
import { ShareRecord, ShareStore } from './store';
import { KnownSecret, scanSecrets } from './secretScan';
import type { PreviewBlock, ShareChoices } from '../../shared/shareProtocol';

export interface Prepared {
  name: string;
  page: SharePage;
  hits: SecretHit[];
  files: { md: string; ipynb: string };
  /** Why it cannot be published ('' when it can). */
  blocked: string;
}

export interface ShareResult {
  ok: boolean;
  message: string;
  url?: string;
  gistId?: string;
  nbviewer?: string;
  updated?: boolean;
  /** The gist this dialog was shared to is gone (deleted on GitHub). */
  gone?: boolean;
  secrets?: string[];
}

/** The dialog's file name without `.ipynb` (an untitled dialog: its name). */
export function dialogName(nb: vscode.NotebookDocument): string {
  const base = decodeURIComponent(nb.uri.path.split('/').pop() ?? 'dialog') || 'dialog';
  return base.replace(/\.ipynb$/i, '');
}

export function shareOptions(c: ShareChoices): ShareOptions {
  return { keepOutputs: c.keepOutputs, keepPinned: c.keepPinned, keepSkipped: c.keepSkipped, leaveOut: c.leaveOut };
}

/** The preview's blocks: each kept message's piece of the page, numbered as in the dialog. */
export function previewBlocks(p: SharePage): PreviewBlock[] {
  return p.dialog.messages.map((m, k) => ({ id: m.id, n: p.indexes[k] + 1, md: msg2page(m) })).filter((b) => b.md);
}

export class Sharer {
  readonly store: ShareStore;
  private readonly keys: ApiKeys;
  private readonly jupyter: JupyterToken;

  constructor(context: vscode.ExtensionContext) {
    this.store = new ShareStore(context.globalState);
    this.keys = new ApiKeys(context.secrets);
    this.jupyter = new JupyterToken(context.secrets);
  }

  /** The secrets this extension holds: they must never leave in a share. */
  private async known(): Promise<KnownSecret[]> {
    const out: KnownSecret[] = [];
    const add = (name: string, value: string | undefined) => value && out.push({ name, value });
    add('Anthropic API key (Dialog: Set API Key…)', await this.keys.get('anthropic').catch(() => ''));
    add('OpenAI API key (Dialog: Set API Key…)', await this.keys.get('openai').catch(() => ''));
    add('Jupyter token (Dialog: Set Jupyter Token…)', await Promise.resolve(this.jupyter.stored()).catch(() => undefined));
    return out;
  }

  async prepare(nb: vscode.NotebookDocument, opts: ShareOptions): Promise<Prepared> {
    const name = dialogName(nb);
    const page = dlg2page(savedDialog(dialogOf(nb)), opts);
    const files = { md: page.markdown, ipynb: writeIpynb(page.dialog) };
    const hits = await scanSecrets(shareTexts(page.dialog, page.indexes), await this.known());
    const bytes = new TextEncoder().encode(files.md).length + new TextEncoder().encode(files.ipynb).length;
    const blocked =
      bytes > SHARE_MAX_BYTES
        ? `The share would be ${sizeText(bytes)}, over the ${sizeText(SHARE_MAX_BYTES)} a gist takes: leave out outputs or big messages.`
        : '';
    return { name, page, hits, files, blocked };
  }

  /** The share of this dialog on `t`, if it was shared there before. */
  previous(nb: vscode.NotebookDocument, t: GitHubTarget = githubTarget()): ShareRecord | undefined {
    return this.store.find(nb.uri.toString(), t.apiUrl);
  }

  /** A signed-in client: VS Code's sign-in, or a token a script gave (as `gh` takes GITHUB_TOKEN). */
  private async client(t: GitHubTarget, token?: string): Promise<GistClient | string> {
    if (token) return GistClient.create(token, t.apiUrl, t.label);
    let session: vscode.AuthenticationSession | undefined;
    try {
      session = await gistSession(t);
    } catch (e) {
      return `Sign in to ${t.label} to share (${e instanceof Error ? e.message : String(e)}): nothing was published.`;
    }
    if (!session) return `Not signed in to ${t.label}: nothing was published.`;
    return GistClient.create(session.accessToken, t.apiUrl, t.label);
  }

  /**
   * Publishes `p`: checks, signs in, creates or updates the gist, remembers it. `keepSecrets` shares
   * although something looks secret; `anew` creates a new gist when the old one is gone.
   */
  async publish(nb: vscode.NotebookDocument, p: Prepared, o: { keepSecrets?: boolean; anew?: boolean; token?: string } = {}): Promise<ShareResult> {
    if (p.blocked) return { ok: false, message: p.blocked };
    if (p.hits.length && !o.keepSecrets) {
      const secrets = p.hits.map(hitText);
      return { ok: false, message: `Not shared: something looks secret in ${secrets.length === 1 ? secrets[0] : `${secrets[0]} (and ${secrets.length - 1} more)`}. Remove it, leave the message out, or keep it knowingly in the preview.`, secrets };
    }
    const t = githubTarget();
    const c = await this.client(t, o.token);
    if (typeof c === 'string') return { ok: false, message: c };
    const before = this.previous(nb, t);
    const names = { md: `${p.name}.md`, ipynb: `${p.name}.ipynb` };
    const files: Record<string, { content: string } | null> = { [names.ipynb]: { content: p.files.ipynb }, [names.md]: { content: p.files.md } };
    const description = `${p.name}: a dialog shared with Dialog Notebooks`;
    let gist: Gist;
    try {
      if (before && !o.anew) {
        for (const old of before.files) if (!(old in files)) files[old] = null;
        gist = await c.updateGist(before.gistId, description, files);
      } else gist = await c.createGist(description, files as Record<string, { content: string }>);
    } catch (e) {
      if (!(e instanceof GistError)) throw e;
      log.warn(`share ${p.name}: ${e.message}`);
      if (e.kind === 'gone' && before) return { ok: false, gone: true, message: `The gist ${before.url} was deleted on ${t.label}. Share the dialog as a new gist?` };
      return { ok: false, message: e.message };
    }
    const now = Date.now();
    await this.store.put({ gistId: gist.id, url: gist.url, owner: gist.owner, dialog: nb.uri.toString(), name: p.name, files: [names.md, names.ipynb], apiUrl: t.apiUrl, sharedAt: before && !o.anew ? before.sharedAt : now, updatedAt: now });
    if (before && o.anew) await this.store.remove(before.gistId, before.apiUrl);
    const updated = !!before && !o.anew;
    log.info(`share ${p.name}: ${updated ? 'updated' : 'created'} gist ${gist.id}`);
    return { ok: true, updated, url: gist.url, gistId: gist.id, nbviewer: nbviewerUrl(t, gist.owner, gist.id), message: `${updated ? 'Updated' : 'Shared'} ${p.name} as a secret gist: ${gist.url}` };
  }

  /** Deletes a shared gist and forgets it (a gist already gone is forgotten too). */
  async remove(r: ShareRecord, token?: string): Promise<ShareResult> {
    const t = githubTarget();
    if (t.apiUrl !== r.apiUrl) return { ok: false, message: `${r.name} was shared to ${r.apiUrl}; sign in there (github-enterprise.uri) to delete it.` };
    const c = await this.client(t, token);
    if (typeof c === 'string') return { ok: false, message: c };
    try {
      await c.deleteGist(r.gistId);
    } catch (e) {
      if (!(e instanceof GistError) || e.kind !== 'gone') return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    await this.store.remove(r.gistId, r.apiUrl);
    log.info(`share ${r.name}: deleted gist ${r.gistId}`);
    return { ok: true, message: `Deleted the gist of ${r.name}.` };
  }

  /** A gist's files, for Open from URL (no sign-in: a secret gist is read by its id). */
  async readGist(id: string): Promise<Gist | string> {
    const t = githubTarget();
    const c = await GistClient.create('', t.apiUrl, t.label);
    try {
      return await c.getGist(id);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }
}
