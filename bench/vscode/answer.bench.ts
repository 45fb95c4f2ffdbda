// `npm run bench` (bench/vscode.sh): inside the real VS Code, answers a prompt appended at the end of each
// dialog of bench.json's `answer` list with the mock Anthropic server (through the real SDK), and times
// from the run command until the request arrives at the server (run → wire: the first answer after the
// open, cold, then warm ones; each 2 s after the previous reply showed, once the window is idle), how much of that
// is VS Code's round trip through the window before our controller starts the run, from the request's
// arrival until the cell shows the first word (→ first token), and the extension host's CPU before the
// request left. The limits, in the same run: a bare `fetch` of the same body to the same server (its
// arrival, and its first streamed bytes), and the floor: a notebook controller of the bench that does
// only what no answer can skip (send the same body, ready as bytes, and show the first word in the same
// cell through the same renderer), run by the same command, so its times are VS Code's and the wire's.
// Writes bench-answer.md into the workspace.
import * as vscode from 'vscode';
import { Message } from '../../src/core';
import { CONTROLLER_ID } from '../../src/extension/answer/controller';
import { msg2cell, cellReply, replyOutput } from '../../src/extension/document/cells';
import { start } from '../../test/mocks/anthropicServer';
import { profiled } from './profile';
import { median } from './stats';

const EXTENSION_ID = 'dialog-notebooks.dialog-notebooks';
const KEY = 'sk-ant-bench-key';
const PROMPT_ID = 'benchask';
const FIRST = 'First';
/** How long a dialog is shown before its "shown 4 s" answer: a person writing the prompt. */
const WRITING_MS = 4000;
/**
 * How long a reply is read before the next run. Reading takes seconds; VS Code saves (auto save, in the
 * browser) or backs up the dialog about 1 s after the reply, through our serialiser, so a run at 1 s
 * meets that save (~50 ms at 2,000 cells), one at 2 s does not.
 */
const READING_MS = 2000;

interface AnswerBench {
  answer?: string[];
  /** Warm answers per dialog (after the cold one). */
  answerReps?: number;
  /** BENCH_PROFILE=1: the cold answer of each dialog and one more warm one profiled. */
  profile?: boolean;
}

const folder = () => vscode.workspace.workspaceFolders![0].uri;
const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves once the window answers a command at once, twice in a row: it has laid out the previous
 * reply, as it has when a person reads it and presses Ctrl+Enter (at most ~3 s on a loaded machine).
 */
async function windowIdle(): Promise<void> {
  for (let fast = 0, tries = 0; fast < 2 && tries < 100; tries++) {
    const t = performance.now();
    await vscode.commands.executeCommand('setContext', 'dialogBench.idle', tries);
    fast = performance.now() - t < 10 ? fast + 1 : 0;
    if (!fast) await sleep(20);
  }
}

/** Resolves with the time `probe` first holds after a change of `nb` (or at once). */
function whenShown(nb: vscode.NotebookDocument, probe: () => boolean, timeoutMs = 120_000): Promise<number> {
  if (probe()) return Promise.resolve(performance.now());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error('timed out waiting for the reply'))), timeoutMs);
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook !== nb || !probe()) return;
      const t = performance.now();
      sub.dispose();
      clearTimeout(timer);
      resolve(t);
    });
  });
}

const FLOOR_ID = 'dialogBench.floor';

/**
 * The floor controller: on a run it POSTs `body` to the server and shows the reply's first word as the
 * cell's reply once it arrives, then puts the old outputs back.
 */
function floorController(url: string, body: () => Uint8Array<ArrayBuffer>, word: () => string): vscode.NotebookController {
  const c = vscode.notebooks.createNotebookController(FLOOR_ID, 'dialog-notebook', 'Bench floor');
  c.executeHandler = async (cells) => {
    for (const cell of cells) {
      const exec = c.createNotebookCellExecution(cell);
      exec.start(Date.now());
      const old = cell.outputs.slice();
      const res = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, body: body() });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let got = '';
      let shown = false;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        got += decoder.decode(value, { stream: true });
        if (!shown && got.includes(word())) {
          shown = true;
          await exec.replaceOutput(replyOutput(word()));
        }
      }
      await exec.replaceOutput(old);
      exec.end(true, Date.now());
    }
  };
  return c;
}

