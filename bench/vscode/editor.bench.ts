// `npm run bench` (bench/vscode.sh): inside the real VS Code, opens each dialog of the workspace's
// bench.json and times from the open command until the editor shows its cells (its visible ranges are
// reported, i.e. the cell list has laid out). bench/vscode.sh runs this file in two kinds of window,
// alternating: one with our extension, where each dialog is opened with ours and with VS Code's built-in
// Jupyter editor (alternating which goes first), and one without it (only a bare bench extension is
// loaded), where the built-in editor opens them in both places: the peer, and what a window without us costs. Each
// window writes its raw figures to bench-open-<label>.json; bench/vscode/openTable.mjs makes the tables.
// In the window told to (`typing`), it then types into one cell of the biggest dialog and measures the
// extension host's work per keystroke (bench-typing.md).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ProfileSummary, heapSnapshot, liveHeapMB, profiled } from './profile';
import { median } from './stats';

const OURS = 'dialog-notebook';
const BUILT_IN = 'jupyter-notebook';
/** In the window without ours, the built-in editor's open where the other window opens ours: both
 * windows open each dialog as often and in the same order (the heap and the file cache alike). */
const IN_OURS_PLACE = 'jupyter-notebook#2';
const EXTENSION_ID = 'dialog-notebooks.dialog-notebooks';
/**
 * The floor, in the window without ours: VS Code showing the very cells our editor makes (dumped by the
 * window with ours into floor/), through a serializer that only parses them, with our renderer and prompt
 * grammar contributed by the bench extension and none of our code running (bench/vscode.sh).
 */
const FLOOR = 'dialog-bench-floor';
const floorUri = (name: string) => vscode.Uri.joinPath(folder(), 'floor', name);

interface DumpedCell {
  kind: vscode.NotebookCellKind;
  language: string;
  value: string;
  metadata: { [key: string]: unknown };
  outputs: { metadata?: { [key: string]: unknown }; items: { mime: string; base64: string }[] }[];
}

/** The cells of an open notebook as the floor's serializer reads them back. */
function dump(nb: vscode.NotebookDocument): Uint8Array {
  const cells: DumpedCell[] = nb.getCells().map((c) => ({
    kind: c.kind,
    language: c.document.languageId,
    value: c.document.getText(),
    metadata: c.metadata,
    outputs: c.outputs.map((o) => ({ metadata: o.metadata, items: o.items.map((i) => ({ mime: i.mime, base64: Buffer.from(i.data).toString('base64') })) })),
  }));
  return new TextEncoder().encode(JSON.stringify({ metadata: nb.metadata, cells }));
}

const floorSerializer: vscode.NotebookSerializer = {
  deserializeNotebook(content) {
    const d = JSON.parse(new TextDecoder().decode(content)) as { metadata: { [key: string]: unknown }; cells: DumpedCell[] };
    const data = new vscode.NotebookData(
      d.cells.map((c) => {
        const cell = new vscode.NotebookCellData(c.kind, c.value, c.language);
        cell.metadata = c.metadata;
        cell.outputs = c.outputs.map((o) => new vscode.NotebookCellOutput(o.items.map((i) => new vscode.NotebookCellOutputItem(Buffer.from(i.base64, 'base64'), i.mime)), o.metadata));
        return cell;
      }),
    );
    data.metadata = d.metadata;
    return data;
  },
  serializeNotebook() {
    throw new Error('the bench floor is never saved');
  },
};

interface BenchConfig {
  files: string[];
  reps: number;
  /** Names this window's results file (bench-open-<label>.json). */
  label: string;
  /** The file typed into, and how many keystrokes. */
  typing?: { file: string; keys: number };
  /** Profile the opens and list the hottest functions. */
  profile?: boolean;
}

/** What one window measured, as bench/vscode/openTable.mjs reads it. */
export interface WindowResult {
  label: string;
  /** When the window started (Date.now()), to list the windows in the order they ran. */
  started: number;
  /** The extension host's live heap (MB) at the end, all editors closed. */
  heapMB?: number;
  /** Whether our extension was installed in this window. */
  withOurs: boolean;
  /** /proc/loadavg's 1-, 5- and 15-minute figures at the start and the end of the window's opens. */
  load: { start: string; end: string };
  /** The extensions active after the opens (what else runs for a notebook). */
  active: string[];
  files: Record<string, { cells: number; kB: number; opens: Record<string, Open[]> }>;
  profiles: string[];
}

