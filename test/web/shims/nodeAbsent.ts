// Node modules the shared suites import only for tests that start local processes or servers
// (node:http for the mock model servers, node:child_process to make a venv): in the web test bundle those tests fail at once, saying why.
// The web pass leaves them out (WebPassConfig.skip); test/web has the browser's own versions.
function absent(): never {
  throw new Error('not in the web-worker extension host (no Node): this test runs only in the desktop pass');
}
export const createServer = absent;
export const execFileSync = absent;
export default { createServer, execFileSync };
