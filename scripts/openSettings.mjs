// `node scripts/openSettings.mjs OUT [--web] [--code-server]`: the user settings of `npm run open`'s own
// VS Code state (scripts/open.sh): the user's own settings (VS Code's or code-server's settings.json, or
// $DIALOG_USER_SETTINGS), plus dialogs opened as dialogs and, unless those settings say otherwise, auto
// save off (VS Code in a browser saves every edit a second later by default) and the `*.ipynb` editor
// association the extension writes for openDialogsByDefault (so the first double-click opens the dialog).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const [out, ...flags] = process.argv.slice(2);
const web = flags.includes('--web');
const codeServer = web || flags.includes('--code-server');

function userSettingsFile() {
  if (process.env.DIALOG_USER_SETTINGS) return process.env.DIALOG_USER_SETTINGS;
  if (codeServer) return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local/share'), 'code-server/User/settings.json');
  if (process.platform === 'darwin') return join(homedir(), 'Library/Application Support/Code/User/settings.json');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? homedir(), 'Code/User/settings.json');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Code/User/settings.json');
}

/** settings.json is JSON with comments and trailing commas: both dropped outside strings. */
function parseJsonc(text) {
  let json = '';
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '"') {
      const end = /"(?:[^"\\]|\\.)*"/y;
      end.lastIndex = k;
      const m = end.exec(text);
      json += m ? m[0] : text.slice(k);
      k += (m ? m[0].length : text.length) - 1;
    } else if (c === '/' && text[k + 1] === '/') k = (text.indexOf('\n', k) + 1 || text.length) - 1;
    else if (c === '/' && text[k + 1] === '*') k = text.indexOf('*/', k + 2) + 1 || text.length;
    else json += c;
  }
  return JSON.parse(json.replace(/,(\s*[}\]])/g, '$1') || '{}');
}

const file = userSettingsFile();
let settings = {};
if (existsSync(file)) {
  try {
    settings = parseJsonc(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`npm run open: ${file} could not be read (${e.message}); starting from no settings.`);
  }
}
settings['dialogNotebook.openDialogsByDefault'] = true;
if (!('files.autoSave' in settings)) settings['files.autoSave'] = 'off';
const assoc = { ...(settings['workbench.editorAssociations'] ?? {}) };
if (!('*.ipynb' in assoc)) settings['workbench.editorAssociations'] = { ...assoc, '*.ipynb': 'dialog-notebook' };
if (web) settings['remote.extensionKind'] = { ...(settings['remote.extensionKind'] ?? {}), 'dialog-notebooks.dialog-notebooks': ['web'] };
writeFileSync(out, JSON.stringify(settings, null, 2) + '\n');
