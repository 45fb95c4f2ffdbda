// Which hosts read_url may read without asking (`dialogNotebook.web.confirm`): with "newDomain" a host the
// dialog's own text names, and every host the user allowed always (remembered for the workspace);
// any other is asked about in a modal (Allow once / Always for this host / Deny) before any request.

import * as vscode from 'vscode';
import { WebConfirm, hostInText } from '../../core/tools';
import { log } from '../log';

const KEY = 'dialogNotebook.web.allowedHosts';
let memo: vscode.Memento | undefined;

/** Keeps the "Always for this host" answers in the workspace's state. */
export function registerHostConsent(context: vscode.ExtensionContext): void {
  memo = context.workspaceState;
}

const remembered = (): string[] => memo?.get<string[]>(KEY) ?? [];

/** Whether read_url may read `host` now: by the setting, the dialog's text (read only when needed) and the user. */
export async function allowHost(host: string, mode: WebConfirm, dialogText: () => string, signal?: AbortSignal): Promise<boolean> {
  if (mode === 'never' || remembered().includes(host)) return true;
  if (mode === 'newDomain' && hostInText(host, dialogText())) return true;
  if (signal?.aborted) return false;
  const once = { title: 'Allow once' };
  const always = { title: 'Always for this host' };
  const deny = { title: 'Deny', isCloseAffordance: true };
  log.info(`read_url asks whether the AI may read ${host}.`);
  const question = `The AI wants to read a page on ${host}.`;
  const detail = `${mode === 'newDomain' ? 'This dialog does not name that host. ' : ''}A page it read may have asked for this: a request can carry what the AI puts in its address, such as your code, to that site. Allow it only if you expect the AI to read ${host}.`;
  const pick = await new Promise<vscode.MessageItem | undefined>((resolve) => {
    signal?.addEventListener('abort', () => resolve(undefined), { once: true });
    void vscode.window.showWarningMessage(question, { modal: true, detail }, once, always, deny).then(resolve, () => resolve(undefined));
  });
  if (pick === always) await memo?.update(KEY, [...remembered(), host]);
  log.info(`read_url: the user ${pick === always ? 'allows always' : pick === once ? 'allows once' : 'denies'} ${host}.`);
  return pick === once || pick === always;
}
