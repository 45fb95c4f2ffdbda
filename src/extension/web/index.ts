// Reading the web (issue 52): read_url's session for an answer, its host consent and its User-Agent.
import * as vscode from 'vscode';
import { registerHostConsent } from './hostConsent';
import { setUserAgent } from './readUrlTool';

export { WebToolSession, offeredWebTools } from './readUrlTool';

export function registerWeb(context: vscode.ExtensionContext): void {
  registerHostConsent(context);
  setUserAgent(String(context.extension.packageJSON.version));
}
