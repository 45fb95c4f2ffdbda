// API keys: in VS Code's SecretStorage (Dialog: Set API Key…), else the SDKs' usual environment
// variables. Never in settings, a dialog file or the log.

import * as vscode from 'vscode';
import { log } from '../log';
import { platform } from '../platform';
import { API_KEY_ENV } from '../secretHints';

export type KeyedProvider = 'anthropic' | 'openai';

const LABELS: Record<KeyedProvider, string> = { anthropic: 'Anthropic', openai: 'OpenAI-compatible endpoint' };
const secretName = (p: KeyedProvider) => `dialogNotebook.apiKey.${p}`;

export class ApiKeys {
  /** The stored keys as last read: the secret storage is a round trip to VS Code's main process, not paid per answer. */
  private readonly stored = new Map<KeyedProvider, Thenable<string | undefined>>();

  constructor(private readonly secrets: vscode.SecretStorage) {
    // Another window (or this one) changed a key: read it again.
    secrets.onDidChange((e) => (Object.keys(API_KEY_ENV) as KeyedProvider[]).forEach((p) => e.key === secretName(p) && this.stored.delete(p)));
  }

  /** The stored key, else the environment's; '' when neither has one. */
  async get(p: KeyedProvider): Promise<string> {
    let s = this.stored.get(p);
    if (!s) {
      s = this.secrets.get(secretName(p)).then(undefined, (e) => {
        this.stored.delete(p);
        throw e;
      });
      this.stored.set(p, s);
    }
    return (await s) || platform().env(API_KEY_ENV[p]) || '';
  }

  /**
   * Dialog: Set API Key…: asks for the provider and the key (a password box) unless given; an empty
   * key removes the stored one. Arguments are for scripts and tests.
   */
  async setCommand(provider?: unknown, key?: unknown): Promise<boolean> {
    let p: KeyedProvider | undefined = provider === 'anthropic' || provider === 'openai' ? provider : undefined;
    if (!p) {
      const pick = await vscode.window.showQuickPick(
        (Object.keys(LABELS) as KeyedProvider[]).map((id) => ({ label: LABELS[id], description: platform().kind === 'desktop' ? `instead of ${API_KEY_ENV[id]}` : undefined, id })),
        { title: 'Dialog: Set API Key', placeHolder: 'Which provider is the key for?' },
      );
      if (!pick) return false;
      p = pick.id;
    }
    let k = typeof key === 'string' ? key : undefined;
    if (k === undefined) {
      k = await vscode.window.showInputBox({
        title: `API key for ${LABELS[p]}`,
        prompt: 'Stored in VS Code’s secret storage; leave empty to remove the stored key.',
        password: true,
        ignoreFocusOut: true,
      });
      if (k === undefined) return false;
    }
    k = k.trim();
    if (k) await this.secrets.store(secretName(p), k);
    else await this.secrets.delete(secretName(p));
    this.stored.delete(p);
    log.info(`${LABELS[p]} API key ${k ? 'stored' : 'removed'}`);
    return true;
  }
}
