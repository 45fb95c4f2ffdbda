// Every setting of the extension, read in one place (`dialogNotebook.*` in package.json). Values are
// read when asked for, so a change in the Settings editor applies without a reload.

import * as vscode from 'vscode';
import { DialogMode, isMode } from '../core/answer';
import { DEFAULT_CODE_LANGUAGE, DEFAULT_GHOST_CONTEXT_TOKENS, DEFAULT_MAX_REPLY_TOKENS, DEFAULT_MAX_TOOL_ROUNDS, DEFAULT_MCP_PORT, DEFAULT_MODEL, DEFAULT_SYSTEM_PROMPT, DEFAULT_THINKING_BUDGET, DEFAULT_WEB_PAGE_BYTES, DEFAULT_WEB_RESULT_TOKENS, DEFAULT_WEB_TIMEOUT_S, REASONING_EFFORTS, ReasoningEffort, ToolsConfirm } from './defaults';
import type { WebConfirm } from '../core/tools';

const SECTION = 'dialogNotebook';

function get<T>(key: string, fallback: T): T {
  return vscode.workspace.getConfiguration(SECTION).get<T>(key, fallback);
}

/** A positive number setting; anything else (0, negative, a string typed into settings.json) is the default. */
function positive(key: string, fallback: number): number {
  const v = get<unknown>(key, fallback);
  return typeof v === 'number' && v > 0 ? v : fallback;
}

