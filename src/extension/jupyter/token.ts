// The token of a remote Jupyter Server (dialogNotebook.jupyter.serverUrl): in VS Code's SecretStorage
// (Dialog: Set Jupyter Token…), else `JUPYTER_TOKEN`. Never in settings, a dialog file or the log.

import * as vscode from 'vscode';
import { log } from '../log';
import { platform } from '../platform';

const SECRET = 'dialogNotebook.jupyter.token';

export class JupyterToken {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  stored(): Thenable<string | undefined> {
    return this.secrets.get(SECRET);
  }

  /** Asks for the token (a password box) unless given; an empty one removes the stored token. */
  async setCommand(token?: unknown): Promise<boolean> {
    let t = typeof token === 'string' ? token : undefined;
    if (t === undefined) {
      t = await vscode.window.showInputBox({
        title: 'Jupyter Server token',
        prompt: `For the server of dialogNotebook.jupyter.serverUrl; stored in VS Code’s secret storage. Leave empty to remove it${platform().kind === 'desktop' ? ' (JUPYTER_TOKEN is used then)' : ''}.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (t === undefined) return false;
    }
    t = t.trim();
    if (t) await this.secrets.store(SECRET, t);
    else await this.secrets.delete(SECRET);
    log.info(`Jupyter token ${t ? 'stored' : 'removed'}`);
    return true;
  }
}
