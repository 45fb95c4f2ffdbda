// Secret gists through GitHub's REST API (@octokit/core): create, update, delete, read. Every failure
// becomes a GistError whose message says what happened and what to do; nothing here is retried, so a
// failed create leaves no gist behind (GitHub creates a gist whole or not at all).

import type { Octokit } from '@octokit/core';
import { CROSS_ORIGIN_HINT, platform } from '../platform';

export interface GistFile {
  content: string;
}

export interface Gist {
  id: string;
  /** The gist's page. */
  url: string;
  owner: string;
  /** The files as GitHub returned them (content may be truncated over 1 MB: raw_url has it whole). */
  files: Record<string, { filename: string; raw_url?: string; content?: string; truncated?: boolean } | null>;
}

export type GistFailure = 'offline' | 'signin' | 'forbidden' | 'gone' | 'refused' | 'other';

export class GistError extends Error {
  constructor(
    message: string,
    readonly kind: GistFailure,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GistError';
  }
}

/** What GitHub's error says, for the message: its `message` and the first validation error. */
function githubSays(e: { response?: { data?: unknown } }): string {
  const d = e.response?.data as { message?: string; errors?: { message?: string; field?: string; code?: string }[] } | undefined;
  const first = d?.errors?.[0];
  const detail = first ? first.message ?? [first.field, first.code].filter(Boolean).join(' ') : '';
  return [d?.message, detail].filter(Boolean).join(': ');
}

/** A failed request as a GistError, its message naming the next step; `browser`: made by VS Code in a browser. */
export function gistError(e: unknown, host: string, browser = false): GistError {
  const status = (e as { status?: number }).status;
  const response = (e as { response?: unknown }).response;
  if (!response) {
    const why = e instanceof Error ? e.message : String(e);
    // GitHub's API allows cross-origin requests; a server that does not cannot be used from vscode.dev.
    if (browser) return new GistError(`${host} could not be reached from the browser (${why}): nothing was published. Check the connection; if it holds, ${CROSS_ORIGIN_HINT}`, 'offline');
    return new GistError(`${host} could not be reached (${why}): nothing was published. Check the connection and try again.`, 'offline');
  }
  const says = githubSays(e as { response?: { data?: unknown } });
  if (status === 401) return new GistError(`${host} refused the sign-in (401${says ? `: ${says}` : ''}): sign in again and retry.`, 'signin', 401);
  if (status === 403) return new GistError(`${host} refused the request (403${says ? `: ${says}` : ''}): the sign-in needs the gist scope, or a rate limit was hit; try again later or sign in again.`, 'forbidden', 403);
  if (status === 404) return new GistError(`The gist is gone from ${host} (404): it was deleted there.`, 'gone', 404);
  if (status === 422) return new GistError(`${host} refused the gist (422${says ? `: ${says}` : ''}): nothing was published. A dialog too big for a gist can leave out outputs or images.`, 'refused', 422);
  return new GistError(`${host} answered ${status ?? 'an error'}${says ? `: ${says}` : ''}: nothing was published. Try again later.`, 'other', status);
}

function asGist(d: { id?: string; html_url?: string; owner?: { login?: string } | null; files?: Gist['files'] }): Gist {
  return { id: String(d.id ?? ''), url: String(d.html_url ?? ''), owner: d.owner?.login ?? '', files: d.files ?? {} };
}

export class GistClient {
  private constructor(
    private readonly octokit: Octokit,
    /** How messages name the server: "GitHub" or the Enterprise host. */
    readonly host: string,
  ) {}

  /** A client signed in with `token`, or anonymous ('': reading a gist needs no sign-in). */
  static async create(token: string, apiUrl: string, host: string): Promise<GistClient> {
    const { Octokit } = await import('@octokit/core');
    return new GistClient(new Octokit({ ...(token ? { auth: token } : {}), baseUrl: apiUrl, userAgent: 'dialog-notebooks' }), host);
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw gistError(e, this.host, platform().kind === 'browser');
    }
  }

  /** A new secret gist. */
  async createGist(description: string, files: Record<string, GistFile>): Promise<Gist> {
    const r = await this.call(() => this.octokit.request('POST /gists', { description, public: false, files }));
    return asGist(r.data as never);
  }

  /** A new revision of gist `id`; a file set to null is deleted from it. */
  async updateGist(id: string, description: string, files: Record<string, GistFile | null>): Promise<Gist> {
    const r = await this.call(() => this.octokit.request('PATCH /gists/{gist_id}', { gist_id: id, description, files: files as never }));
    return asGist(r.data as never);
  }

  async deleteGist(id: string): Promise<void> {
    await this.call(() => this.octokit.request('DELETE /gists/{gist_id}', { gist_id: id }));
  }

  async getGist(id: string): Promise<Gist> {
    const r = await this.call(() => this.octokit.request('GET /gists/{gist_id}', { gist_id: id }));
    return asGist(r.data as never);
  }
}
