// `npm run package [-- --target T] [--out FILE]`: builds the esbuild bundle and packs a platform-specific .vsix with
// @vscode/vsce. The bundle holds all JavaScript; only `sharp` (native) ships from node_modules, with the
// @img binaries npm installed, i.e. those of the machine that runs this unless you installed others
// (`npm install --os=darwin --cpu=arm64 sharp`, then `npm run package -- --target darwin-arm64`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { familySync } from 'detect-libc';

const option = (name) => {
  const k = process.argv.indexOf(name);
  return k > 0 ? process.argv[k + 1] : undefined;
};
const target =
  option('--target') ??
  `${process.platform === 'linux' && familySync() === 'musl' ? 'alpine' : process.platform}-${process.arch === 'arm' ? 'armhf' : process.arch}`;
const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
const out = option('--out') ?? `${name}-${version}-${target}.vsix`;
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });

run('npm', ['run', 'build']);
// Dependencies on (vsce asks npm for the production tree); .vscodeignore keeps only sharp's part of it.
run('npx', ['vsce', 'package', '--target', target, '--out', out, '--allow-missing-repository', '--no-rewrite-relative-links']);
console.log(`packaged ${out}`);
