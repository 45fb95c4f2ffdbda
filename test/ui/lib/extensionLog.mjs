// The extension's Output channel (Output › Dialog Notebooks) as VS Code writes it to the run's log folder:
// a wait that timed out says what the extension did meanwhile.
import fs from 'node:fs';
import path from 'node:path';

/** The last `lines` lines of every "Dialog Notebooks.log" under the harness's run folder ('' when none). */
function extensionLogTail(lines = 20) {
  const found = [];
  const walk = (dir) => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('Dialog Notebooks.log')) found.push(p);
    }
  };
  walk(path.join(process.env.VSCODE_E2E_RUN_DIR ?? '', 'user-data', 'logs'));
  return found.map((f) => fs.readFileSync(f, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')).join('\n');
}

/** Whether the extension's Output channel holds `text` yet. */
export const extensionLogged = (text) => extensionLogTail(Infinity).includes(text);

/** What a failure message adds: the extension's last log lines, under a heading ('' when it logged nothing). */
export function extensionSaid() {
  const tail = extensionLogTail();
  return tail ? `\nOutput › Dialog Notebooks ended with:\n${tail}` : '';
}
