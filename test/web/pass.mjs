// The web pass (scripts/e2e.sh with E2E_WEB): a Playwright script for the shared harness's `run` mode with
// the extension loaded as a development extension and test/web/settings.json, whose `remote.extensionKind`
// puts it in the browser's web-worker extension host. It starts what the suites cannot start from a
// worker (mock model servers that answer CORS, a Jupyter Server allowing the workbench's origin), writes
// out/test/web/config.json, reloads the workbench with test/web/runner.js as the extension tests (VS Code
// runs a runner inside an extension in that extension's host), waits for the host to finish and reports
// each test, then `web: N passed, N failed`. WEB_SUITES, WEB_GREP, WEB_SKIP choose the tests.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PYTHON = process.env.WEB_PYTHON || '/usr/bin/python3';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** A Jupyter Server on 127.0.0.1 that lets `origin` (the workbench) in; null without jupyter_server. */
async function startJupyter(origin, log) {
  const probe = spawn(PYTHON, ['-c', 'import jupyter_server, ipykernel'], { stdio: 'ignore' });
  if ((await new Promise((r) => probe.on('exit', r).on('error', () => r(1)))) !== 0) {
    log(`no jupyter_server/ipykernel in ${PYTHON}: the Jupyter Server tests will fail`);
    return null;
  }
  const token = randomBytes(16).toString('hex');
  const port = await freePort();
  const root = mkdtempSync(join(tmpdir(), 'dialog-web-jupyter-'));
  const args = ['-m', 'jupyter_server', '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--no-browser', `--ServerApp.root_dir=${root}`,
    `--ServerApp.allow_origin=${origin}`, ...(process.getuid?.() === 0 ? ['--allow-root'] : [])];
  const p = spawn(PYTHON, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, JUPYTER_TOKEN: token } });
  let text = '';
  await new Promise((resolve, reject) => {
    p.stderr.on('data', (d) => {
      text += d;
      if (/is running at/.test(text)) resolve();
    });
    p.on('exit', (c) => reject(new Error(`jupyter-server exited (${c}): ${text}`)));
  });
  p.stderr.resume();
  return {
    url: `http://127.0.0.1:${port}/`,
    token,
    async stop() {
      if (p.exitCode === null) {
        const exited = new Promise((r) => p.once('exit', r));
        process.kill(-p.pid, 'SIGTERM');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export default async function webPass(ctx) {
  const { page, log, assert } = ctx;
  const root = ctx.extensions[0];
  const dir = join(root, 'out', 'test', 'web');
  const origin = new URL(ctx.baseUrl).origin;
  // DIALOG_TEST_NO_KERNEL=1 (npm test without Jupyter, by choice): no Jupyter Server suite.
  const suites = (process.env.WEB_SUITES || 'host').split(/\s+/).filter((s) => s && !(s === 'kernelWeb' && process.env.DIALOG_TEST_NO_KERNEL === '1'));
  const { startAnthropic, startOpenAI, startWebSite, startGitHub } = await import(pathToFileURL(join(dir, 'mocks.mjs')).href);
  const mocks = [];
  let site = null;
  let jupyter = null;
  let github = null;
  try {
    const cfg = { suites, grep: process.env.WEB_GREP || undefined, skip: process.env.WEB_SKIP || undefined };
    if (suites.includes('answerWeb')) {
      const replies = { anthropic: ['Hello ', 'from the browser.'], openai: ['OpenAI-compatible, ', 'in a web worker.'] };
      for (const [name, start] of [['anthropic', startAnthropic], ['openai', startOpenAI]]) {
        const key = `sk-${name}-web-e2e`;
        const mock = await start({ apiKey: key, cors: true });
        mock.enqueue({ text: replies[name], usage: { input: 12, output: 5 } });
        mocks.push([name, mock]);
        cfg[name] = { url: mock.url, key, replies: [replies[name].join('')] };
      }
    }
    if (suites.includes('readUrlWeb')) {
      // The model reads a page that lets browsers read it, then one that does not (as most sites).
      site ??= await startWebSite();
      const key = 'sk-anthropic-web-read';
      const mock = await startAnthropic({ apiKey: key, cors: true });
      mock.enqueue(
        { text: [], toolUses: [{ id: 'toolu_open', name: 'read_url', input: { url: `${site.url}/open/article.html` } }, { id: 'toolu_closed', name: 'read_url', input: { url: `${site.url}/article.html` } }] },
        { text: ['Widgets come in two sizes.'] },
      );
      mocks.push(['anthropic', mock]);
      cfg.readUrl = { url: mock.url, key, site: site.url };
    }
    if (suites.includes('shareWeb')) {
      // The stand-in answers browsers as api.github.com does; the local site refuses cross-origin reads.
      github = await startGitHub(undefined, { cors: true });
      site ??= await startWebSite();
      cfg.github = { url: github.url, token: github.token, site: site.url };
    }
    if (suites.includes('kernelWeb')) {
      jupyter = await startJupyter(origin, log);
      if (jupyter) cfg.jupyter = { url: jupyter.url, token: jupyter.token };
    }
    writeFileSync(join(dir, 'config.json'), JSON.stringify(cfg, null, 1));
    rmSync(join(dir, 'results.json'), { force: true });

    // The workbench ends the run through window.codeAutomationExit (the smoke-test driver of `--install dev`).
    let exited;
    const done = new Promise((r) => (exited = r));
    await page.exposeFunction('codeAutomationExit', (code) => exited(code));
    const url = new URL(ctx.url);
    const payload = JSON.parse(url.searchParams.get('payload') || '[]');
    payload.push(['extensionTestsPath', `vscode-remote://${url.host}${join(dir, 'runner.js')}`]);
    url.searchParams.set('payload', JSON.stringify(payload));
    log(`web pass: ${suites.join(' ')}`);
    await page.goto(url.href);
    const code = await done;
    const file = join(dir, 'results.json');
    const res = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { done: false, tests: [] };
    for (const t of res.tests) {
      const mark = t.state === 'passed' ? '✔' : t.state === 'failed' ? '✘' : '-';
      console.log(`  ${mark} ${t.title}${t.ms !== undefined ? ` (${t.ms}ms)` : ''}${t.error ? `\n      ${t.error.split('\n').slice(0, 6).join('\n      ')}` : ''}`);
    }
    const passed = res.tests.filter((t) => t.state === 'passed').length;
    const failed = res.tests.filter((t) => t.state === 'failed').length + (res.done ? 0 : 1);
    console.log(`web: ${passed} passed, ${failed} failed`);
    assert.ok(res.done, `the web runner did not finish (extension host exit code ${code}); see browser-console.log`);
    assert.equal(failed, 0, `${failed} web test(s) failed`);
    // The requests really came from the browser: the workbench's origin, Anthropic's browser header.
    for (const [name, mock] of mocks) {
      assert.ok(mock.requests.length > 0, `${name} was asked`);
      for (const r of mock.requests) {
        assert.ok(r.headers.origin, `${name}: a browser request (Origin) ${JSON.stringify(r.headers)}`);
        if (name === 'anthropic') assert.equal(r.headers['anthropic-dangerous-direct-browser-access'], 'true');
      }
    }
    // The gist API was called from the browser (Origin), after a CORS preflight as api.github.com gets.
    if (github) {
      const calls = github.requests.filter((r) => r.path.startsWith('/api/v3/gists'));
      assert.ok(calls.some((r) => r.method === 'POST') && calls.some((r) => r.method === 'PATCH') && calls.some((r) => r.method === 'DELETE'), 'the gist was created, updated and deleted');
      for (const r of calls) assert.ok(r.origin, `github: a browser request (Origin) ${r.method} ${r.path}`);
      assert.ok(github.requests.some((r) => r.method === 'OPTIONS'), 'the browser asked first (CORS preflight)');
    }
    assert.equal(passed > 0, true, 'some web test ran');
  } finally {
    for (const [, m] of mocks) await m.close();
    await site?.close();
    await jupyter?.stop();
    await github?.close();
  }
}
