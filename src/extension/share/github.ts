// Which GitHub a share goes to, and the sign-in for it: github.com through VS Code's `github` provider,
// or GitHub Enterprise through `github-enterprise` when VS Code's `github-enterprise.uri` setting is set
// (its API then at <uri>/api/v3). `dialogNotebook.share.authenticationProvider` names another provider.

import * as vscode from 'vscode';
import { config } from '../config';

export interface GitHubTarget {
  providerId: string;
  apiUrl: string;
  /** The web host gist pages are on (for telling a gist URL apart, and messages). */
  webUrl: string;
  /** How messages name it. */
  label: string;
  enterprise: boolean;
}

export function githubTarget(): GitHubTarget {
  const ghe = (vscode.workspace.getConfiguration('github-enterprise').get<string>('uri') ?? '').trim().replace(/\/+$/, '');
  const providerId = config.shareAuthenticationProvider || (ghe ? 'github-enterprise' : 'github');
  if (ghe) return { providerId, apiUrl: `${ghe}/api/v3`, webUrl: ghe, label: new URL(ghe).host, enterprise: true };
  return { providerId, apiUrl: 'https://api.github.com', webUrl: 'https://gist.github.com', label: 'GitHub', enterprise: false };
}

/** A session with the gist scope: asks the user to sign in when there is none; `again` after a 401. */
export async function gistSession(t: GitHubTarget, again = false): Promise<vscode.AuthenticationSession | undefined> {
  if (again) return vscode.authentication.getSession(t.providerId, ['gist'], { forceNewSession: { detail: `${t.label} refused the last sign-in: sign in again to share.` } });
  return vscode.authentication.getSession(t.providerId, ['gist'], { createIfNone: true });
}

/** The nbviewer page of a github.com gist (nbviewer reads only github.com). */
export function nbviewerUrl(t: GitHubTarget, owner: string, id: string): string | undefined {
  return t.enterprise ? undefined : `https://nbviewer.org/gist/${owner ? `${owner}/` : ''}${id}`;
}
