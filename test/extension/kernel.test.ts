// Running code cells in a real Jupyter kernel (issue 10), in the real VS Code: `notebook.cell.execute` on
// a dialog needs no kernel pick; outputs stream in (stdout, stderr, a matplotlib image, a traceback) and
// are saved; stop interrupts; Restart Kernel forgets the variables; a killed kernel and a stopped server
// are reported with the outputs kept; a Jupyter Server started by the test is used by URL + token, and a wrong token or an
// unreachable server changes nothing; Run All runs the code in dialog order and passes prompts over.
// Needs Debian's jupyter-server, python3-ipykernel and python3-matplotlib (scripts/install-jupyter.sh).
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Message, readIpynb, stripAnsi } from '../../src/core';
import { findJupyterServer } from '../../src/extension/jupyter/localServer';
import { cellArgs, cellOf, closeAll, execute, freshDialog as fresh, note, readText, replyText, save, skipWithoutKernel, until, useMockProviders } from './helpers';

const STDOUT = 'application/vnd.code.notebook.stdout';
const STDERR = 'application/vnd.code.notebook.stderr';
const ERROR = 'application/vnd.code.notebook.error';
const settings = () => vscode.workspace.getConfiguration('dialogNotebook');

const freshDialog = (messages: Message[]) => fresh('kernel', messages);

const code = (id: string, content: string, output: Message['output'] = []) => new Message({ id, msgType: 'code', content, output });


const decode = (b: Uint8Array) => new TextDecoder().decode(b);
/** The text of a cell's items of `mime`, joined. */
const out = (cell: vscode.NotebookCell, mime = STDOUT) =>
  cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === mime)
    .map((i) => decode(i.data))
    .join('');
