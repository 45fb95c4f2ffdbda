// The set-up lines the connect command offers, one per kind of agent: each puts the server's URL and its
// bearer token where that agent reads them. Codex takes no token in its config file, only the name of an
// environment variable that holds it. What the list shows masks the token (a shared screen shows no secret);
// what is copied holds it.

/** The name agents know the server by (`claude mcp add … dialogs`, `[mcp_servers.dialogs]`). */
export const SERVER_NAME = 'dialogs';
/** The environment variable Codex reads the token from. */
export const CODEX_TOKEN_VAR = 'DIALOGS_MCP_TOKEN';

export interface SetupLine {
  /** Who it is for: "Claude Code". */
  agent: string;
  /** What to do with it. */
  how: string;
  /** The text copied. */
  text: string;
  /** The text shown: `text` with the token masked. */
  shown: string;
}

/** What stands for the token on screen. */
export const TOKEN_MASK = '••••••••';

/** `text` with every occurrence of `token` masked. */
export const maskToken = (text: string, token: string): string => (token ? text.split(token).join(TOKEN_MASK) : text);

export function setupLines(url: string, token: string): SetupLine[] {
  const json = { mcpServers: { [SERVER_NAME]: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } };
  const lines: Omit<SetupLine, 'shown'>[] = [
    { agent: 'Claude Code', how: 'run it in a terminal', text: `claude mcp add --transport http ${SERVER_NAME} ${url} --header "Authorization: Bearer ${token}"` },
    { agent: 'Codex', how: 'run it in a terminal, and keep the export in your shell profile', text: `export ${CODEX_TOKEN_VAR}=${token} && codex mcp add ${SERVER_NAME} --url ${url} --bearer-token-env-var ${CODEX_TOKEN_VAR}` },
    { agent: 'Codex config', how: `add it to ~/.codex/config.toml, with ${CODEX_TOKEN_VAR} set in Codex's environment`, text: `[mcp_servers.${SERVER_NAME}]\nurl = "${url}"\nbearer_token_env_var = "${CODEX_TOKEN_VAR}"\n` },
    { agent: 'JSON', how: "merge it into the agent's MCP settings (Cursor, Claude Desktop, others)", text: JSON.stringify(json, null, 2) },
  ];
  return lines.map((l) => ({ ...l, shown: maskToken(l.text, token) }));
}
