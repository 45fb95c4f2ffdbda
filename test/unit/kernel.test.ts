// The kernel layer against a real Jupyter Server and a real ipykernel (Debian's python3-ipykernel,
// jupyter-server, python3-matplotlib; scripts/install-jupyter.sh, run by `npm test`). Skipped, saying so, only
// with DIALOG_TEST_NO_KERNEL=1; without Jupyter they fail.
// Every wait is for an event or a state, never a fixed sleep.

import { strict as assert } from 'node:assert';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Output, b64decode, varsHist } from '../../src/core';
import { JupyterConnectError, JupyterConnection, connectServer } from '../../src/extension/jupyter/connection';
import { probe } from '../../src/extension/environments/discovery';
import { anthropicTool, callTool, kernelVariables, kernelVars, openaiTool, toolSchemas } from '../../src/extension/kernel/hostTools';
import { KernelSpecFolder } from '../../src/extension/environments/kernelSpecs';
import { JupyterNotFoundError, LocalServer, findJupyterServer, startLocalServer } from '../../src/extension/jupyter/localServer';
import { ExecuteResult, KernelError, KernelEvalError, KernelSession, KernelStatus } from '../../src/extension/kernel/session';
import { setPlatform } from '../../src/extension/platform';
import { nodePlatform } from '../../src/node/platform';

setPlatform(nodePlatform); // connectServer takes the WebSocket class from the platform, as in the extension

const text = (o: Output) => (Array.isArray(o.text) ? o.text.join('') : String(o.text));
const streams = (outs: readonly Output[], name = 'stdout') =>
  outs
    .filter((o) => o.output_type === 'stream' && o.name === name)
    .map(text)
    .join('');

/** Resolves with the first status the session reports that satisfies `pred`. */
function statusWhere(ks: KernelSession, pred: (s: KernelStatus) => boolean): Promise<KernelStatus> {
  return new Promise((resolve) => {
    const d = ks.onStatus((s) => {
      if (pred(s)) {
        d.dispose();
        resolve(s);
      }
    });
  });
}

/** Runs `code`, calling `onFirst` once when stdout first contains `marker` (the cell is running by then). */
function runUntil(ks: KernelSession, code: string, marker: string, onFirst: () => void): Promise<ExecuteResult> {
  let fired = false;
  return ks.execute(code, {
    onOutputs: (outs) => {
      if (!fired && streams(outs).includes(marker)) {
        fired = true;
        onFirst();
      }
    },
  });
}

