// What the web pass (test/web/pass.mjs, run by scripts/e2e.sh with E2E_WEB) hands the suites that run in
// the web-worker extension host: it writes out/test/web/config.json, the runner reads it through
// vscode.workspace.fs (the worker has no environment and no Node fs) before it loads the suites.

export interface WebPassConfig {
  /** test/extension and test/web suite names to run. */
  suites: string[];
  grep?: string;
  /** Mocha's invert: run the tests whose title does NOT match `skip`. */
  skip?: string;
  /** Mock model servers the pass started (they answer CORS); their responses are scripted in order. */
  anthropic?: { url: string; key: string; replies: string[] };
  openai?: { url: string; key: string; replies: string[] };
  /** read_url from the browser: a mock Anthropic server scripted to read two pages of `site`. */
  readUrl?: { url: string; key: string; site: string };
  /** The GitHub stand-in (test/mocks/githubServer.ts) answering CORS as api.github.com does, its token, and a site that refuses CORS. */
  github?: { url: string; token: string; site: string };
  /** A Jupyter Server the pass started, allowing the workbench's origin. */
  jupyter?: { url: string; token: string };
}

let current: WebPassConfig | undefined;

export function setWebConfig(c: WebPassConfig): void {
  current = c;
}

export function webConfig(): WebPassConfig {
  if (!current) throw new Error('the web pass config was not read');
  return current;
}
