// The "Dialog Notebooks" output channel: what the extension did, and why it refused or failed, where
// people look when something goes wrong (Output view). Never logs keys or dialog contents.

import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function registerLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  channel = vscode.window.createOutputChannel('Dialog Notebooks', { log: true });
  context.subscriptions.push(channel);
  return channel;
}

/** The channel; before activation (unit tests of pure code) a silent stand-in. */
export const log = {
  info: (msg: string, ...args: unknown[]) => channel?.info(msg, ...args),
  warn: (msg: string, ...args: unknown[]) => channel?.warn(msg, ...args),
  error: (msg: string | Error, ...args: unknown[]) => channel?.error(msg, ...args),
  debug: (msg: string, ...args: unknown[]) => channel?.debug(msg, ...args),
  show: () => channel?.show(true),
};