/** The error a cell shows ({name, message, stack}), if any. */
const errorOf = (cell: vscode.NotebookCell) => {
  const t = out(cell, ERROR);
  return t ? (JSON.parse(t) as { name: string; message: string; stack: string }) : undefined;
};
/** Resolves once the cell's last run has ended (VS Code reports the end asynchronously). */
const ended = (nb: vscode.NotebookDocument, id: string) => until(() => cellOf(nb, id).executionSummary?.timing?.endTime, `the end of ${id}'s run`, 120000);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('running code in a Jupyter kernel', function () {
  this.timeout(300000);
  before(function () {
    skipWithoutKernel(this);
  });

  after(closeAll);

  describe('a local kernel', () => {
    let nb: vscode.NotebookDocument;
    let name: string;
    const go = join(mkdtempSync(join(tmpdir(), 'dialog-kernel-e2e-')), 'go');

    before(async () => {
      await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
      ({ nb, name } = await freshDialog([
        new Message({ id: 'note0001', msgType: 'note', content: '# Kernel' }),
        code('strm0001', `import os, sys, time\nprint('first', flush=True)\nwhile not os.path.exists(${JSON.stringify(go)}): time.sleep(0.05)\nprint('second')\nprint('to stderr', file=sys.stderr)`),
        code('plot0001', 'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()'),
        code('fail0001', '1/0'),
        code('sleep001', "import time\nprint('sleeping', flush=True)\ntime.sleep(600)"),
        code('setx0001', 'x = 41'),
        code('usex0001', 'print(x + 1)'),
        code('pid00001', 'import os\nprint(os.getpid())'),
        code('ppid0001', 'import os\nprint(os.getppid())'),
        code('wait0001', "import time\nprint('waiting', flush=True)\ntime.sleep(600)"),
      ]));
    });
    after(() => rmSync(join(go, '..'), { recursive: true, force: true }));

    it('streams stdout and stderr into the cell as they come, then saves them', async () => {
      const done = execute(nb, 'strm0001');
      // The cell waits for the test's file: 'first' on screen while it runs is streaming, not the end.
      await until(() => out(cellOf(nb, 'strm0001')) === 'first\n', "'first' while the cell runs", 120000);
      assert.equal(cellOf(nb, 'strm0001').executionSummary?.timing?.endTime, undefined, 'still running');
      writeFileSync(go, '');
      await done;
      await until(() => out(cellOf(nb, 'strm0001')) === 'first\nsecond\n' && out(cellOf(nb, 'strm0001'), STDERR) === 'to stderr\n', 'all the output');
      await ended(nb, 'strm0001');
      const summary = cellOf(nb, 'strm0001').executionSummary!;
      assert.equal(summary.success, true);
      assert.ok(typeof summary.executionOrder === 'number' && summary.executionOrder >= 1, `execution order ${summary.executionOrder}`);
      assert.ok(nb.isDirty, 'outputs are content');
      // VS Code has refused (false) a save issued right as the run's last updates landed: it is tried again.
      assert.ok(await save(nb), 'the save');
      const saved = readIpynb(await readText(name)).messages.find((m) => m.id === 'strm0001')!;
      const stream = (n: string) => saved.outputs.filter((o) => o.name === n).map((o) => [o.text ?? ''].flat().join('')).join('');
      assert.equal(stream('stdout'), 'first\nsecond\n');
      assert.equal(stream('stderr'), 'to stderr\n');
    });

    it('shows a matplotlib figure as an image/png output', async () => {
      await execute(nb, 'plot0001');
      const png = (await until(() => cellOf(nb, 'plot0001').outputs.flatMap((o) => o.items).find((i) => i.mime === 'image/png'), 'the PNG', 120000))!;
      assert.deepEqual([...png.data.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    });

    it('shows an error with its traceback and marks the run failed', async () => {
      await execute(nb, 'fail0001');
      const err = (await until(() => errorOf(cellOf(nb, 'fail0001')), 'the error'))!;
      assert.equal(err.name, 'ZeroDivisionError');
      assert.match(stripAnsi(err.stack), /ZeroDivisionError +Traceback[\s\S]*----> 1 1\/0/);
      await ended(nb, 'fail0001');
      assert.equal(cellOf(nb, 'fail0001').executionSummary?.success, false);
    });

    it('stopping a running cell interrupts the kernel, which keeps its variables', async () => {
      await execute(nb, 'setx0001');
      await ended(nb, 'setx0001');
      const done = execute(nb, 'sleep001');
      await until(() => out(cellOf(nb, 'sleep001')).includes('sleeping'), 'the sleep to start', 120000);
      await vscode.commands.executeCommand('notebook.cell.cancelExecution', cellArgs(nb, 'sleep001'));
      await done;
      const err = (await until(() => errorOf(cellOf(nb, 'sleep001')), 'the interrupt'))!;
      assert.equal(err.name, 'KeyboardInterrupt');
      assert.equal(out(cellOf(nb, 'sleep001')), 'sleeping\n', 'what it printed stays');
      await execute(nb, 'usex0001');
      await until(() => out(cellOf(nb, 'usex0001')) === '42\n', 'x still defined');
    });

    it('Restart Kernel gives a fresh kernel: the variables are gone', async () => {
      await execute(nb, 'setx0001');
      await ended(nb, 'setx0001');
      await vscode.commands.executeCommand('dialogNotebook.restartKernel', nb.uri);
      await execute(nb, 'usex0001');
      const err = (await until(() => errorOf(cellOf(nb, 'usex0001')), 'the NameError'))!;
      assert.equal(err.name, 'NameError');
    });

    it('a killed kernel: the cell says so, outputs stay, and the next run works', async () => {
      await execute(nb, 'pid00001');
      const pid = Number(await until(() => out(cellOf(nb, 'pid00001')).trim(), 'the kernel pid'));
      assert.ok(pid > 1);
      const done = execute(nb, 'sleep001');
      await until(() => out(cellOf(nb, 'sleep001')) === 'sleeping\n' && !errorOf(cellOf(nb, 'sleep001')), 'the sleep to start', 120000);
      process.kill(pid, 'SIGKILL');
      await done;
      const n = (await until(() => note(nb, 'sleep001'), 'the note on the cell'))!;
      assert.match(n.text, /kernel died/);
      assert.equal(out(cellOf(nb, 'sleep001')), 'sleeping\n', 'the output it had stays');
      assert.equal(out(cellOf(nb, 'pid00001')).trim(), String(pid), "an earlier cell's output stays");
      assert.equal(cellOf(nb, 'sleep001').executionSummary?.success, false);
      // Jupyter restarted the kernel: a new process runs the next cell.
      await execute(nb, 'pid00001');
      await until(() => out(cellOf(nb, 'pid00001')).trim() && out(cellOf(nb, 'pid00001')).trim() !== String(pid), 'a new kernel pid', 120000);
    });

    it('a stopped Jupyter Server: the running cell says the server was lost, outputs stay, the next run starts another', async () => {
      await execute(nb, 'ppid0001');
      const pid = Number(await until(() => out(cellOf(nb, 'ppid0001')).trim(), "the kernel's parent: the server"));
      assert.ok(pid > 1);
      const done = execute(nb, 'wait0001');
      await until(() => out(cellOf(nb, 'wait0001')) === 'waiting\n', 'the wait to start', 120000);
      process.kill(pid, 'SIGKILL');
      await done;
      const n = (await until(() => note(nb, 'wait0001'), 'the note on the cell'))!;
      assert.match(n.text, /server lost/);
      assert.equal(out(cellOf(nb, 'wait0001')), 'waiting\n', 'the output it had stays');
      assert.equal(cellOf(nb, 'wait0001').executionSummary?.success, false);
      await execute(nb, 'ppid0001');
      await until(() => out(cellOf(nb, 'ppid0001')).trim() && out(cellOf(nb, 'ppid0001')).trim() !== String(pid), 'a new server', 120000);
    });
  });

  describe('Run All', () => {
    const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
    afterEach(closeAll);

    it('runs the code in dialog order, passing a prompt over; answered then, the prompt sees the outputs', async () => {
      const { nb } = await freshDialog([
        code('make0001', "answer = 6 * 7\nprint('made', answer)"),
        new Message({ id: 'ask00001', msgType: 'prompt', content: 'What did the code print?' }),
        code('aftr0001', "print('after', answer)"),
      ]);
      const before = ant.requests.length;
      await vscode.commands.executeCommand('notebook.execute', nb.uri);
      await until(() => out(cellOf(nb, 'aftr0001')) === 'after 42\n', 'the code after the prompt ran');
      assert.equal(out(cellOf(nb, 'make0001')), 'made 42\n');
      assert.equal(replyText(cellOf(nb, 'ask00001')), '', 'the prompt was passed over');
      assert.equal(ant.requests.length, before, 'nothing sent to the model');
      ant.enqueue({ text: ['It printed ', 'made 42.'] });
      await execute(nb, 'ask00001');
      await until(() => replyText(cellOf(nb, 'ask00001')).startsWith('It printed made 42.'), 'the reply');
      assert.match(JSON.stringify(ant.requests[ant.requests.length - 1].body.messages), /made 42/, 'the model saw the output');
    });

    it('stops at a failing cell: the cells after it do not run', async () => {
      const { nb } = await freshDialog([code('fail0002', 'raise ValueError("stop here")'), code('next0002', "print('not reached')")]);
      await vscode.commands.executeCommand('notebook.execute', nb.uri);
      await until(() => errorOf(cellOf(nb, 'fail0002'))?.name === 'ValueError', 'the error');
      await ended(nb, 'next0002');
      assert.equal(cellOf(nb, 'next0002').outputs.length, 0);
      assert.notEqual(cellOf(nb, 'next0002').executionSummary?.success, true);
    });
  });

  describe('a Jupyter Server by URL + token', () => {
    const token = randomBytes(16).toString('hex');
    const root = mkdtempSync(join(tmpdir(), 'dialog-remote-e2e-'));
    let server: ChildProcess;
    let url: string;

    before(async () => {
      const cmd = await findJupyterServer();
      const port = await freePort();
      url = `http://127.0.0.1:${port}/`;
      const args = [...cmd.args, '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--no-browser', `--ServerApp.root_dir=${root}`, ...(process.getuid?.() === 0 ? ['--allow-root'] : [])];
      server = spawn(cmd.command, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, JUPYTER_TOKEN: token } });
      let log = '';
      await new Promise<void>((resolve, reject) => {
        server.stderr!.on('data', (d: Buffer) => {
          log += d.toString();
          if (/is running at/.test(log)) resolve();
        });
        server.on('exit', (c) => reject(new Error(`jupyter-server exited (${c}): ${log}`)));
      });
      server.stderr!.resume();
    });
    after(async () => {
      await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('dialogNotebook.setJupyterToken', '');
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        process.kill(-server.pid!, 'SIGTERM');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    });

    const old = [{ output_type: 'stream', name: 'stdout', text: 'old\n' }];
    afterEach(closeAll);

    it('a wrong token or an unreachable server: a clear note, and nothing in the file changes', async () => {
      const { nb } = await freshDialog([code('rmte0001', "print('remote')", old)]);
      await settings().update('jupyter.serverUrl', url, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('dialogNotebook.setJupyterToken', 'not-the-token');
      await execute(nb, 'rmte0001');
      const refused = (await until(() => note(nb, 'rmte0001'), 'the note'))!;
      assert.match(refused.text, /token refused/);
      assert.match(refused.tooltip, /refused the token/);
      assert.equal(out(cellOf(nb, 'rmte0001')), 'old\n');
      assert.equal(nb.isDirty, false);

      await settings().update('jupyter.serverUrl', `http://127.0.0.1:${await freePort()}/`, vscode.ConfigurationTarget.Global);
      await execute(nb, 'rmte0001');
      await until(async () => (await note(nb, 'rmte0001'))?.text.includes('no server'), 'the unreachable note');
      assert.match((await note(nb, 'rmte0001'))!.tooltip, /Cannot reach the Jupyter Server/);
      assert.equal(out(cellOf(nb, 'rmte0001')), 'old\n');
      assert.equal(nb.isDirty, false);
    });

    it('runs the cell on that server with the stored token', async () => {
      const { name, nb } = await freshDialog([code('rmte0002', "import os\nprint('remote', os.getcwd())", old)]);
      await settings().update('jupyter.serverUrl', url, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('dialogNotebook.setJupyterToken', token);
      await execute(nb, 'rmte0002');
      await until(() => out(cellOf(nb, 'rmte0002')).startsWith('remote '), 'the output', 120000);
      assert.equal(out(cellOf(nb, 'rmte0002')), `remote ${root}\n`, "the server's root is the kernel's folder");
      const sessions = (await (await fetch(`${url}api/sessions`, { headers: { Authorization: `token ${token}` } })).json()) as { path: string }[];
      assert.ok(
        sessions.some((s) => s.path === name),
        JSON.stringify(sessions),
      );
    });
  });

  describe('without Jupyter', () => {
    afterEach(closeAll);
    after(() => settings().update('python', undefined, vscode.ConfigurationTarget.Global));

    it('says what to install, and changes nothing', async () => {
      await settings().update('python', '/nonexistent/python3', vscode.ConfigurationTarget.Global);
      const { nb } = await freshDialog([code('nojp0001', 'print(1)')]);
      await execute(nb, 'nojp0001');
      const n = (await until(() => note(nb, 'nojp0001'), 'the note'))!;
      assert.match(n.text, /no Jupyter/);
      assert.match(n.tooltip, /pip install jupyter_server ipykernel/);
      assert.equal(cellOf(nb, 'nojp0001').outputs.length, 0);
      assert.equal(nb.isDirty, false);
    });
  });
});
