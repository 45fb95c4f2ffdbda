// What this user shared, remembered in VS Code's global storage (never in the dialog file): per dialog
// and GitHub, the gist and its file names, so sharing again updates the same gist.

import type * as vscode from 'vscode';

export interface ShareRecord {
  gistId: string;
  url: string;
  owner: string;
  /** The dialog's URI when shared. */
  dialog: string;
  name: string;
  /** The gist's file names (renamed dialogs delete the old ones on update). */
  files: string[];
  /** The API it went to. */
  apiUrl: string;
  sharedAt: number;
  updatedAt: number;
}

const KEY = 'dialogNotebook.shares';

export class ShareStore {
  constructor(private readonly state: vscode.Memento) {}

  all(): ShareRecord[] {
    return this.state.get<ShareRecord[]>(KEY, []);
  }

  find(dialog: string, apiUrl: string): ShareRecord | undefined {
    return this.all().find((r) => r.dialog === dialog && r.apiUrl === apiUrl);
  }

  async put(r: ShareRecord): Promise<void> {
    await this.state.update(KEY, [r, ...this.all().filter((x) => !(x.gistId === r.gistId && x.apiUrl === r.apiUrl))]);
  }

  async remove(gistId: string, apiUrl: string): Promise<void> {
    await this.state.update(KEY, this.all().filter((x) => !(x.gistId === gistId && x.apiUrl === apiUrl)));
  }
}