describe('answer speed (bench)', function () {
  this.timeout(0);
  let cfg: AnswerBench;
  const lines: string[] = [];
  const save = () => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), 'bench-answer.md'), new TextEncoder().encode(lines.join('\n') + '\n'));
  after(save);

  it('answers a prompt at the end of each dialog, against a bare fetch of the same body', async function () {
    cfg = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), 'bench.json'))));
    if (!cfg.answer?.length) this.skip();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await ext.activate();
    // Our code in the profiles' stacks: the main bundle and the lazy ones (the SDK's).
    const ourCode = vscode.Uri.joinPath(ext.extensionUri, 'dist').path + '/';
    const profiles: string[] = [];
    const server = await start({ apiKey: KEY });
    await settings().update('anthropic.baseUrl', server.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('dialogNotebook.setApiKey', 'anthropic', KEY);
    await vscode.commands.executeCommand('dialogNotebook.selectModel', 'anthropic:claude-bench');
    const reps = cfg.answerReps ?? 5;
    lines.push(
      '| dialog | cells | request kB | messages | run → wire ms: cold / shown 4 s / warm | of which VS Code: run → our handler ms, cold / shown 4 s / warm | bare fetch → wire ms | floor: run → wire ms (of which VS Code) | warm ÷ floor | → first token shown ms | floor → first token shown ms | bare fetch → first bytes ms | ext host CPU before the request ms, cold / shown 4 s / warm |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    try {
      for (const name of cfg.answer) {
        let uri = vscode.Uri.joinPath(folder(), name);
        const copy = vscode.Uri.joinPath(folder(), `shown-${name}`);
        await vscode.workspace.fs.copy(uri, copy, { overwrite: true });
        /** Opens the dialog alone, with a prompt appended; returns it and the prompt's index. */
        const open = async () => {
          await vscode.commands.executeCommand('workbench.action.closeAllEditors');
          await vscode.commands.executeCommand('vscode.openWith', uri, 'dialog-notebook', { preview: false });
          const nb = vscode.workspace.notebookDocuments.find((d) => d.notebookType === 'dialog-notebook' && d.uri.toString() === uri.toString());
          if (!nb) throw new Error(`${name} did not open as a dialog`);
          const edit = new vscode.WorkspaceEdit();
          edit.set(uri, [vscode.NotebookEdit.insertCells(nb.cellCount, [msg2cell(new Message({ id: PROMPT_ID, msgType: 'prompt', content: 'What should I do next?' }))])]);
          await vscode.workspace.applyEdit(edit);
          return { nb, k: nb.cellCount - 1 };
        };
        let { nb, k } = await open();
        const wire: number[] = [];
        const cpu: number[] = [];
        const first: number[] = [];
        /** From the run command until our controller started the prompt's execution (VS Code's round trip through the window). */
        const handler: number[] = [];
        let body: unknown;
        /** One answer of the prompt: run → wire, of which VS Code's, the CPU before the request, → first token. */
        const answer = async (r: number) => {
          const word = `${FIRST}${r}`;
          // Writing the reply replaces the cell: each run starts on the one there now.
          const cell = nb.cellAt(k);
          server.enqueue({ text: [word, ' word', ' of the reply.'], delayMs: 5 });
          const seen = server.requests.length;
          const shown = whenShown(nb, () => cellReply(cell).includes(word));
          if (r && r <= reps + 1) await sleep(READING_MS);
          await windowIdle();
          const c0 = process.cpuUsage();
          const d0 = Date.now();
          const t0 = performance.now();
          await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: k, end: k + 1 }], document: uri });
          const tShown = await shown;
          const req = server.requests[seen];
          if (!req) throw new Error(`${name}: no request arrived`);
          body = req.body;
          // The execution's start, which our run stamps as it begins (whole milliseconds of Date.now()).
          const begun = cell.executionSummary?.timing?.startTime;
          // The next run starts once the reply was written (into a new cell).
          await whenShown(nb, () => nb.cellAt(k) !== cell && cellReply(nb.cellAt(k)).includes(`${word} word of the reply.`));
          return { wire: req.at - t0, handler: begun === undefined ? NaN : begun - d0, cpu: (req.cpu.user - c0.user + req.cpu.system - c0.system) / 1000, first: tShown - req.at };
        };
        const once = async (r: number) => {
          const a = await answer(r);
          wire.push(a.wire);
          handler.push(a.handler);
          cpu.push(a.cpu);
          first.push(a.first);
        };
        // Profiled (BENCH_PROFILE=1, which slows them): the cold answer and one more warm one.
        const profile = async (what: string, r: number) => {
          const p = await profiled(ourCode, () => once(r));
          profiles.push(`${name}, ${what} answer: ${p.oursMs.toFixed(0)} ms in our code of ${p.busyMs.toFixed(0)} ms busy`, ...p.top.map((t) => `    ${t}`), '  ours:', ...p.topOurs.map((t) => `    ${t}`));
        };
        for (let r = 0; r <= reps; r++) await (cfg.profile && r === 0 ? profile('the cold', r) : once(r));
        if (cfg.profile) await profile('a warm', reps + 1);
        // The limit: the same body POSTed by a bare fetch, through the same server.
        const bare: number[] = [];
        const bareFirst: number[] = [];
        const text = JSON.stringify(body);
        for (let r = 0; r < reps; r++) {
          server.enqueue({ text: [FIRST, ' word', ' of the reply.'], delayMs: 5 });
          const seen = server.requests.length;
          const t0 = performance.now();
          const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, body: text });
          const reader = res.body!.getReader();
          let got = '';
          let tFirst = 0;
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            got += new TextDecoder().decode(value);
            if (!tFirst && got.includes(FIRST)) tFirst = performance.now();
          }
          const req = server.requests[seen];
          bare.push(req.at - t0);
          bareFirst.push(tFirst - req.at);
        }
        // The floor, run as ours was, on the same prompt cell: from the run command until the server has the body, and on to the first word shown.
        const floorWire: number[] = [];
        const floorHandler: number[] = [];
        const floorFirst: number[] = [];
        let floorWord = '';
        const bytes = new TextEncoder().encode(text);
        const floor = floorController(server.url, () => bytes, () => floorWord);
        try {
          await vscode.commands.executeCommand('notebook.selectKernel', { id: FLOOR_ID, extension: EXTENSION_ID });
          for (let r = 0; r < reps; r++) {
            floorWord = `Floor${r}`;
            const cell = nb.cellAt(k);
            server.enqueue({ text: [floorWord, ' word', ' of the reply.'], delayMs: 5 });
            const seen = server.requests.length;
            const shown = whenShown(nb, () => cellReply(cell).includes(floorWord));
            await sleep(READING_MS);
            await windowIdle();
            const d0 = Date.now();
            const t0 = performance.now();
            await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: k, end: k + 1 }], document: uri });
            const tShown = await shown;
            const req = server.requests[seen];
            if (!req) throw new Error(`${name}: the floor's request did not arrive`);
            await whenShown(nb, () => !cellReply(cell).includes(floorWord) && (cell.executionSummary?.timing?.endTime ?? 0) >= d0);
            floorWire.push(req.at - t0);
            floorHandler.push((cell.executionSummary?.timing?.startTime ?? NaN) - d0);
            floorFirst.push(tShown - req.at);
          }
        } finally {
          await vscode.commands.executeCommand('notebook.selectKernel', { id: CONTROLLER_ID, extension: EXTENSION_ID });
          floor.dispose();
        }
        // The first answer of a copy of the dialog (made before any answer: auto save writes the replies),
        // shown a moment first, as while a person writes the prompt: the warm-up (warmUp.ts) has read it.
        await vscode.commands.executeCommand('workbench.action.files.revert');
        uri = copy;
        ({ nb, k } = await open());
        await sleep(WRITING_MS);
        const shownFirst = await answer(reps + 2);
        const warm = median(wire.slice(1));
        const b = median(bare);
        const fw = median(floorWire);
        const msgs = (body as { messages?: unknown[] }).messages?.length ?? 0;
        lines.push(
          `| ${name} | ${nb.cellCount - 1} | ${(text.length / 1000).toFixed(0)} | ${msgs} | ${wire[0].toFixed(0)} / ${shownFirst.wire.toFixed(0)} / ${warm.toFixed(0)} | ${handler[0].toFixed(0)} / ${shownFirst.handler.toFixed(0)} / ${median(handler.slice(1)).toFixed(0)} | ${b.toFixed(1)} | ${fw.toFixed(0)} (${median(floorHandler).toFixed(0)}) | ${(warm / fw).toFixed(2)}× | ${median(first.slice(1)).toFixed(0)} (cold ${first[0].toFixed(0)}) | ${median(floorFirst).toFixed(0)} | ${median(bareFirst).toFixed(1)} | ${cpu[0].toFixed(0)} / ${shownFirst.cpu.toFixed(0)} / ${median(cpu.slice(1)).toFixed(0)} |`,
        );
        await save();
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      if (profiles.length) lines.push('', '```', ...profiles, '```');
    } finally {
      await settings().update('anthropic.baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('dialogNotebook.setApiKey', 'anthropic', '');
      await server.close();
    }
  });
});
