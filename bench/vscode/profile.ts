// CPU profiles of the extension host from inside it (node:inspector), summarised as the time spent in
// this extension's bundle and its hottest functions.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled ms with a frame of `ours` on the stack. */
  oursMs: number;
  /** The part of oursMs under our NotebookSerializer (VS Code's saves and backups of a dirty notebook). */
  serializerMs: number;
  /** Sampled ms the thread was not idle. */
  busyMs: number;
  /** Hottest functions by self time: "name (file:line) ms". */
  top: string[];
  /** Our functions by inclusive time. */
  topOurs: string[];
}

const post = <T>(s: Session, method: string, params?: object) =>
  new Promise<T>((resolve, reject) => s.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));

/** The extension host's live heap (MB) after a full garbage collection: what it keeps, not what it left. */
export async function liveHeapMB(): Promise<number> {
  const s = new Session();
  s.connect();
  try {
    await post(s, 'HeapProfiler.collectGarbage');
    return process.memoryUsage().heapUsed / 1e6;
  } finally {
    s.disconnect();
  }
}

/** Writes a heap snapshot of the extension host to `path` (DevTools' .heapsnapshot format). */
export async function heapSnapshot(path: string): Promise<void> {
  const s = new Session();
  s.connect();
  const chunks: string[] = [];
  s.on('HeapProfiler.addHeapSnapshotChunk', (m) => chunks.push(m.params.chunk));
  try {
    await post(s, 'HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    writeFileSync(path, chunks.join(''));
  } finally {
    s.disconnect();
  }
}

/** Profiles `fn`; with `keep`, also writes the raw profile there (DevTools' .cpuprofile format). */
export async function profiled(ours: string, fn: () => Promise<void>, keep?: string): Promise<ProfileSummary> {
  const s = new Session();
  s.connect();
  try {
    await post(s, 'Profiler.enable');
    await post(s, 'Profiler.setSamplingInterval', { interval: 200 });
    await post(s, 'Profiler.start');
    await fn();
    const { profile } = await post<{ profile: Profile }>(s, 'Profiler.stop');
    if (keep) writeFileSync(keep, JSON.stringify(profile));
    return summarise(profile, ours);
  } finally {
    s.disconnect();
  }
}

function summarise(p: Profile, ours: string): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inOurs = new Map<number, boolean>();
  const isOurs = (id: number): boolean => {
    const hit = inOurs.get(id);
    if (hit !== undefined) return hit;
    const n = byId.get(id)!;
    const up = parent.get(id);
    const r = n.callFrame.url.includes(ours) || (up !== undefined && isOurs(up));
    inOurs.set(id, r);
    return r;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const keyOf = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} (${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1})`;
  let oursUs = 0;
  let serializerUs = 0;
  let busyUs = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const n = byId.get(id)!;
    const name = n.callFrame.functionName;
    if (name === '(idle)') return;
    busyUs += dt;
    if (isOurs(id)) oursUs += dt;
    let serializing = false;
    const key = keyOf(n);
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const f = byId.get(up)!;
      if (!f.callFrame.url.includes(ours)) continue;
      const k = keyOf(f);
      serializing ||= f.callFrame.functionName === 'serializeNotebook';
      if (!seen.has(k)) incl.set(k, (incl.get(k) ?? 0) + dt);
      seen.add(k);
    }
    if (serializing) serializerUs += dt;
  });
  const list = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${k} ${(us / 1000).toFixed(0)} ms`);
  return { oursMs: oursUs / 1000, serializerMs: serializerUs / 1000, busyMs: busyUs / 1000, top: list(self, 12), topOurs: list(incl, 25) };
}
