// `dlg search QUERY [FOLDER]`: the extension's message search from the command line. The CLI keeps no
// index between runs (it has no storage of its own): it reads the folder's dialogs into one in memory.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SearchIndex, dialogParts, markSnippet, parseQuery } from '../core/search';
import { readIpynb } from '../core/ipynb';
import { loadSqlite, openWasmSqlite } from '../node/wasmSqlite';
import { CliError } from './readFile';

const SKIP_DIRS = new Set(['node_modules', '.git', '.ipynb_checkpoints']);

function* ipynbFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) yield* ipynbFiles(join(dir, e.name));
    else if (e.isFile() && e.name.toLowerCase().endsWith('.ipynb')) yield join(dir, e.name);
  }
}

export async function searchCommand(args: string[]): Promise<number> {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '--json') flags.set('json', '1');
    else if (args[k] === '--kind' || args[k] === '--limit') flags.set(args[k].slice(2), args[++k] ?? '');
    else rest.push(args[k]);
  }
  const [query, folder = '.'] = rest;
  if (!query) throw new CliError('usage: dlg search QUERY [FOLDER] [--kind KIND] [--limit N] [--json]');
  if (!existsSync(folder)) throw new CliError(`dlg search: no folder ${folder}`);
  const q = parseQuery(query + (flags.get('kind') ? ` kind:${flags.get('kind')}` : ''));
  if (q.regexError) throw new CliError(`dlg search: invalid regex (${q.regexError})`);
  // The bundle (dist/cli.js) has sqlite3.wasm beside it; run from source, the package finds its own.
  const wasm = join(__dirname, 'sqlite3.wasm');
  const index = new SearchIndex(openWasmSqlite(await loadSqlite(existsSync(wasm) ? readFileSync(wasm) : undefined)));
  let skipped = 0;
  index.transaction(() => {
    for (const f of ipynbFiles(folder)) {
      try {
        index.put(relative(folder, f).split(sep).join('/'), '', dialogParts(readIpynb(readFileSync(f, 'utf8'), f)));
      } catch {
        skipped++;
      }
    }
  });
  const limit = Number(flags.get('limit') ?? 20);
  const { hits, scanned } = index.search(q, { limit: limit > 0 ? limit : 20 });
  if (flags.has('json')) process.stdout.write(JSON.stringify(hits.map((h) => ({ file: h.file, id: h.id, kind: h.kind, snippet: markSnippet(h.snippet), score: h.score }))) + '\n');
  else for (const h of hits) process.stdout.write(`${h.file}\t${h.id}\t${h.kind}${h.skipped ? ' (skipped)' : ''}\t${markSnippet(h.snippet)}\n`);
  if (skipped) process.stderr.write(`dlg search: ${skipped} file(s) not readable as dialogs were skipped\n`);
  if (scanned) process.stderr.write('dlg search: the /regex/ form read every message\n');
  return hits.length ? 0 : 1;
}
