// Message search across the workspace in the real VS Code (issue 53): the index built from the workspace's
// dialogs, a hit in a reply opening that reply, unsaved edits found, deleted files gone, broken files
// skipped and counted, and search_dialogs through the doors.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { sep } from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Dialog, Message, replyUsage, writeIpynb } from '../../src/core';
import { activate, cellOf, closeAll, execute, freshDialog, openDialog, replyText, setCellText, until, useMockProviders, wsUri } from './helpers';

interface Hit {
  file: string;
  id: string;
  kind: string;
  snippet: string;
  score: number;
}

interface IndexInfo {
  engine?: string;
  file?: string;
  damaged?: string;
  total: number;
  building?: boolean;
}

const query = async (q: string, opts: object = {}): Promise<Hit[]> => (await vscode.commands.executeCommand<Hit[]>('dialogNotebook.search.query', q, opts)) ?? [];
const write = (name: string, text: string) => vscode.workspace.fs.writeFile(wsUri(name), new TextEncoder().encode(text));

describe('Search All Dialogs', function () {
  this.timeout(120000);
  const name = 'scratch/search/remembered.ipynb';
  const d = new Dialog([
    new Message({ id: 'aaaa0001', msgType: 'note', content: '# Data wrangling' }),
    new Message({ id: 'aaaa0002', msgType: 'prompt', content: 'How do I reshape a wide frame?', output: 'Use the quokkamelt trick: zanzibar marmalade pivoting, then stack the columns.' }),
    new Message({ id: 'aaaa0003', msgType: 'code', content: 'df.quokkamelt()', output: [{ output_type: 'stream', name: 'stdout', text: 'tangerine printed\n' }] }),
  ]);

  before(async () => {
    await activate();
    await write(name, writeIpynb(d));
  });
  after(closeAll);

  it('finds the corpus: a phrase of a public dialog, labelled by kind', async () => {
    const hits = await until(async () => {
      const h = await query('solveit', { limit: 50 });
      return h.length ? h : undefined;
    }, 'hits for "solveit"') as Hit[];
    assert.ok(hits.every((h) => typeof h.file === 'string' && typeof h.id === 'string' && typeof h.score === 'number'));
    assert.ok(hits.some((h) => h.snippet.toLowerCase().includes('**solveit**')), JSON.stringify(hits[0]));
  });

  it('a hit in a reply opens the dialog at that reply, selected', async () => {
    const hits = await until(async () => {
      const h = await query('zanzibar marmalade');
      return h.length ? h : undefined;
    }, 'the new dialog indexed by the file watcher') as Hit[];
    assert.deepEqual(hits.map((h) => [h.file, h.id, h.kind]), [[name, 'aaaa0002', 'reply']]);
    assert.equal((await query('quokkamelt kind:code'))[0]?.id, 'aaaa0003');
    assert.equal((await query('tangerine'))[0]?.kind, 'output');
    await vscode.commands.executeCommand('dialogNotebook.search.openHit', hits[0]);
    const ed = await until(() => vscode.window.activeNotebookEditor?.notebook.uri.path.endsWith(name) && vscode.window.activeNotebookEditor, 'the dialog shown') as vscode.NotebookEditor;
    assert.equal(ed.notebook.notebookType, 'dialog-notebook');
    await until(() => ed.selections[0]?.start === 1, 'the reply\'s message selected');
  });

  it('search_dialogs for VS Code\'s agents and over MCP: hits with the dname read_msg takes', async () => {
    await until(async () => (await query('zanzibar')).length > 0, 'the dialog indexed');
    const r = await vscode.lm.invokeTool('dialog_search_dialogs', { input: { query: 'zanzibar marmalade', kind: 'reply' }, toolInvocationToken: undefined });
    const lm = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(lm, /'dname': 'scratch\/search\/remembered', 'id': 'aaaa0002', 'kind': 'reply', 'snippet': '[^']*\*\*zanzibar\*\* \*\*marmalade\*\*/);
    const { url, token } = await vscode.commands.executeCommand<{ url: string; token: string }>('dialogNotebook.mcp.serverInfo');
    const client = new Client({ name: 'e2e-search', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'search_dialogs'));
      const res = (await client.callTool({ name: 'search_dialogs', arguments: { query: 'quokkamelt', kind: 'code' } })) as { content: { type: string; text?: string }[]; isError?: boolean };
      assert.ok(!res.isError);
      assert.match(res.content[0].text ?? '', /'id': 'aaaa0003', 'kind': 'code'/);
    } finally {
      await client.close();
      await vscode.commands.executeCommand('dialogNotebook.stopAgentServer');
    }
  });

  it('finds an unsaved edit as it is now', async () => {
    const nb = await openDialog(name);
    await setCellText(cellOf(nb, 'aaaa0001'), '# Data wrangling with xylophonic bananas');
    assert.ok(nb.isDirty);
    await until(async () => (await query('xylophonic')).some((h) => h.id === 'aaaa0001' && h.kind === 'note'), 'the unsaved edit found');
    await setCellText(cellOf(nb, 'aaaa0001'), '# Data wrangling with gooseberry');
    await until(async () => (await query('xylophonic')).length === 0 && (await query('gooseberry')).length === 1, 'the next unsaved edit replacing it');
    await closeAll();
  });

  it('skips and counts a broken dialog; forgets a deleted one', async () => {
    const broken = 'scratch/search/broken.ipynb';
    await write(broken, writeIpynb(d).slice(0, 200));
    const skipped = await until(async () => {
      const s = await vscode.commands.executeCommand<{ file: string; reason: string }[]>('dialogNotebook.search.skipped');
      return s.find((x) => x.file === broken);
    }, 'the broken file counted') as { file: string; reason: string };
    assert.ok(skipped.reason.length > 0);
    await vscode.workspace.fs.delete(wsUri(name));
    await until(async () => (await query('zanzibar')).length === 0, 'the deleted dialog gone from the hits');
  });

  it('keeps its index on disk in the extension\'s storage, not the workspace: found again by a new session, rebuilt when damaged', async () => {
    await write(name, writeIpynb(d));
    await until(async () => (await query('zanzibar')).length > 0, 'the dialog indexed');
    // The first build may still be reading the workspace (a batch is a few files): closing would stop it,
    // and the next session go on with what it had not read.
    await until(async () => !(await vscode.commands.executeCommand<IndexInfo>('dialogNotebook.search.indexInfo'))!.building, 'the first build finished');
    const info = (await vscode.commands.executeCommand<IndexInfo>('dialogNotebook.search.indexInfo'))!;
    // code-server's Node 24 has node:sqlite with FTS5.
    assert.match(info.engine ?? '', /^node:sqlite 3\./);
    const file = info.file!;
    assert.ok(existsSync(file), file);
    for (const f of vscode.workspace.workspaceFolders ?? []) assert.ok(!file.startsWith(f.uri.fsPath + sep), `${file} is in the workspace`);
    // Closed and opened again, as a new window does: nothing read again, the same hits. A first round
    // takes in what earlier suites changed meanwhile (a file event or a closed dialog's re-index that
    // came after the close, on a loaded machine); the second must read nothing.
    await vscode.commands.executeCommand('dialogNotebook.search.closeIndex');
    await vscode.commands.executeCommand('dialogNotebook.search.reopenIndex');
    await vscode.commands.executeCommand('dialogNotebook.search.closeIndex');
    const again = (await vscode.commands.executeCommand<IndexInfo>('dialogNotebook.search.reopenIndex'))!;
    assert.equal(again.damaged, undefined);
    assert.equal(again.total, 0, 'no dialog read again');
    assert.deepEqual((await query('zanzibar marmalade')).map((h) => h.id), ['aaaa0002']);
    // Damaged while closed: replaced by a new index, the workspace read into it again, the hit found.
    await vscode.commands.executeCommand('dialogNotebook.search.closeIndex');
    writeFileSync(file, Buffer.alloc(64 * 1024, 7));
    for (const f of [`${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    const rebuilt = (await vscode.commands.executeCommand<IndexInfo>('dialogNotebook.search.reopenIndex'))!;
    assert.match(rebuilt.damaged ?? '', /not a database/i);
    assert.ok(rebuilt.total > 1, `${rebuilt.total} dialogs read again`);
    assert.deepEqual((await query('zanzibar marmalade')).map((h) => h.id), ['aaaa0002']);
  });
});

describe('search_dialogs for the assistant (mock model)', function () {
  this.timeout(300000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });
  after(closeAll);

  it('a prompt naming &`search_dialogs` gets the tool; the model reads the earlier reply\'s hit and quotes it', async () => {
    await write('scratch/search/earlier.ipynb', writeIpynb(new Dialog([new Message({ id: 'cccc0001', msgType: 'prompt', content: 'How to dedupe?', output: 'Use the frobnicate unique_everseen recipe.' })])));
    await until(async () => (await query('frobnicate')).length > 0, 'the earlier dialog indexed');
    const { nb } = await freshDialog('search', [new Message({ id: 'ask00001', msgType: 'prompt', content: 'How did I solve this before? Use &`search_dialogs`.' })]);
    ant.enqueue({ text: [], toolUse: { id: 'toolu_s', name: 'search_dialogs', input: { query: 'frobnicate recipe' } } }, { text: ['You used unique_everseen.'] });
    const sent = ant.requests.length;
    await execute(nb, 'ask00001');
    await until(() => replyUsage(replyText(cellOf(nb, 'ask00001'))) !== null, 'the final reply', 120000);
    const [ask, again] = ant.requests.slice(sent).map((r) => r.body as { tools: { name: string }[]; messages: { content: unknown }[] });
    assert.deepEqual(ask.tools.map((t) => t.name), ['search_dialogs']);
    const last = again.messages[again.messages.length - 1].content as { type: string; content: unknown }[];
    const result = JSON.stringify(last.filter((p) => p.type === 'tool_result').map((p) => p.content));
    assert.match(result, /'dname': 'scratch\/search\/earlier', 'id': 'cccc0001', 'kind': 'reply', 'snippet': '[^']*\*\*frobnicate\*\*/);
    assert.match(replyText(cellOf(nb, 'ask00001')), /unique_everseen/);
  });
});
