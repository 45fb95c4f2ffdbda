// Agents outside VS Code (issue 44): the MCP server with the SDK's own client over HTTP, in the real VS
// Code with a real kernel. The tools as listed; add_msg landing in the open notebook beside the user's
// unsaved edit (both kept, the file untouched, one Undo takes the note back); python in the kernel with
// progress and its time limit; an image output as image content; a 500 kB output cut; the token, Origin
// and Host refusals; two agents at once.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Dialog, Message, writeIpynb } from '../../src/core';
import { DIALOG_TOOLS } from '../../src/core/tools';
import { cellOf, closeAll, freshDialog as fresh, readText, setCellText, showDialog, skipWithoutKernel, until } from './helpers';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const freshDialog = (messages: Message[]) => fresh('agents', messages);
const note = (id: string, content: string) => new Message({ id, msgType: 'note', content });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

type Content = { type: string; text?: string; data?: string; mimeType?: string };
type Result = { content: Content[]; isError?: boolean };

const serverInfo = () => vscode.commands.executeCommand<{ url: string; token: string }>('dialogNotebook.mcp.serverInfo');

/** An agent connected with the SDK's client, as Claude Code connects. */
async function agent(name: string): Promise<Client> {
  const { url, token } = await serverInfo();
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

const call = async (c: Client, name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number }) => void) =>
  (await c.callTool({ name, arguments: args }, undefined, { onprogress, timeout: 120000 })) as Result;
const text = (r: Result) => r.content.filter((p) => p.type === 'text').map((p) => p.text).join('');
const dname = (name: string) => name.replace(/\.ipynb$/, '');

/** A raw request to the server, with headers an SDK client never sends. */
function raw(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } }));
  });
}

