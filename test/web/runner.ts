// The extension-test runner of the web pass: its path lies inside the extension folder, so VS Code runs
// it in the host the extension runs in, here the browser's web-worker extension host (the setting
// `remote.extensionKind` puts it there). It loads mocha's browser build and the suites the config names,
// and writes out/test/web/results.json through vscode.workspace.fs for test/web/pass.mjs to report.
import * as vscode from 'vscode';
import 'mocha/mocha.js';
import { EXTENSION_ID } from '../extension/helpers';
import { WebPassConfig, setWebConfig } from './config';

// Each suite bundled, loaded only when named (a suite's describe() runs when it is loaded).
const SUITES: Record<string, () => unknown> = {
  host: () => require('./host.test'),
  answerWeb: () => require('./answerWeb.test'),
  kernelWeb: () => require('./kernelWeb.test'),
  fileRefsWeb: () => require('./fileRefsWeb.test'),
  dialogToolsWeb: () => require('./dialogToolsWeb.test'),
  searchWeb: () => require('./searchWeb.test'),
  readUrlWeb: () => require('./readUrlWeb.test'),
  shareWeb: () => require('./shareWeb.test'),
  open: () => require('../extension/open.test'),
  openUntouched: () => require('../extension/openUntouched.test'),
  serializer: () => require('../extension/serializer.test'),
  save: () => require('../extension/save.test'),
  saveUnicode: () => require('../extension/saveUnicode.test'),
  commands: () => require('../extension/commands.test'),
  commandsSurgery: () => require('../extension/commandsSurgery.test'),
  undo: () => require('../extension/undo.test'),
  navigation: () => require('../extension/navigation.test'),
  navTree: () => require('../extension/navTree.test'),
  friction: () => require('../extension/friction.test'),
  mergeMixed: () => require('../extension/mergeMixed.test'),
  sectionsLive: () => require('../extension/sectionsLive.test'),
  validateReveal: () => require('../extension/validateReveal.test'),
  untrustedReply: () => require('../extension/untrustedReply.test'),
  fork: () => require('../extension/fork.test'),
  virtualWorkspace: () => require('../extension/virtualWorkspace.test'),
};

interface Result {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  ms?: number;
  error?: string;
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  const dir = vscode.Uri.joinPath(ext.extensionUri, 'out', 'test', 'web');
  const cfg = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, 'config.json')))) as WebPassConfig;
  setWebConfig(cfg);
  const results: Result[] = [];
  const write = (done: boolean) =>
    vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'results.json'), new TextEncoder().encode(JSON.stringify({ done, tests: results }, null, 1)));
  await write(false);
  mocha.setup({ ui: 'bdd', reporter: Mocha.reporters.Base, timeout: 30000, color: false });
  if (cfg.skip) mocha.grep(cfg.skip).invert();
  else if (cfg.grep) mocha.grep(cfg.grep);
  for (const name of cfg.suites) {
    const load = SUITES[name];
    if (!load) throw new Error(`no web suite ${name} (known: ${Object.keys(SUITES).join(' ')})`);
    load();
  }
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    const say = (r: Result) => {
      results.push(r);
      console.log(`[web-pass] ${r.state} ${r.title}${r.error ? `\n  ${r.error}` : ''}`);
    };
    runner.on('pass', (t) => say({ title: t.fullTitle(), state: 'passed', ms: t.duration }));
    runner.on('pending', (t) => say({ title: t.fullTitle(), state: 'pending' }));
    runner.on('fail', (t, err: Error) => say({ title: t.fullTitle(), state: 'failed', error: String(err?.stack ?? err) }));
  });
  await write(true);
  const failed = results.filter((r) => r.state === 'failed').length;
  if (failed) throw new Error(`${failed} test(s) failed`);
}