export const config = {
  /** VS Code's `notebook.outline.showCodeCells`: off by default, and then the Outline omits prompts. */
  get outlineShowsCodeCells(): boolean {
    return vscode.workspace.getConfiguration('notebook.outline').get<unknown>('showCodeCells') === true;
  },
  setOutlineShowsCodeCells(): Thenable<void> {
    return vscode.workspace.getConfiguration('notebook.outline').update('showCodeCells', true, vscode.ConfigurationTarget.Global);
  },
  get openDialogsByDefault(): boolean {
    return get<unknown>('openDialogsByDefault', false) === true;
  },
  /** Written by the offer shown when a dialog opens in Jupyter (user scope: it is a habit, not a project's choice). */
  setOpenDialogsByDefault(on: boolean): Thenable<void> {
    return vscode.workspace.getConfiguration(SECTION).update('openDialogsByDefault', on, vscode.ConfigurationTarget.Global);
  },
  get defaultCodeLanguage(): string {
    return get('defaultCodeLanguage', DEFAULT_CODE_LANGUAGE) || DEFAULT_CODE_LANGUAGE;
  },
  /** Message search across the workspace's dialogs (issue 53): the index is built and kept up to date. */
  get searchEnabled(): boolean {
    return get<unknown>('search.enabled', true) !== false;
  },
  get showUnsetFlags(): boolean {
    return get<unknown>('statusBar.showUnsetFlags', true) !== false;
  },
  contextBudget(fallback: number): number {
    return positive('contextBudget', fallback);
  },
  maxImagePixels(fallback: number): number {
    return positive('history.maxImagePixels', fallback);
  },
  maxFileBytes(fallback: number): number {
    return positive('history.maxFileBytes', fallback);
  },
  /** `dialogNotebook.model`: `<provider>:<model id>`. */
  get model(): string {
    const v = get<unknown>('model', DEFAULT_MODEL);
    return typeof v === 'string' && v.trim() ? v.trim() : DEFAULT_MODEL;
  },
  /** A provider's base URL setting ('' → the SDK's own environment variable, else the public API). */
  baseUrl(provider: 'anthropic' | 'openai'): string {
    const v = get<unknown>(`${provider}.baseUrl`, '');
    return typeof v === 'string' ? v.trim() : '';
  },
  get systemPrompt(): string {
    const v = get<unknown>('systemPrompt', DEFAULT_SYSTEM_PROMPT);
    return typeof v === 'string' ? v : DEFAULT_SYSTEM_PROMPT;
  },
  get maxReplyTokens(): number {
    return Math.floor(positive('maxReplyTokens', DEFAULT_MAX_REPLY_TOKENS));
  },
  /** `dialogNotebook.defaultMode`: the mode of a dialog whose metadata names none (and of new dialogs). */
  get defaultMode(): DialogMode {
    const v = get<unknown>('defaultMode', 'standard');
    return isMode(v) ? v : 'standard';
  },
  /** Anthropic's thinking budget (at least the API's minimum, 1,024). */
  get thinkingBudget(): number {
    return Math.max(1024, Math.floor(positive('thinkingBudget', DEFAULT_THINKING_BUDGET)));
  },
  /** OpenAI-compatible `reasoning_effort` for a prompt answered with thinking. */
  get reasoningEffort(): ReasoningEffort {
    const v = get<unknown>('reasoningEffort', 'medium');
    return (REASONING_EFFORTS as readonly unknown[]).includes(v) ? (v as ReasoningEffort) : 'medium';
  },
  /** Rounds of kernel tool calls one answer may make. */
  get maxToolRounds(): number {
    return Math.floor(positive('maxToolRounds', DEFAULT_MAX_TOOL_ROUNDS));
  },
  /** `dialogNotebook.tools.confirm`: which dialog tool calls ask the user first. */
  get toolsConfirm(): ToolsConfirm {
    const v = get<unknown>('tools.confirm', 'destructive');
    return v === 'always' || v === 'never' ? v : 'destructive';
  },
  /** `dialogNotebook.web.enabled`: every prompt gets read_url (and web search, where the provider has it). */
  get webEnabled(): boolean {
    return get<unknown>('web.enabled', true) !== false;
  },
  /** `dialogNotebook.web.confirm`: which hosts read_url asks about first. */
  get webConfirm(): WebConfirm {
    const v = get<unknown>('web.confirm', 'newDomain');
    return v === 'always' || v === 'never' ? v : 'newDomain';
  },
  /** `dialogNotebook.web.allowPrivateAddresses`: read_url may read this machine and the private network. */
  get webAllowPrivate(): boolean {
    return get<unknown>('web.allowPrivateAddresses', false) === true;
  },
  /** `dialogNotebook.web.maxResultTokens`: a page read is cut beyond it; 0: never. */
  get webMaxResultTokens(): number {
    const v = get<unknown>('web.maxResultTokens', DEFAULT_WEB_RESULT_TOKENS);
    return typeof v === 'number' && v >= 0 ? Math.floor(v) : DEFAULT_WEB_RESULT_TOKENS;
  },
  /** `dialogNotebook.web.timeout` in ms. */
  get webTimeoutMs(): number {
    return positive('web.timeout', DEFAULT_WEB_TIMEOUT_S) * 1000;
  },
  /** `dialogNotebook.web.maxPageBytes`: a page is read up to this size, then converted. */
  get webMaxPageBytes(): number {
    return Math.floor(positive('web.maxPageBytes', DEFAULT_WEB_PAGE_BYTES));
  },
  /** `dialogNotebook.mcp.enabled`: the agents' MCP server starts with the extension. */
  get mcpEnabled(): boolean {
    return get<unknown>('mcp.enabled', false) === true;
  },
  /** `dialogNotebook.mcp.port`: the agents' MCP server's port on 127.0.0.1. */
  get mcpPort(): number {
    const p = positive('mcp.port', DEFAULT_MCP_PORT);
    return Number.isInteger(p) && p < 65536 ? p : DEFAULT_MCP_PORT;
  },
  /** `dialogNotebook.mcp.pythonTimeLimit`, in ms: an agent's python call is interrupted after it. */
  get mcpPythonTimeLimitMs(): number {
    return positive('mcp.pythonTimeLimit', 50) * 1000;
  },
  /** `dialogNotebook.mcp.maxResultTokens`: an agent's tool result is cut beyond it; 0: never. */
  get mcpMaxResultTokens(): number {
    const v = get<unknown>('mcp.maxResultTokens', 20000);
    return typeof v === 'number' && v >= 0 ? Math.floor(v) : 20000;
  },
  /** The model's input window in tokens; 0: from the model (LM API, or the table of known models). */
  get contextWindow(): number {
    return Math.floor(positive('contextWindow', 0));
  },
  /** `dialogNotebook.ghostText.auto`: ghost text while typing, not only on Alt+. (off: nothing is sent unasked). */
  get ghostTextAuto(): boolean {
    return get<unknown>('ghostText.auto', false) === true;
  },
  /** `dialogNotebook.ghostText.model`: the model of ghost text and Edit with AI; '': `dialogNotebook.model`. */
  get ghostTextModel(): string {
    const v = get<unknown>('ghostText.model', '');
    return typeof v === 'string' && v.trim() ? v.trim() : this.model;
  },
  /** `dialogNotebook.ghostText.maxContextTokens`: the most of the dialog a ghost-text request carries. */
  get ghostTextMaxContextTokens(): number {
    return Math.floor(positive('ghostText.maxContextTokens', DEFAULT_GHOST_CONTEXT_TOKENS));
  },
  /** `dialogNotebook.jupyter.serverUrl`: the Jupyter Server to run code on; '': start a local one. */
  get jupyterServerUrl(): string {
    const v = get<unknown>('jupyter.serverUrl', '');
    return typeof v === 'string' ? v.trim() : '';
  },
  /** `dialogNotebook.python`: the Python of the local Jupyter Server; '': `python3` on the PATH. */
  get python(): string {
    const v = get<unknown>('python', '');
    return typeof v === 'string' ? v.trim() : '';
  },
  /** `dialogNotebook.exportPythonOnSave`: saving a dialog with exported cells also writes `<dialog>.py`. */
  get exportPythonOnSave(): boolean {
    return get<unknown>('exportPythonOnSave', true) !== false;
  },
  /** `dialogNotebook.share.keepOutputs`: Dialog: Share… keeps code outputs unless unticked in the preview. */
  get shareKeepOutputs(): boolean {
    return get<unknown>('share.keepOutputs', true) !== false;
  },
  /** `dialogNotebook.share.authenticationProvider`: the VS Code sign-in shares use; '': github, or github-enterprise when `github-enterprise.uri` is set. */
  get shareAuthenticationProvider(): string {
    const v = get<unknown>('share.authenticationProvider', '');
    return typeof v === 'string' ? v.trim() : '';
  },
  /** Whether a change event touches `key` (e.g. 'statusBar.showUnsetFlags'). */
  affects(e: vscode.ConfigurationChangeEvent, key: string): boolean {
    return e.affectsConfiguration(`${SECTION}.${key}`);
  },
};
