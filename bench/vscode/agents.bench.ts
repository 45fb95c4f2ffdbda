// `npm run bench` (bench/vscode.sh, suite `agents`): an agent outside VS Code working on the open
// 2,000-cell dialog through the MCP server (issue 44), with the SDK's own client over HTTP on 127.0.0.1,
// beside the same call made in the extension host without the wire (door.ts, as VS Code's agents and the
// assistant's tools make it). Times add_msg from the request leaving the client until the note is in the
// open notebook (onDidChangeNotebookDocument) and until the client has the answer, and view_dlg until the
// client has the dialog's XML. Writes bench-agents.md into the workspace.
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { JsonObject } from '../../src/core';
import { snapshotDialog } from '../../src/extension/editing/edits';
import { callDialogTool } from '../../src/extension/tools/door';
import { median } from './stats';

const EXTENSION_ID = 'dialog-notebooks.dialog-notebooks';
const FILE = 'generated-2000.ipynb';
const REPS = 15;

const folder = () => vscode.workspace.workspaceFolders![0].uri;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The time the notebook first has `n` cells (or now, when it has). */
function whenCells(nb: vscode.NotebookDocument, n: number): Promise<number> {
  if (nb.cellCount >= n) return Promise.resolve(performance.now());
  return new Promise((resolve) => {
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook !== nb || nb.cellCount < n) return;
      sub.dispose();
      resolve(performance.now());
    });
  });
}

describe('agents over MCP (bench)', function () {
  this.timeout(0);
  const lines: string[] = [];
  after(() => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), 'bench-agents.md'), new TextEncoder().encode(lines.join('\n') + '\n')));

  it('add_msg and view_dlg on the open 2,000-cell dialog, over MCP and without the wire', async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    const uri = vscode.Uri.joinPath(folder(), FILE);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'dialog-notebook', { preview: false });
    const nb = vscode.workspace.notebookDocuments.find((d) => d.notebookType === 'dialog-notebook' && d.uri.toString() === uri.toString())!;
    const { url, token } = (await vscode.commands.executeCommand<{ url: string; token: string }>('dialogNotebook.mcp.serverInfo'))!;
    const client = new Client({ name: 'bench-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const dname = FILE.replace(/\.ipynb$/, '');
    const mcp = (name: string, args: JsonObject) => client.callTool({ name, arguments: { dname, ...args } });
    const direct = (name: string, args: JsonObject) => callDialogTool({ door: 'agent' }, nb, name, args, { confirm: false });
    // The floor: VS Code's own edit of one new cell at the end, and reading every cell, with none of our work.
    const floor = async (name: string, args: JsonObject) => {
      if (name === 'view_dlg') return { text: nb.getCells().map((c) => c.document.getText()).join('') };
      const edit = new vscode.WorkspaceEdit();
      edit.set(nb.uri, [vscode.NotebookEdit.insertCells(nb.cellCount, [new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, String(args.content), 'markdown')])]);
      return vscode.workspace.applyEdit(edit);
    };
    const rows: [string, (name: string, args: JsonObject) => Promise<unknown>][] = [
      ['MCP (SDK client over HTTP)', mcp],
      ['in the extension host, no wire (door.ts)', direct],
      ["floor: VS Code's applyEdit of one cell / reading the cells' text", floor],
    ];
    lines.push(`${nb.cellCount} cells, ${REPS} calls each, medians; the load average before: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`, '');
    lines.push('| caller | add_msg: sent → in the notebook ms | add_msg: sent → answered ms | view_dlg: sent → answered ms | view_dlg kB |', '| --- | ---: | ---: | ---: | ---: |');
    try {
      // One call of each first: the kernel-free paths warm (first snapshot of the notebook, the SDK's code).
      await mcp('view_dlg', {});
      await direct('view_dlg', {});
      for (const [label, call] of rows) {
        const shown: number[] = [];
        const answered: number[] = [];
        const viewed: number[] = [];
        let kb = 0;
        for (let k = 0; k < REPS; k++) {
          const n = nb.cellCount + 1;
          const t0 = performance.now();
          const seen = whenCells(nb, n);
          await call('add_msg', { content: `Agent note ${k}.`, placement: 'at_end' });
          answered.push(performance.now() - t0);
          shown.push((await seen) - t0);
          await sleep(200);
          const t1 = performance.now();
          const r = (await call('view_dlg', {})) as { content?: { text: string }[]; text?: string };
          viewed.push(performance.now() - t1);
          kb = Math.round((r.content?.[0].text ?? r.text ?? '').length / 1024);
          await sleep(200);
        }
        lines.push(`| ${label} | ${median(shown).toFixed(1)} | ${median(answered).toFixed(1)} | ${median(viewed).toFixed(1)} | ${kb} |`);
      }
      // Where the door's time goes: the dialog read from the notebook's cells for each call.
      const snaps: number[] = [];
      for (let k = 0; k < REPS; k++) {
        const t = performance.now();
        snapshotDialog(nb);
        snaps.push(performance.now() - t);
      }
      lines.push('', `snapshotDialog (the ${nb.cellCount} cells read as a Dialog, once per call): ${median(snaps).toFixed(1)} ms`);
    } finally {
      await client.close();
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    console.log(lines.join('\n'));
  });
});
