// Finding the Python environments a dialog can run in (src/extension/environments/discovery.ts) and what a
// choice writes: where each kind is looked for and in which order, the interpreter asked what it is, one
// environment found twice kept once; the kernelspec of our folder (its Python, `-m ipykernel_launcher`)
// and the dialog's kernelspec as Jupyter writes it. Real interpreters: Debian's /usr/bin/python3 and a
// venv of it made in a temporary folder.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { byVersion, compareVersions, envDisplayName, envLabel, envLacks, envNameOf } from '../../src/extension/environments/environment';
import { candidates, discover, probe, probeAll } from '../../src/extension/environments/discovery';
import { KernelSpecFolder } from '../../src/extension/environments/kernelSpecs';
import { KernelJson, envKernelName, envKernelSpec } from '../../src/extension/environments/environment';
import { MissingIpykernelError, dialogKernelspec, namesEnv, targetKernelspec, targetKey } from '../../src/extension/kernel/target';

const SYSTEM = '/usr/bin/python3';

describe('Python environments', () => {
  let root: string;
  before(() => (root = mkdtempSync(join(tmpdir(), 'dialog-envs-unit-'))));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** An executable file at `path` (only looked at by candidates(), never run). */
  const exe = (path: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
    return path;
  };

  it('looks in the workspace, conda, pyenv and the PATH, named interpreters first, each path once', () => {
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    const venv = exe(join(ws, '.venv', 'bin', 'python3'));
    const condaWs = exe(join(ws, '.conda', 'bin', 'python'));
    const condaEnv = exe(join(home, 'miniconda3', 'envs', 'ml', 'bin', 'python3'));
    const condaBase = exe(join(home, 'miniconda3', 'bin', 'python3'));
    const py39 = exe(join(home, '.pyenv', 'versions', '3.9.18', 'bin', 'python3'));
    const py313 = exe(join(home, '.pyenv', 'versions', '3.13.0', 'bin', 'python3'));
    const onPath = exe(join(root, 'bin', 'python3'));
    const named = { path: '/opt/py/bin/python', kind: 'setting' as const, name: 'py' };
    const found = candidates({ folders: [ws], named: [named, { ...named }], env: { PATH: join(root, 'bin') }, home });
    assert.deepEqual(found, [
      named,
      { path: venv, kind: 'venv', name: '.venv', inWorkspace: true },
      { path: condaWs, kind: 'conda', name: '.conda', inWorkspace: true },
      { path: condaBase, kind: 'conda', name: 'base' },
      { path: condaEnv, kind: 'conda', name: 'ml' },
      { path: py313, kind: 'pyenv', name: 'pyenv 3.13.0' },
      { path: py39, kind: 'pyenv', name: 'pyenv 3.9.18' },
      { path: onPath, kind: 'path', name: onPath },
    ]);
  });

  it('asks an interpreter what it is; one that does not answer is left out', async () => {
    const sys = await probe({ path: SYSTEM, kind: 'path', name: SYSTEM });
    assert.ok(sys);
    assert.match(sys.version, /^3\.\d+\.\d+$/);
    assert.equal(sys.prefix, '/usr');
    assert.equal(sys.ipykernel, true, "Debian's python3-ipykernel");
    assert.equal(await probe({ path: exe(join(root, 'broken', 'bin', 'python')), kind: 'venv', name: 'broken' }), undefined);
  });

  it('finds a real venv, its own interpreter and prefix, without ipykernel; the system Python once however it is reached', async () => {
    const ws = join(root, 'real');
    execFileSync(SYSTEM, ['-m', 'venv', '--without-pip', join(ws, '.venv')]);
    const twice = join(root, 'twice');
    mkdirSync(twice);
    symlinkSync(SYSTEM, join(twice, 'python3'));
    const envs = await discover({ folders: [ws], env: { PATH: `${twice}:/usr/bin` }, home: join(root, 'nohome') });
    const venv = envs.find((e) => e.name === '.venv')!;
    assert.equal(venv.executable, join(ws, '.venv', 'bin', 'python3'));
    assert.equal(venv.prefix, join(ws, '.venv'));
    assert.equal(venv.ipykernel, false);
    assert.equal(venv.venv, true, 'sys.prefix is not sys.base_prefix');
    assert.equal(envLacks(venv), 'ipykernel');
    assert.equal(envs.find((e) => e.prefix === '/usr')?.venv, false);
    assert.equal(envs.filter((e) => e.prefix === '/usr').length, 1, JSON.stringify(envs));
    assert.equal(envs[0], venv, 'the workspace venv first');
  });

  it('asks all interpreters in one shell: one that fails or hangs past the timeout is left out, the others keep their order', async function () {
    this.timeout(15000);
    const hang = join(root, 'hang', 'bin', 'python');
    mkdirSync(join(hang, '..'), { recursive: true });
    writeFileSync(hang, '#!/bin/sh\nsleep 30\n');
    chmodSync(hang, 0o755);
    const cands = [
      { path: exe(join(root, 'fails', 'bin', 'python')), kind: 'venv' as const, name: 'fails' },
      { path: hang, kind: 'venv' as const, name: 'hang' },
      { path: SYSTEM, kind: 'path' as const, name: SYSTEM },
    ];
    const t0 = Date.now();
    const envs = await probeAll(cands, 3000);
    assert.ok(Date.now() - t0 < 10000, 'the hanging one was given up at the timeout');
    assert.equal(envs.length, 3);
    assert.equal(envs[0], undefined);
    assert.equal(envs[1], undefined);
    assert.equal(envs[2]?.prefix, '/usr');
    assert.equal(envs[2]?.name, SYSTEM);
  });

  it('names environments: "Python 3.11 (.venv)", the folder an interpreter belongs to', () => {
    assert.equal(envLabel({ version: '3.11.7', name: '.venv' }), 'Python 3.11 (.venv)');
    assert.equal(envNameOf('/home/a/proj/.venv/bin/python'), '.venv');
    assert.equal(envNameOf('C:\\proj\\env\\Scripts\\python.exe'), 'env');
    assert.equal(envNameOf('/usr/bin/python3'), 'usr');
    assert.equal(envNameOf('python3'), 'python3');
  });

  it('sorts environments by version, not as text: 3.6, 3.9, 3.10, 3.13', () => {
    const at = (version: string, name = version) => ({ version, name });
    const sorted = byVersion([at('3.13.0'), at('3.10.4'), at('3.6.15'), at('3.9.18'), at('3.10.4', 'second 3.10'), at('3.11.7')]);
    assert.deepEqual(
      sorted.map((e) => e.name),
      ['3.6.15', '3.9.18', '3.10.4', 'second 3.10', '3.11.7', '3.13.0'],
    );
    assert.ok(compareVersions('3.10', '3.9') > 0);
    assert.ok(compareVersions('pyenv 3.13.0', 'pyenv 3.6.1') > 0);
    assert.equal(compareVersions('3.11.7', '3.11.7'), 0);
  });

  it('candidates include venvs kept outside the workspace (~/.venv, virtualenvwrapper, pipenv, poetry)', () => {
    const home = join(root, 'home2');
    const own = exe(join(home, '.venv', 'bin', 'python3'));
    const wrapper = exe(join(home, '.virtualenvs', 'tools', 'bin', 'python3'));
    const pipenv = exe(join(home, '.local', 'share', 'virtualenvs', 'proj-AbC123', 'bin', 'python3'));
    const found = candidates({ folders: [], env: { PATH: '' }, home });
    assert.deepEqual(found, [
      { path: own, kind: 'venv', name: '.venv' },
      { path: wrapper, kind: 'venv', name: 'tools' },
      { path: pipenv, kind: 'venv', name: 'proj-AbC123' },
    ]);
  });

  const env = { path: '/p/.venv/bin/python', kind: 'venv' as const, name: '.venv', executable: '/p/.venv/bin/python', version: '3.11.7', prefix: '/p/.venv', ipykernel: true, jupyterServer: false };

  it('writes an environment’s kernelspec into our folder: its Python running ipykernel', () => {
    const folder = new KernelSpecFolder();
    try {
      const name = folder.ensure(env);
      assert.equal(name, envKernelName(env));
      assert.match(name, /^dialog-env-[0-9a-f]{12}$/);
      assert.notEqual(envKernelName({ executable: '/q/.venv/bin/python' }), name);
      const spec = JSON.parse(readFileSync(join(folder.dir, 'kernels', name, 'kernel.json'), 'utf8')) as KernelJson;
      assert.deepEqual(spec, envKernelSpec(env));
      assert.deepEqual(spec.argv, ['/p/.venv/bin/python', '-m', 'ipykernel_launcher', '-f', '{connection_file}']);
      assert.equal(spec.display_name, 'Python 3.11 (.venv)');
    } finally {
      folder.dispose();
    }
  });

  it('a choice writes the dialog’s kernelspec as Jupyter does; "Dialog" keeps the dialog’s own', () => {
    assert.deepEqual(targetKernelspec({ kind: 'env', env }), { display_name: '.venv', language: 'python', name: 'python3' });
    // What Jupyter writes for each kind, never a path of this machine.
    const system = { ...env, path: '/usr/bin/python3', kind: 'path' as const, name: '/usr/bin/python3', executable: '/usr/bin/python3', prefix: '/usr' };
    assert.equal(envDisplayName(system), 'Python 3 (ipykernel)');
    assert.equal(envDisplayName({ ...system, kind: 'pyenv', name: 'pyenv 3.12.1' }), 'Python 3 (ipykernel)');
    assert.equal(envDisplayName({ ...system, kind: 'setting', name: 'tools', prefix: '/home/a/.virtualenvs/tools', venv: true }), 'tools');
    assert.equal(envDisplayName({ ...system, kind: 'conda', name: 'ml', prefix: '/home/a/miniconda3/envs/ml' }), 'ml');
    assert.equal(envDisplayName({ ...system, kind: 'python-extension', name: 'env', prefix: 'C:\\proj\\env', venv: true }), 'env');
    assert.ok(namesEnv('.venv', env) && namesEnv('Python 3.11 (.venv)', env), 'a venv found by its name, and by the label written before');
    assert.ok(!namesEnv('Python 3 (ipykernel)', system), 'a generic name names no environment');
    assert.ok(!namesEnv('Python 3.12 (analysis)', env));
    assert.deepEqual(Object.keys(targetKernelspec({ kind: 'env', env })!), ['display_name', 'language', 'name'], 'sorted, as Jupyter writes them');
    assert.deepEqual(targetKernelspec({ kind: 'spec', name: 'ir', displayName: 'R', language: 'R' }), { display_name: 'R', language: 'R', name: 'ir' });
    assert.equal(targetKernelspec({ kind: 'dialog' }), undefined);
    assert.equal(targetKey({ kind: 'env', env }), targetKey({ kind: 'env', env: { ...env, ipykernel: false } }));
    assert.deepEqual(dialogKernelspec({ dialog: { meta: { kernelspec: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' } } } }), {
      name: 'python3',
      display_name: 'Python 3 (ipykernel)',
      language: 'python',
    });
    assert.deepEqual(dialogKernelspec({ dialog: { meta: {} } }), {});
    assert.match(new MissingIpykernelError({ ...env, ipykernel: false }).message, /Python 3\.11 \(\.venv\) has no ipykernel.*pip install ipykernel/);
  });
});
