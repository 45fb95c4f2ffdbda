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
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The stored key, else the environment's; '' when neither has one. */
  async get(p: KeyedProvider): Promise<string> {
    return (await this.secrets.get(secretName(p))) || platform().env(API_KEY_ENV[p]) || '';
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
    log.info(`${LABELS[p]} API key ${k ? 'stored' : 'removed'}`);
    return true;
  }
}