const folder = () => vscode.workspace.workspaceFolders![0].uri;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
};

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 600_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const exists = (uri: vscode.Uri) => vscode.workspace.fs.stat(uri).then(() => true, () => false);

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await until('notebooks to close', () => vscode.workspace.notebookDocuments.length === 0 || undefined, 60_000);
}

/** Milliseconds from the open command until the editor of `uri` has laid out its cells. */
async function timeOpen(uri: vscode.Uri, type: string): Promise<number> {
  await closeAll();
  const t0 = performance.now();
  await vscode.commands.executeCommand('vscode.openWith', uri, type, { preview: false });
  await until(`${type} cells of ${uri.path}`, () =>
    vscode.window.visibleNotebookEditors.some(
      (e) => e.notebook.notebookType === type && e.notebook.uri.toString() === uri.toString() && e.visibleRanges.some((r) => r.end > r.start),
    ) || undefined,
  );
  return performance.now() - t0;
}

export interface Open {
  ms: number;
  /** Extension-host CPU (user + system) during the open, all its threads. */
  cpuMs: number;
  /** The part of cpuMs on its main thread, where extensions run (the rest: GC and native helper threads). */
  mainCpuMs?: number;
  /** The extension host's live heap just before the open (after a full GC). */
  heapMB?: number;
  /** The extension host's longest stretch without turning its event loop: VS Code calls a host that
   * leaves its messages unanswered for 3 s unresponsive. */
  blockMs: number;
}

type CpuUsage = { user: number; system: number };
/** Node 23.9+ (code-server's Node 24); @types/node 20 does not know it. */
const threadCpu = (process as { threadCpuUsage?: (prev?: CpuUsage) => CpuUsage }).threadCpuUsage?.bind(process);

async function measured(fn: () => Promise<number>): Promise<Open> {
  const heapMB = await liveHeapMB();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const c0 = process.cpuUsage();
  const t0 = threadCpu?.();
  const ms = await fn();
  const c = process.cpuUsage(c0);
  const t = t0 && threadCpu?.(t0);
  delay.disable();
  return { ms, cpuMs: (c.user + c.system) / 1000, mainCpuMs: t && (t.user + t.system) / 1000, heapMB, blockMs: delay.max / 1e6 };
}