/** Polls a condition that no event reports (a process gone), failing after `ms`. */
async function until(cond: () => boolean, what: string, ms = 30000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function kernelPid(ks: KernelSession): Promise<number> {
  const [v] = await kernelVars(ks, ['__import__("os").getpid()']);
  assert.ok('text' in v, JSON.stringify(v));
  return Number(v.text);
}

describe("kernel: a venv's kernel on Debian's Jupyter Server", function () {
  this.timeout(180000);
  it('runs through a kernelspec of ours on the server’s JUPYTER_PATH', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialog-venv-kernel-'));
    const specs = new KernelSpecFolder();
    let server: LocalServer | undefined;
    let conn: JupyterConnection | undefined;
    try {
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(dir, '.venv')]);
      const env = (await probe({ path: join(dir, '.venv', 'bin', 'python'), kind: 'venv', name: '.venv' }))!;
      assert.equal(env.ipykernel, true, 'system site packages: ipykernel');
      const name = specs.ensure(env);
      server = await startLocalServer({ python: '/usr/bin/python3', rootDir: dir, jupyterPath: specs.dir });
      conn = await connectServer(server.url, server.token);
      const ks = await KernelSession.start(conn, { path: 'd.ipynb', kernelName: name });
      const r = await ks.execute('import sys\nprint(sys.prefix)');
      assert.equal(r.outputs.map((o) => [o.text ?? ''].flat().join('')).join('').trim(), join(dir, '.venv'));
      await ks.dispose();
    } finally {
      conn?.dispose();
      await server?.dispose();
      specs.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('kernel: finding Jupyter', () => {
  it('a Python without Jupyter Server is a clear error saying what to install', async () => {
    await assert.rejects(findJupyterServer('/nonexistent/python3'), (e: Error) => {
      assert.ok(e instanceof JupyterNotFoundError);
      assert.match(e.message, /\/nonexistent\/python3: .*ENOENT/);
      assert.match(e.message, /pip install jupyter_server ipykernel/);
      assert.match(e.message, /dialogNotebook\.python/);
      return true;
    });
  });
});

describe('kernel: a real Jupyter Server and kernel', function () {
  this.timeout(120000);
  const dir = mkdtempSync(join(tmpdir(), 'dialog-kernel-'));
  let server: LocalServer | undefined;
  let conn: JupyterConnection | undefined;
  let ks: KernelSession;

  const { debug, warn } = console;
  let found = false;

  before(async function () {
    // @jupyterlab/services logs every WebSocket and kernel status change, and each reconnection after a restart.
    console.debug = () => {};
    console.warn = (...a: unknown[]) => void (/^Connection lost/.test(String(a[0])) || warn(...a));
    if (process.env.DIALOG_TEST_NO_KERNEL === '1') {
      console.log('    kernel tests skipped: DIALOG_TEST_NO_KERNEL=1');
      this.skip();
    }
    try {
      server = await startLocalServer({ rootDir: dir });
    } catch (e) {
      // `npm test` installs Jupyter first (scripts/install-jupyter.sh): a missing one is a failure here.
      if (e instanceof JupyterNotFoundError) throw new Error(`${e.message} (run scripts/install-jupyter.sh, or set DIALOG_TEST_NO_KERNEL=1 to skip the kernel tests)`, { cause: e });
      throw e;
    }
    found = true;
    conn = await connectServer(server.url, server.token);
    ks = await KernelSession.start(conn, { path: 'dialog.ipynb' });
  });

  after(async () => {
    await ks?.dispose();
    conn?.dispose();
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
    Object.assign(console, { debug, warn });
  });

  it('the local server listens on 127.0.0.1 with a token, and the kernel runs in the dialog folder', async () => {
    assert.match(server!.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.match(server!.token, /^[0-9a-f]{48}$/);
    assert.equal(ks.status, 'idle');
    const r = await ks.execute('import os\nos.getcwd()');
    assert.equal(r.status, 'ok');
    assert.deepEqual(r.outputs[0].data, { 'text/plain': JSON.stringify(dir).replace(/"/g, "'") });
  });

  it('print and stderr become stream outputs, the value an execute_result, with the execution count', async () => {
    const counts: number[] = [];
    const r = await ks.execute('import sys\nprint("hello")\nprint("oops", file=sys.stderr)\n6 * 7', { onExecutionCount: (n) => counts.push(n) });
    assert.equal(r.status, 'ok');
    assert.equal(streams(r.outputs), 'hello\n');
    assert.equal(streams(r.outputs, 'stderr'), 'oops\n');
    const res = r.outputs.find((o) => o.output_type === 'execute_result')!;
    assert.deepEqual(res.data, { 'text/plain': '42' });
    assert.equal(res.execution_count, r.executionCount);
    assert.deepEqual(counts, [r.executionCount]);
    assert.equal((await ks.execute('6 * 7;')).outputs.length, 0, 'a trailing ; suppresses the result');
  });

  it('outputs stream while the cell runs', async () => {
    const flag = join(dir, 'go');
    const code = `import os, time\nprint("waiting", flush=True)\nwhile not os.path.exists(${JSON.stringify(flag)}): time.sleep(0.01)\nprint("done")`;
    // The cell only finishes once the test has seen its first output: proof that it arrived mid-run.
    const r = await runUntil(ks, code, 'waiting', () => writeFileSync(flag, ''));
    assert.equal(r.status, 'ok');
    assert.equal(streams(r.outputs), 'waiting\ndone\n');
  });

  it('display updates and clear_output(wait=True) behave as in Jupyter', async () => {
    const seen: number[] = [];
    const upd = await ks.execute('from IPython.display import display, clear_output\nh = display("a", display_id=True)\nh.update("b")', {
      onOutputs: (outs) => seen.push(outs.length),
    });
    assert.equal(upd.outputs.length, 1);
    assert.deepEqual(upd.outputs[0].data, { 'text/plain': "'b'" });
    assert.ok(typeof (upd.outputs[0].metadata as { did?: unknown }).did === 'string', 'the display id is kept as metadata.did');
    assert.deepEqual(seen, [1, 1]);
    const clr = await ks.execute('print("x")\nclear_output(wait=True)\nprint("y")');
    assert.equal(streams(clr.outputs), 'y\n');
    assert.equal(clr.outputs.length, 1);
  });

  it('a matplotlib plot arrives as display_data image/png', async () => {
    const r = await ks.execute('import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()');
    assert.equal(r.status, 'ok');
    const img = r.outputs.find((o) => o.output_type === 'display_data' && (o.data as Record<string, unknown>)['image/png']);
    assert.ok(img, JSON.stringify(r.outputs).slice(0, 500));
    const png = b64decode(String((img.data as Record<string, unknown>)['image/png']));
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  });

  it('an error gives an error output with its traceback', async () => {
    const r = await ks.execute('def f():\n    return 1 / 0\nf()');
    assert.equal(r.status, 'error');
    const err = r.outputs.find((o) => o.output_type === 'error')!;
    assert.equal(err.ename, 'ZeroDivisionError');
    assert.equal(err.evalue, 'division by zero');
    assert.ok(Array.isArray(err.traceback) && err.traceback.length >= 2);
    assert.match((err.traceback as string[]).join('\n').replace(/\x1b\[[0-9;]*m/g, ''), /return 1 \/ 0/);
    assert.deepEqual(await kernelVars(ks, ['1']), [{ expr: '1', type: 'int', text: '1' }], 'host requests survive the abort window after an error');
  });

  it('interrupt stops a time.sleep(600); the kernel keeps its state', async () => {
    await ks.execute('kept = 5');
    const r = await runUntil(ks, 'import time\nprint("sleeping", flush=True)\ntime.sleep(600)', 'sleeping', () => void ks.interrupt());
    assert.equal(r.status, 'error');
    assert.equal(r.outputs.find((o) => o.output_type === 'error')?.ename, 'KeyboardInterrupt');
    assert.deepEqual((await ks.execute('kept')).outputs[0].data, { 'text/plain': '5' });
  });

  it('$`expr` values: type name and str(), bytes and images as media for vars_hist', async () => {
    await ks.execute('x = 42\ns = "hi"\nclass P:\n    def __str__(self): return "P!"\np = P()\nraw = b"\\x89PNG\\r\\n\\x1a\\n"\nfig = plt.figure()\n_ = plt.plot([1, 2])');
    const vals = await kernelVars(ks, ['x', 's', 'p', 'x * 2', 'raw', 'fig', 'missing']);
    assert.deepEqual(vals.slice(0, 4), [
      { expr: 'x', type: 'int', text: '42' },
      { expr: 's', type: 'str', text: 'hi' },
      { expr: 'p', type: 'P', text: 'P!' },
      { expr: 'x * 2', type: 'int', text: '84' },
    ]);
    const [raw, fig, missing] = vals.slice(4);
    assert.ok('bytes' in raw && raw.type === 'bytes' && raw.bytes.length === 8);
    assert.ok('bytes' in fig && fig.type === 'Figure');
    assert.deepEqual([...fig.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.deepEqual(missing, { expr: 'missing', error: "NameError: name 'missing' is not defined" });
    const [turn] = varsHist({ supports_vision: true }, { fig: fig.bytes });
    assert.match(String(turn[0]), /provides values of: \$`fig`/);
    assert.match(String(turn[1]), /<media id="fig" type="variable" mime="image\/png">/);
    const hist = (await ks.execute('_ih[-1]')).outputs[0].data as Record<string, string>;
    assert.equal(hist['text/plain'], "'_ih[-1]'", 'helpers leave no input history');
    assert.deepEqual((await ks.execute("'_dialog_notebooks' in dir()")).outputs[0].data, { 'text/plain': 'False' }, 'nor names in the namespace');
  });


  it("the Variables view's list: name, type and a short repr of each user variable, no modules, nothing private", async () => {
    const vars = await kernelVariables(ks);
    const byName = new Map(vars.map((v) => [v.name, v]));
    assert.deepEqual(byName.get('x'), { name: 'x', type: 'int', value: '42' });
    assert.deepEqual(byName.get('s'), { name: 's', type: 'str', value: "'hi'" });
    assert.equal(byName.get('fig')?.type, 'Figure');
    for (const hidden of ['plt', '_', 'In', 'Out', 'get_ipython', 'exit']) assert.ok(!byName.has(hidden), hidden);
    assert.deepEqual(vars.map((v) => v.name), [...vars.map((v) => v.name)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });
  it('&`fn` tools: a schema from signature, hints, docstring and comments; calls return results and errors', async () => {
    const def = [
      'def add(a: int,  # the first number',
      '        b: int = 0,  # the second number',
      '       ) -> int:',
      '    "Add two numbers."',
      '    print("adding")',
      '    return a + b',
      'def boom(): raise ValueError("nope")',
      'async def shout(word: str, times: "list[int] | None" = None): return word.upper()',
      'class Box:',
      '    def get(self, key: str): "A key." ; return key * 2',
      'box = Box()',
    ].join('\n');
    assert.equal((await ks.execute(def)).status, 'ok');
    const specs = await toolSchemas(ks, ['add', 'box.get', 'shout', 'nothere', 'x']);
    const add = {
      name: 'add',
      description: 'Add two numbers.',
      parameters: {
        type: 'object',
        properties: { a: { type: 'integer', description: 'the first number' }, b: { type: 'integer', description: 'the second number', default: 0 } },
        required: ['a'],
      },
    };
    assert.deepEqual(specs[0], { ref: 'add', schema: add });
    assert.deepEqual(specs[1], { ref: 'box.get', schema: { name: 'box_get', description: 'A key.', parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } } });
    assert.deepEqual(specs[2], {
      ref: 'shout',
      schema: { name: 'shout', description: '', parameters: { type: 'object', properties: { word: { type: 'string' }, times: { type: 'array', items: { type: 'integer' }, default: null } }, required: ['word'] } },
    });
    assert.deepEqual(specs[3], { ref: 'nothere', error: "NameError: name 'nothere' is not defined" });
    assert.deepEqual(specs[4], { ref: 'x', error: 'TypeError: x is not callable' });
    assert.deepEqual(anthropicTool(add), { name: 'add', description: 'Add two numbers.', input_schema: add.parameters });
    assert.deepEqual(openaiTool(add), { type: 'function', function: add });

    assert.deepEqual(await callTool(ks, 'add', { a: 1, b: 2 }), { ok: true, text: '3', printed: 'adding\n' });
    assert.deepEqual(await callTool(ks, 'boom', {}), { ok: false, text: 'ValueError: nope', printed: '' });
    assert.deepEqual(await callTool(ks, 'add', { c: 1 }), { ok: false, text: "TypeError: add() got an unexpected keyword argument 'c'", printed: '' });
    assert.deepEqual(await callTool(ks, 'shout', { word: 'héllo "q"' }), { ok: true, text: 'HÉLLO "Q"', printed: '' });
  });

  it('interrupting a tool call stops it; the kernel stays usable', async () => {
    const flag = join(dir, 'tool-started');
    await ks.execute(`import pathlib, time\ndef slow():\n    pathlib.Path(${JSON.stringify(flag)}).touch()\n    time.sleep(600)`);
    const call = callTool(ks, 'slow', {});
    await until(() => existsSync(flag), 'the tool to start');
    await ks.interrupt();
    await assert.rejects(call, (e: Error) => e instanceof KernelEvalError && e.ename === 'KeyboardInterrupt');
    assert.deepEqual(await callTool(ks, 'add', { a: 2 }), { ok: true, text: '2', printed: 'adding\n' });
  });

  it('restart clears the kernel state and reports the restart', async () => {
    await ks.execute('y = 1');
    const restarting = statusWhere(ks, (s) => s === 'restarting');
    await ks.restart();
    await restarting;
    // The restarted kernel reports busy while it starts up (seconds under load), then idle.
    await until(() => ks.status === 'idle', 'the restarted kernel idle');
    const r = await ks.execute('y');
    assert.equal(r.status, 'error');
    assert.equal(r.outputs[0].ename, 'NameError');
  });

  it('a killed kernel: the running cell says it died, keeps its outputs, and the kernel comes back', async () => {
    const pid = await kernelPid(ks);
    const died = new Promise<string>((resolve) => ks.onDied(resolve));
    const r = await runUntil(ks, 'import time\nprint("before", flush=True)\ntime.sleep(600)', 'before', () => process.kill(pid, 'SIGKILL'));
    assert.equal(r.status, 'died');
    assert.equal(streams(r.outputs), 'before\n');
    assert.match(await died, /kernel died/);
    // No waiting for a status here: after an autorestart the new kernel's first ones can be lost.
    assert.notEqual(await kernelPid(ks), pid);
    assert.deepEqual((await ks.execute('1 + 1')).outputs[0].data, { 'text/plain': '2' });
  });

  it('a kernelspec the server lacks is a clear error', async () => {
    await assert.rejects(KernelSession.start(conn!, { path: 'd.ipynb', kernelName: 'nope' }), (e: Error) => {
      assert.ok(e instanceof KernelError);
      assert.match(e.message, /"nope" is not available .*python3/);
      return true;
    });
  });

  it('a wrong token or an unreachable server is a clear error', async () => {
    await assert.rejects(connectServer(server!.url, 'wrong'), (e: Error) => e instanceof JupyterConnectError && e.kind === 'auth' && /refused the token/.test(e.message));
    const closed = `http://127.0.0.1:${await freePort()}/`; // free, so nothing listens there
    await assert.rejects(connectServer(closed, 'x'), (e: Error) => e instanceof JupyterConnectError && e.kind === 'unreachable' && /ECONNREFUSED/.test(e.message));
  });

  describe('remote: a jupyter server started separately, by URL + token', () => {
    let proc: ChildProcess | undefined;
    let url = '';
    const token = 'remote-test-token';
    const rootDir = mkdtempSync(join(tmpdir(), 'dialog-remote-'));

    before(async function () {
      if (!found) this.skip();
      const cmd = await findJupyterServer();
      const port = await freePort();
      const extra = process.getuid?.() === 0 ? ['--allow-root'] : [];
      const args = [...cmd.args, '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--no-browser', `--ServerApp.root_dir=${rootDir}`, ...extra];
      proc = spawn(cmd.command, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, JUPYTER_TOKEN: token } });
      await new Promise<void>((resolve, reject) => {
        let log = '';
        proc!.stderr!.on('data', (d: Buffer) => {
          log += d.toString();
          if (/is running at/.test(log)) resolve();
        });
        proc!.on('exit', (c) => reject(new Error(`jupyter server exited ${c}: ${log}`)));
      });
      proc.stderr!.resume();
      url = `http://127.0.0.1:${port}`; // no trailing slash, as a user may type it
    });

    after(async () => {
      if (proc?.pid && proc.exitCode === null) {
        const exited = new Promise((r) => proc!.once('exit', r));
        process.kill(-proc.pid, 'SIGTERM');
        await exited;
      }
      rmSync(rootDir, { recursive: true, force: true });
    });

    it('connects and runs code', async () => {
      const rc = await connectServer(url, token);
      const rs = await KernelSession.start(rc, { path: 'remote.ipynb' });
      try {
        const r = await rs.execute('print("remote ok")');
        assert.equal(streams(r.outputs), 'remote ok\n');
      } finally {
        await rs.dispose();
        rc.dispose();
      }
    });
  });

  it('dispose stops the server and the kernels it runs', async () => {
    const pid = await kernelPid(ks);
    const other = await KernelSession.start(conn!, { path: 'other.ipynb' });
    const otherPid = await kernelPid(other);
    await other.dispose(false); // left running on the server: the server must stop it
    await ks.dispose();
    conn!.dispose();
    await server!.dispose();
    assert.ok(existsSync(dir));
    await until(() => !alive(pid) && !alive(otherPid), 'the kernels to exit');
    server = undefined;
    conn = undefined;
  });
});

/** Whether `pid` is gone: no such process, or one that exited and waits to be reaped. */
function gone(pid: number): boolean {
  if (!alive(pid)) return true;
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('kernel: the local server does not outlive the extension host', function () {
  this.timeout(120000);
  const dir = mkdtempSync(join(tmpdir(), 'dialog-orphan-'));
  before(function () {
    if (process.env.DIALOG_TEST_NO_KERNEL === '1') this.skip();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a host killed without its clean-up takes the server and its kernels with it', async () => {
    // The host: starts the server and a kernel, says their pids, and is killed (no dispose runs).
    const script = join(dir, 'host.ts');
    writeFileSync(
      script,
      `import { startLocalServer } from ${JSON.stringify(join(__dirname, '../../src/extension/jupyter/localServer'))};
(async () => {
  const s = await startLocalServer({ rootDir: ${JSON.stringify(dir)} });
  const r = await fetch(s.url + 'api/kernels', { method: 'POST', headers: { Authorization: 'token ' + s.token }, body: '{}' });
  console.log(JSON.stringify({ server: s.pid, kernel: (await r.json()).id }));
})();
`,
    );
    const host = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const said = await new Promise<{ server: number; kernel: string }>((resolve, reject) => {
      let out = '';
      host.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out));
      });
      host.on('exit', (code) => reject(new Error(`the host exited (${code}) before starting the server`)));
    });
    const kernelPids = () =>
      execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes(`kernel-${said.kernel}.json`))
        .map((l) => Number(l.trim().split(/\s+/)[0]));
    await until(() => kernelPids().length > 0, 'the kernel process');
    const kernels = kernelPids();
    host.kill('SIGKILL');
    await until(() => gone(said.server) && kernels.every(gone), 'the server and its kernel to exit', 60000);
  });
});