describe('agents outside VS Code: the MCP server', function () {
  this.timeout(180000);
  let a: Client;
  before(async () => {
    a = await agent('e2e-agent');
  });
  /** Connects `a` again after a test stopped the server. */
  const reconnect = async () => {
    await a.close();
    a = await agent('e2e-agent');
  };
  after(async () => {
    await a?.close();
    for (const k of ['tools.confirm', 'mcp.pythonTimeLimit']) await settings().update(k, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('dialogNotebook.stopAgentServer');
    await closeAll();
  });

  it('lists dialoghelper\'s tools, each with dname, and list_dialogs; the URL is 127.0.0.1', async () => {
    const { url } = await serverInfo();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { tools } = await a.listTools();
    const names = tools.map((t) => t.name);
    for (const t of [...DIALOG_TOOLS.map((d) => d.name), 'list_dialogs']) assert.ok(names.includes(t), `lists ${t}`);
    for (const t of tools.filter((x) => x.name !== 'list_dialogs')) assert.ok(t.inputSchema.properties?.dname, `${t.name} takes dname`);
    const { name } = await freshDialog([note('list0001', 'Listed.')]);
    assert.ok(text(await call(a, 'list_dialogs', {})).includes(`{'name': '${dname(name)}', 'open': True}`));
  });

  it('add_msg while the user has an unsaved edit: both kept, nothing written to disk, one Undo removes the note', async () => {
    // Auto save (the browser's default, after 1 s) would write the edit on a loaded machine before the check.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      const { name, nb } = await freshDialog([note('user0001', 'Mine.'), note('tail0001', 'Tail.')]);
      const onDisk = await readText(name);
      await setCellText(cellOf(nb, 'user0001'), 'Mine, edited and not saved.');
      const r = await call(a, 'add_msg', { dname: name, content: 'Summary from the agent.', id: 'tail0001' });
      assert.ok(!r.isError, text(r));
      const id = text(r);
      assert.match(id, /^[0-9a-f]{8}$/);
      assert.equal(cellOf(nb, id).document.getText(), 'Summary from the agent.');
      assert.equal(cellOf(nb, 'user0001').document.getText(), 'Mine, edited and not saved.');
      assert.equal(nb.cellCount, 3);
      assert.ok(nb.isDirty);
      assert.equal(await readText(name), onDisk, 'the file is untouched');
      await showDialog(nb);
      await vscode.commands.executeCommand('notebook.cell.quitEdit');
      await vscode.commands.executeCommand('undo');
      await until(() => nb.cellCount === 2, 'the note undone');
      assert.equal(cellOf(nb, 'user0001').document.getText(), 'Mine, edited and not saved.');
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a dialog that is not open is opened beside, without the focus, and read; an unknown one is an error naming the open ones', async () => {
    const { nb } = await freshDialog([note('here0001', 'Active.')]);
    const other = 'scratch/agents/closed.ipynb';
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, other), new TextEncoder().encode(writeIpynb(new Dialog([note('shut0001', 'Closed before.'), new Message({ id: 'shut0002', msgType: 'prompt', content: 'A question.' })]))));
    const view = text(await call(a, 'view_dlg', { dname: dname(other) }));
    assert.match(view, /<markdown id="shut0001">Closed before\.<\/markdown>/);
    assert.equal(vscode.window.activeNotebookEditor?.notebook.uri.toString(), nb.uri.toString(), 'focus stayed');
    const bad = await call(a, 'view_dlg', { dname: 'nowhere/none' });
    assert.ok(bad.isError);
    assert.match(text(bad), /No dialog nowhere\/none\.ipynb/);
  });

  it('an image output comes back as image content, not base64 text; a 500 kB output is cut, saying how to read the rest', async () => {
    const big = 'line of output\n'.repeat(35000); // 525 kB
    const img = new Message({ id: 'imag0001', msgType: 'code', content: 'plot()', output: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': PNG, 'text/plain': '<Figure>' } }] });
    const long = new Message({ id: 'long0001', msgType: 'code', content: 'dump()', output: [{ output_type: 'stream', name: 'stdout', text: big }] });
    const { name } = await freshDialog([img, long]);
    const r = await call(a, 'view_msg', { dname: name, id: 'imag0001', incl_out: true });
    const image = r.content.find((p) => p.type === 'image');
    assert.equal(image?.mimeType, 'image/png');
    assert.equal(image?.data, PNG);
    assert.ok(!text(r).includes(PNG), 'no base64 in the text');
    const cut = text(await call(a, 'view_msg', { dname: name, id: 'long0001', incl_out: true, trunc_out: false }));
    assert.ok(cut.length <= 20000 * 4 + 400, `cut to the limit (${cut.length})`);
    assert.match(cut, /\[… cut: [\d,]+ more characters \([\d,]+ lines\) over the 20,000-token result limit\. To read the rest, /);
  });

  it('python runs in the real kernel, with progress while it runs; at the time limit it stops with what came so far; an image value is image content; denied, the agent reads so', async function () {
    skipWithoutKernel(this);
    await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
    const { name } = await freshDialog([note('py000001', 'Compute.')]);
    // VS Code under test refuses modals: the confirmation (default: ask before python) is denied.
    const denied = await call(a, 'python', { dname: name, code: 'print(1)' });
    assert.ok(denied.isError);
    assert.equal(text(denied), 'denied by the user');
    await settings().update('tools.confirm', 'never', vscode.ConfigurationTarget.Global);
    assert.equal(text(await call(a, 'python', { dname: name, code: 'print(6*7)' })), '42\n');
    const progress: number[] = [];
    const slow = await call(a, 'python', { dname: name, code: 'import time\ntime.sleep(5)\nprint("slept")' }, (p) => progress.push(p.progress));
    assert.equal(text(slow), 'slept\n');
    assert.ok(progress.length >= 1, 'progress while it ran');
    await settings().update('mcp.pythonTimeLimit', 3, vscode.ConfigurationTarget.Global);
    const t0 = Date.now();
    const stopped = await call(a, 'python', { dname: name, code: 'import time\nprint("before", flush=True)\nwhile True: time.sleep(0.1)' });
    assert.ok(Date.now() - t0 < 30000, 'returned soon after the limit');
    assert.ok(stopped.isError);
    assert.match(text(stopped), /^before\nKeyboardInterrupt\n\[Stopped at the time limit of 3 s/);
    // The kernel is free again; an image-like last value comes back as an image.
    assert.equal(text(await call(a, 'python', { dname: name, code: '"free"' })), "'free'");
    const code = `import base64\nclass Img:\n    def _repr_png_(self): return base64.b64decode('${PNG}')\nImg()`;
    const img = await call(a, 'python', { dname: name, code });
    assert.deepEqual(img.content.find((p) => p.type === 'image'), { type: 'image', data: PNG, mimeType: 'image/png' });
  });

  it('refuses a request without the token (401), from a web page (Origin: 403) and for another host (421)', async () => {
    const { url, token } = await serverInfo();
    const port = new URL(url).port;
    assert.equal(await raw(url, {}), 401);
    assert.equal(await raw(url, { authorization: 'Bearer wrong' }), 401);
    assert.equal(await raw(url, { authorization: `Bearer ${token}`, origin: 'https://evil.example' }), 403);
    assert.equal(await raw(url, { authorization: `Bearer ${token}`, host: `evil.example:${port}` }), 421);
    assert.equal(await raw(url, { authorization: `Bearer ${token}` }), 200, 'the same request with the token alone is served');
  });

  it("a port another window's server holds: this window serves on the next one, and both answer", async () => {
    // "Another window": a second agents server in this extension host, on the port this window is set to.
    const { AgentServer } = await import('../../src/extension/mcp/server');
    const other = await AgentServer.start(0, { token: 'other-window', kernels: () => undefined, version: 'test' });
    try {
      await vscode.commands.executeCommand('dialogNotebook.stopAgentServer');
      await settings().update('mcp.port', other.port, vscode.ConfigurationTarget.Global);
      const { url } = await serverInfo();
      assert.notEqual(Number(new URL(url).port), other.port);
      assert.equal(await raw(other.url, { authorization: 'Bearer other-window' }), 200, 'the other window still serves its port');
      const c = await agent('after-move');
      assert.ok((await c.listTools()).tools.length > 0);
      await c.close();
    } finally {
      await other.close();
      await settings().update('mcp.port', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('dialogNotebook.stopAgentServer');
    }
  });

  it('two agents at once: both connected, all their notes land, each with its own id', async () => {
    await reconnect();
    const b = await agent('second-agent');
    try {
      const { name, nb } = await freshDialog([note('both0001', 'Start.')]);
      const results = await Promise.all([
        ...[1, 2, 3].map((k) => call(a, 'add_msg', { dname: name, content: `A${k}`, placement: 'at_end' })),
        ...[1, 2, 3].map((k) => call(b, 'add_msg', { dname: name, content: `B${k}`, placement: 'at_end' })),
      ]);
      assert.ok(results.every((r) => !r.isError));
      await until(() => nb.cellCount === 7, 'six notes');
      const texts = nb.getCells().map((c) => c.document.getText());
      for (const t of ['A1', 'A2', 'A3', 'B1', 'B2', 'B3']) assert.ok(texts.includes(t), t);
      assert.equal(new Set(results.map(text)).size, 6);
    } finally {
      await b.close();
    }
  });
});
