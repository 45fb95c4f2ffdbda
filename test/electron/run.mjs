// `npm run test:electron`: the same extension-host mocha suites as scripts/e2e.sh, run in VS Code desktop
// through @vscode/test-electron (it downloads VS Code, so it needs the internet; CI uses code-server).
import { runTests } from '@vscode/test-electron';
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shared = process.env.DIALOG_SHARED ?? path.resolve(root, '../shared');
const ws = mkdtempSync(path.join(tmpdir(), 'dialog-electron-'));
const copy = (dir, to, keep) => {
  for (const f of readdirSync(dir)) if (keep(f)) cpSync(path.join(dir, f), path.join(to, f));
};
cpSync(path.join(shared, 'golden/synthetic'), path.join(ws, 'golden'), { recursive: true });
copy(path.join(shared, 'corpus/synthetic'), ws, (f) => f.endsWith('.ipynb'));
for (const stem of ['AnswerDotAI__solveit_demos__00_Welcome_To_Solveit', 'AnswerDotAI__fastllm__03_acomplete']) {
  cpSync(path.join(shared, `corpus/public/${stem}.ipynb`), path.join(ws, `${stem}.ipynb`));
  cpSync(path.join(shared, `golden/public/${stem}.json`), path.join(ws, 'golden', `${stem}.json`));
}
copy(path.join(root, 'test/ui/fixtures'), ws, (f) => f.endsWith('.ipynb'));

try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'test/electron/suite.cjs'),
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (e) {
  console.error(e);
  process.exit(1);
}
