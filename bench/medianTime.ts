// The benches' timing of one piece of work: its median over `runs`, after `warm` runs to warm it up.
import { median } from './vscode/stats';

export async function medianTime(fn: () => Promise<unknown> | unknown, runs: number, warm = 1): Promise<number> {
  for (let k = 0; k < warm; k++) await fn();
  const t: number[] = [];
  for (let k = 0; k < runs; k++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  return median(t);
}
