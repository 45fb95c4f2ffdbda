// The settings' defaults and value sets, beside config.ts and below everything: no vscode import, so
// config.ts stands on the ground and any module (and unit test) may use them.

/** The `dialogNotebook.model` of a fresh install. */
export const DEFAULT_MODEL = 'anthropic:claude-sonnet-5-5';
export const DEFAULT_CODE_LANGUAGE = 'python';
export const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful assistant working with the user in a dialog: a notebook of notes, code cells with their outputs, and prompts. Answer the last prompt; reply in Markdown.';
export const DEFAULT_MAX_REPLY_TOKENS = 8192;
/** Anthropic's `budget_tokens` for a prompt answered with thinking. */
export const DEFAULT_THINKING_BUDGET = 8000;
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
/** `destructive`: before `python` runs code or `del_msgs` deletes; `always`: before every edit too. */
export type ToolsConfirm = 'destructive' | 'always' | 'never';
/** Seed 004's `max_interrupt_steps`. */
export const DEFAULT_MAX_TOOL_ROUNDS = 5;
/** `dialogNotebook.web.*` (issue 52): read_url's result limit (tokens), time limit (s) and page size limit (bytes). */
export const DEFAULT_WEB_RESULT_TOKENS = 10000;
export const DEFAULT_WEB_TIMEOUT_S = 30;
export const DEFAULT_WEB_PAGE_BYTES = 2_000_000;
/** The agents' MCP server's port (`dialogNotebook.mcp.port`): fixed, so a configured agent finds it again. */
export const DEFAULT_MCP_PORT = 7316;
/** The dialog context of one ghost-text request: small, as it is sent on every Alt+. */
export const DEFAULT_GHOST_CONTEXT_TOKENS = 8000;