describe('editor speed (bench)', function () {
  this.timeout(0);
  let cfg: BenchConfig;
  let ours: vscode.Extension<unknown> | undefined;
  /** How our code shows in the profiles' stacks. */
  let ourBundle = '';
  let result: WindowResult;
  const typing: string[] = [];

  before(async () => {
    cfg = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), 'bench.json'))));
    ours = vscode.extensions.getExtension(EXTENSION_ID);
    ourBundle = ours ? vscode.Uri.joinPath(ours.extensionUri, 'dist', 'extension.js').path : '\0';
    result = { label: cfg.label, started: Date.now(), withOurs: !!ours, load: { start: '', end: '' }, active: [], files: {}, profiles: [] };
    await ours?.activate();
    // Our serializer's options, so that VS Code keeps and compares the same parts of the cells.
    if (!ours) vscode.workspace.registerNotebookSerializer(FLOOR, floorSerializer, { transientOutputs: false, transientCellMetadata: {}, transientDocumentMetadata: {} });
    // Warm the editors up (extension activation, renderers) on the smallest file, as often in either
    // window: the window's own start (other extensions, the TypeScript server) settles meanwhile.
    const warm = vscode.Uri.joinPath(folder(), cfg.files[0]);
    await timeOpen(warm, BUILT_IN);
    await timeOpen(warm, ours ? OURS : BUILT_IN);
    if (!ours && (await exists(floorUri(cfg.files[0])))) await timeOpen(floorUri(cfg.files[0]), FLOOR);
  });

  // Written after each dialog too, so a run cut short by its timeout still reports what it measured.
  const save = () =>
    vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), `bench-open-${cfg.label}.json`), new TextEncoder().encode(JSON.stringify(result, null, 1)));
  after(async () => {
    if (result) await save();
    if (typing.length) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), 'bench-typing.md'), new TextEncoder().encode(typing.join('\n') + '\n'));
  });

  it('opens each dialog', async () => {
    const typeOf = (editor: string) => (editor === IN_OURS_PLACE ? BUILT_IN : editor);
    // Which editor opens a dialog first alternates between dialogs and between rounds (the label's number).
    const round = Number(/\d+/.exec(cfg.label)?.[0] ?? 0);
    result.load.start = loadAverage();
    for (const [i, name] of cfg.files.entries()) {
      const uri = vscode.Uri.joinPath(folder(), name);
      const dumped = !ours && (await exists(floorUri(name)));
      const editors = ours ? [BUILT_IN, OURS] : dumped ? [BUILT_IN, IN_OURS_PLACE, FLOOR] : [BUILT_IN, IN_OURS_PLACE];
      const openIn = (editor: string) => (editor === FLOOR ? timeOpen(floorUri(name), FLOOR) : timeOpen(uri, typeOf(editor)));
      const opens: Record<string, Open[]> = Object.fromEntries(editors.map((e) => [e, []]));
      for (let r = 0; r < cfg.reps; r++) {
        const order = (i + r + round) % 2 ? [...editors].reverse() : editors;
        for (const editor of order) opens[editor].push(await measured(() => openIn(editor)));
      }
      // The cells ours made, for the floor of the window without ours (written once, by the first such window).
      if (ours && !(await exists(floorUri(name)))) {
        await timeOpen(uri, OURS);
        const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString() && d.notebookType === OURS)!;
        await vscode.workspace.fs.writeFile(floorUri(name), dump(nb));
      }
      const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
      const kB = (await vscode.workspace.fs.stat(uri)).size / 1000;
      result.files[name] = { cells: nb?.cellCount ?? 0, kB, opens };
      result.load.end = loadAverage();
      await save();
      if (cfg.profile) {
        for (const editor of editors) {
          await closeAll();
          const keep = vscode.Uri.joinPath(folder(), `${cfg.label}-${name}-${editor.replace('#', '')}.cpuprofile`).fsPath;
          const p = await profiled(ourBundle, async () => void (await openIn(editor)), keep);
          const shown = editor === OURS ? 'ours' : editor === FLOOR ? 'the floor (our cells, none of our code)' : `built-in editor, ${ours ? 'with' : 'without'} our extension`;
          result.profiles.push(`${name}, ${shown}: ${p.oursMs.toFixed(0)} ms in our code of ${p.busyMs.toFixed(0)} ms busy`, ...p.top.map((t) => `    ${t}`));
          if (ours) result.profiles.push('  ours:', ...p.topOurs.map((t) => `    ${t}`));
        }
      }
    }
    result.active = vscode.extensions.all.filter((e) => e.isActive).map((e) => e.id);
    await closeAll();
    result.heapMB = await liveHeapMB();
    if (cfg.profile) await heapSnapshot(vscode.Uri.joinPath(folder(), `${cfg.label}.heapsnapshot`).fsPath);
    await save();
  });

  it('types into one cell of the biggest dialog', async function () {
    if (!cfg.typing || !ours) this.skip();
    const { file, keys } = cfg.typing!;
    const uri = vscode.Uri.joinPath(folder(), file);
    await closeAll();
    await timeOpen(uri, OURS);
    const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString())!;
    const cell = nb.cellAt(nb.cellCount >> 1);
    // Each key is left to settle (debounced listeners included) and profiled alone: the median keystroke
    // is the cost of typing, whatever one-off work of the open (the environments' discovery, the SDK's
    // warm-up, the first pass of context keys) lands in one of them; the busiest one is shown beside.
    const strokes: ProfileSummary[] = [];
    for (let k = 0; k < keys; k++) {
      strokes.push(
        await profiled(ourBundle, async () => {
          const doc = cell.document;
          const edit = new vscode.WorkspaceEdit();
          edit.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, 'x');
          await vscode.workspace.applyEdit(edit);
          await sleep(700);
        }),
      );
    }
    const listeners = (s: ProfileSummary) => s.oursMs - s.serializerMs;
    const byListeners = [...strokes].sort((a, b) => listeners(a) - listeners(b));
    const mid = byListeners[keys >> 1];
    const p = byListeners[keys - 1];
    typing.push(
      '',
      `Typing ${keys} characters into cell ${cell.index} of ${file} (${nb.cellCount} cells), each left to settle, median keystroke: ` +
        `${listeners(mid).toFixed(2)} ms of our listeners, plus ${mid.serializerMs.toFixed(2)} ms of VS Code's backups of the dirty notebook through our serializer ` +
        `(extension host busy ${median(strokes.map((s) => s.busyMs)).toFixed(2)} ms per keystroke in all); the busiest keystroke: ${listeners(p).toFixed(1)} ms of ours (${p.busyMs.toFixed(0)} ms busy).`,
    );
    if (cfg.profile) typing.push('', '```', ...p.top.map((t) => `    ${t}`), '  ours:', ...p.topOurs.map((t) => `    ${t}`), '```');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
