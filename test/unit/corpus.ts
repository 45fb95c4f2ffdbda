// The shared corpus and its golden vectors, for tests that run over every real dialog.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED = resolve(__dirname, '../../../shared');

export interface CorpusFile {
  set: 'public' | 'synthetic' | 'perf';
  stem: string;
  path: string;
  /** The reference's outputs for this file (shared/golden), when there are any. */
  golden?: Record<string, any>;
}

export function corpusFiles(sets: CorpusFile['set'][] = ['public', 'synthetic']): CorpusFile[] {
  const out: CorpusFile[] = [];
  for (const set of sets) {
    const dir = join(SHARED, 'corpus', set);
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.ipynb')).sort()) {
      const stem = f.slice(0, -'.ipynb'.length);
      const g = join(SHARED, 'golden', set, stem + '.json');
      out.push({
        set,
        stem,
        path: join(dir, f),
        get golden() {
          return existsSync(g) ? JSON.parse(readFileSync(g, 'utf8')) : undefined;
        },
      });
    }
  }
  return out;
}
