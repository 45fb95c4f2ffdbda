// A generated workspace for the search scale benchmark (bench/searchScale.mjs): `dialogs` dialogs of about
// `mb` MB in all, made of runs of real messages from the public corpus (prompts with their replies, code
// with its outputs, notes), under new cell ids, in 100 folders. Seeded: the same arguments give the same
// bytes. Kept in the system's temporary folder, outside the repo, and reused while its manifest is there.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mulberry32 } from './generateDialog.mjs';

const VERSION = 1;

/** Every cell of the public corpus with the number of characters of text the index holds of it. */
function corpusCells(core, corpus) {
  const cells = [];
  for (const f of readdirSync(corpus).filter((f) => f.endsWith('.ipynb')).sort()) {
    const text = readFileSync(join(corpus, f), 'utf8');
    let d;
    try {
      d = core.readIpynb(text, f);
    } catch {
      continue;
    }
    const raw = JSON.parse(text).cells;
    if (raw.length !== d.messages.length) continue;
    const run = raw.map((cell, i) => ({ cell, chars: core.messageSearchParts(d.messages[i]).reduce((n, p) => n + p.text.length, 0) }));
    cells.push(run);
  }
  return cells;
}

/** The workspace's folder, generated when missing; its manifest: `{ files, bytes, textChars }`. */
export function searchWorkspace(core, corpus, { dialogs = 10000, mb = 1000, seed = 53 } = {}) {
  const dir = join(tmpdir(), `dialog-search-scale-${dialogs}-${mb}mb-s${seed}-v${VERSION}`);
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) return { dir, ...JSON.parse(readFileSync(manifestPath, 'utf8')) };
  rmSync(dir, { recursive: true, force: true });
  const sources = corpusCells(core, corpus);
  const rand = mulberry32(seed);
  const hex = () => Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0');
  const mean = (mb * 1e6) / dialogs;
  const files = [];
  let bytes = 0;
  let textChars = 0;
  for (let i = 0; i < dialogs; i++) {
    // Sizes spread from a fifth to nearly twice the mean, as a real folder's dialogs are.
    const target = mean * (0.2 + 1.6 * rand());
    const cells = [];
    let size = 0;
    while (size < target) {
      const src = sources[Math.floor(rand() * sources.length)];
      const from = Math.floor(rand() * src.length);
      for (const { cell, chars } of src.slice(from, from + 4 + Math.floor(rand() * 20))) {
        const copy = { ...cell, id: hex() };
        const n = JSON.stringify(copy, null, 1).length;
        // A cell bigger than the mean dialog (a large image) would make its dialog an outlier: left out.
        if (n > mean) continue;
        cells.push(copy);
        size += n;
        textChars += chars;
        if (size >= target) break;
      }
    }
    const nb = { cells, metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 }, nbformat: 4, nbformat_minor: 5 };
    const rel = `d${String(i % 100).padStart(2, '0')}/dialog${String(i).padStart(5, '0')}.ipynb`;
    const text = JSON.stringify(nb, null, 1) + '\n';
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
    bytes += Buffer.byteLength(text);
    files.push(rel);
  }
  const manifest = { files, bytes, textChars };
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return { dir, ...manifest };
}
