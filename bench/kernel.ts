// `npx tsx bench/kernel.ts`: what running a cell costs beyond the kernel's own time (ipykernel's reply:
// started → reply date), for 200 trivial cells run one after another as in a Run All, against a local
// Jupyter Server. Issue 10's target: a median under 20 ms per cell. For scale, the same cells go
// interleaved to a second kernel through bare @jupyterlab/services: the difference is this layer's share.
// Wall times swing with the machine's load; the Node CPU time per cell (this process) does not.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectServer } from '../src/extension/jupyter/connection';
import { JupyterNotFoundError, startLocalServer } from '../src/extension/jupyter/localServer';
import { KernelSession } from '../src/extension/kernel/session';
import { setPlatform } from '../src/extension/platform';
import { nodePlatform } from '../src/node/platform';

setPlatform(nodePlatform); // connectServer takes the WebSocket class from the platform

const CELLS = 200;
const WARMUP = 20;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const row = (name: string, xs: number[]) => `| ${name} | ${ms(pct(xs, 0.5))} | ${ms(pct(xs, 0.9))} |`;

async function main(): Promise<void> {
  console.debug = () => {}; // @jupyterlab/services logs kernel status changes
  const dir = mkdtempSync(join(tmpdir(), 'dialog-bench-'));
  const server = await startLocalServer({ rootDir: dir });
  const conn = await connectServer(server.url, server.token);
  const ks = await KernelSession.start(conn, { path: 'bench.ipynb' });
  const bare = await conn.kernels.startNew({ name: 'python3' });
  await bare.info;
  try {
    const wall: number[] = [];
    const own: number[] = [];
    const bareWall: number[] = [];
    const cpu: number[] = [];
    const bareCpu: number[] = [];
    const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
    for (let i = 0; i < WARMUP + CELLS; i++) {
      const code = `n = ${i}\nn + 1`;
      let t = performance.now();
      let c = process.cpuUsage();
      const r = await ks.execute(code, { onOutputs: () => {} });
      const w = performance.now() - t;
      const layerCpu = cpuMs(process.cpuUsage(c));
      if (r.status !== 'ok' || !r.kernelTime) throw new Error(`cell ${i}: ${r.status}, kernel time ${JSON.stringify(r.kernelTime)}`);
      t = performance.now();
      c = process.cpuUsage();
      await bare.requestExecute({ code }).done;
      if (i < WARMUP) continue;
      bareWall.push(performance.now() - t);
      bareCpu.push(cpuMs(process.cpuUsage(c)));
      cpu.push(layerCpu);
      wall.push(w);
      own.push(r.kernelTime.ended - r.kernelTime.started);
    }
    console.log(`${CELLS} trivial cells, one after another (after ${WARMUP} warm-up cells)\n`);
    console.log('| per cell | median | p90 |\n| --- | --- | --- |');
    console.log(row('wall time', wall));
    console.log(row("kernel's own time", own));
    console.log(row('**overhead** (wall − own)', wall.map((w, i) => w - own[i])));
    console.log(row('bare @jupyterlab/services wall time', bareWall));
    console.log(row('Node CPU time', cpu));
    console.log(row('Node CPU time, bare @jupyterlab/services', bareCpu));
  } finally {
    await bare.shutdown();
    bare.dispose();
    await ks.dispose();
    conn.dispose();
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  if (e instanceof JupyterNotFoundError) return console.log(`\nkernel benchmark skipped: ${e.message}`);
  console.error(e);
  process.exitCode = 1;
});
