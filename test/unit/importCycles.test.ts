// The import graph of src/ has no circles (issue 34): a folder that imports one that imports it back is one
// room, whatever the names say. Every import counts, `import type` too: a circle of types is still a circle
// of meaning. Only relative imports are followed (packages cannot import us).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x` → x.ts or x/index.ts), or undefined. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

const rel = (p: string) => relative(ROOT, p).split('\\').join('/');

function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const to = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(file, fileName);
      if (target) to.add(rel(target));
    }
    graph.set(rel(file), to);
  }
  return graph;
}

/** Files from which `start` is reached again, with the path: the shortest circle through `start`, or undefined. */
function circleThrough(graph: Map<string, Set<string>>, start: string): string[] | undefined {
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]) ?? []) {
      if (next === start) {
        const path = [queue[i]];
        while (path[0] !== start) path.unshift(prev.get(path[0])!);
        return [...path, start];
      }
      if (!prev.has(next)) {
        prev.set(next, queue[i]);
        queue.push(next);
      }
    }
  }
  return undefined;
}

describe('import cycles in src/', () => {
  const graph = importGraph();

  it('reads the whole of src/', () => {
    assert.ok(graph.size > 100, `${graph.size} files`);
    assert.ok(graph.get('src/extension/extension.ts')?.has('src/extension/log.ts'), 'extension.ts imports log.ts');
  });

  it('has no circle', () => {
    const circles = new Map<string, string[]>();
    for (const file of graph.keys()) {
      const circle = circleThrough(graph, file);
      if (circle) circles.set([...circle.slice(1)].sort().join(), circle);
    }
    assert.deepEqual([...circles.values()].map((c) => c.join(' → ')), []);
  });
});
