// Code in a dialog works on it as in Solveit (issue 45), in the real VS Code with a real kernel: cells
// import a `dialoghelper` that sends what 0.2.41 sends (dialoghelperClient.ts) and it reaches the open
// dialog through our routes: curr_dialog, add_msg right after the running cell, update_msg, read_msg,
// find_msgs (also only_chg, against a real git HEAD), msg_idx, del_msgs, the toggles, a dialog that is not open (opened beside), one that does not
// exist, a browser-only route, and requests from a web page or to a wrong address (refused). Saved,
// the file holds exactly those changes.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { Dialog, Message, readIpynb, writeIpynb } from '../../src/core';
import { cellOf, closeAll, execute, freshDialog, openDialog, readText, save, skipWithoutKernel, until, writeText, wsUri } from './helpers';
import { DIALOGHELPER_CORE, DIALOGHELPER_INIT } from './dialoghelperClient';

const settings = () => vscode.workspace.getConfiguration('dialogNotebook');
const STDOUT = 'application/vnd.code.notebook.stdout';
const ERROR = 'application/vnd.code.notebook.error';
const code = (id: string, content: string) => new Message({ id, msgType: 'code', content });
const note = (id: string, content: string) => new Message({ id, msgType: 'note', content });
const ids = (nb: vscode.NotebookDocument) => nb.getCells().map((c) => (c.metadata.dialog as { id?: string } | undefined)?.id ?? '?');
const items = (nb: vscode.NotebookDocument, id: string, mime: string) =>
  cellOf(nb, id)
    .outputs.flatMap((o) => o.items)
    .filter((i) => i.mime === mime)
    .map((i) => new TextDecoder().decode(i.data))
    .join('');

/** Runs a cell and gives what it printed; fails with the cell's error, if it raised. */
async function run(nb: vscode.NotebookDocument, id: string): Promise<string> {
  await execute(nb, id);
  await until(() => cellOf(nb, id).executionSummary?.timing?.endTime, `the end of ${id}`, 120000);
  const err = items(nb, id, ERROR);
  assert.equal(err, '', `${id} raised`);
  return items(nb, id, STDOUT);
}

describe('dialoghelper in the kernel reaches the open dialog', function () {
  this.timeout(300000);
  before(async function () {
    skipWithoutKernel(this);
    await settings().update('jupyter.serverUrl', undefined, vscode.ConfigurationTarget.Global);
    // The stand-in package beside the dialogs: the kernel's working directory is on its sys.path.
    await writeText('scratch/dialoghelper/dialoghelper/__init__.py', DIALOGHELPER_INIT);
    await writeText('scratch/dialoghelper/dialoghelper/core.py', DIALOGHELPER_CORE);
    await writeText('scratch/dialoghelper/other.ipynb', writeIpynb(new Dialog([note('othr0001', 'The other dialog.'), new Message({ id: 'othr0003', msgType: 'prompt', content: 'A prompt.' })])));
  });
  after(closeAll);

  it('curr_dialog, add_msg after the running cell, update_msg, read_msg, find_msgs, msg_idx, del_msgs; saved exactly', async () => {
    const { name, nb } = await freshDialog('dialoghelper', [
      note('head0001', '# Work'),
      code('imp00001', 'from dialoghelper import *\nimport os\nprint(await curr_dialog())\nprint(os.environ["__DIALOG_NAME"] == __dialog_name)'),
      code('add00001', "nid = await add_msg('Added by code')\nprint(nid)"),
      code('upd00001', "print(await update_msg(id=nid, content='Updated by code', pinned=True))"),
      code('read0001', "print((await read_msg(n=-1))['id'], (await read_msg(n=0, relative=False))['content'])"),
      code('find0001', "print([m['id'] for m in await find_msgs('Updated by', msg_type='note', context=0)], await msg_idx())"),
      note('gone0001', 'To delete.'),
      code('del00001', "print(await del_msgs(ids='gone0001'))"),
      note('tail0001', 'The end.'),
    ]);
    assert.ok(await save(nb));
    const before = readIpynb(await readText(name));
    const stem = name.replace(/\.ipynb$/, '');

    assert.match(await run(nb, 'imp00001'), new RegExp(`^\\{'name': '${stem}', 'mode': '\\w+'\\}\nTrue\n$`));
    const added = (await run(nb, 'add00001')).trim();
    assert.match(added, /^[0-9a-f]{8}$/);
    assert.deepEqual(ids(nb).slice(0, 4), ['head0001', 'imp00001', 'add00001', added], 'the note lands right after the running cell');
    assert.equal(cellOf(nb, added).document.getText(), 'Added by code');
    assert.equal((await run(nb, 'upd00001')).trim(), added);
    assert.equal(cellOf(nb, added).document.getText(), 'Updated by code');
    // read_msg(n=-1) is relative to the running cell: the one above it.
    assert.equal((await run(nb, 'read0001')).trim(), 'upd00001 # Work');
    const idx = ids(nb).indexOf('find0001');
    assert.equal((await run(nb, 'find0001')).trim(), `['${added}'] ${idx}`);
    assert.equal((await run(nb, 'del00001')).trim(), "[{'success': 'complete', 'deleted': ['gone0001']}]");
    assert.ok(!ids(nb).includes('gone0001'));

    // Saved: exactly those changes (outputs of the cells run aside).
    assert.ok(await save(nb));
    const after = readIpynb(await readText(name));
    assert.deepEqual(after.messages.map((m) => m.id), before.messages.map((m) => m.id).filter((i) => i !== 'gone0001').flatMap((i) => (i === 'add00001' ? [i, added] : [i])));
    const a = after.messages.find((m) => m.id === added)!;
    assert.equal(a.content, 'Updated by code');
    assert.equal(a.msgType, 'note');
    assert.equal(a.pinned, true);
    const shape = (m: Message) => JSON.stringify([m.msgType, m.content, m.meta, m.pinned, m.skipped]);
    for (const m of before.messages.filter((x) => x.msgType !== 'code' && x.id !== 'gone0001')) assert.equal(shape(after.messages.find((x) => x.id === m.id)!), shape(m), `${m.id} unchanged`);
    for (const m of before.messages.filter((x) => x.msgType === 'code')) assert.equal(after.messages.find((x) => x.id === m.id)!.content, m.content, `${m.id} source unchanged`);
  });

  it('find_msgs(only_chg=True): the messages edited or added since git HEAD, unsaved edits included', async () => {
    // A git repository in the e2e workspace's copy (never a tracked file): the dialog committed, then changed.
    const folder = 'scratch/dialoghelper';
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', ...args], { cwd: wsUri(folder).fsPath });
    const name = `${folder}/changed.ipynb`;
    const committed = [note('chg00001', '# Committed'), note('chg00002', 'Will be edited.'), code('chg00003', 'x = 1'), note('chg00004', 'Will be deleted.'), note('chg00005', 'Stays.')];
    await writeText(name, writeIpynb(new Dialog(committed)));
    git('init', '-q');
    git('add', 'changed.ipynb');
    git('commit', '-qm', 'the dialog at HEAD');
    // Saved since: one message deleted, the asking cell added.
    const ask = code(
      'ask00001',
      "from dialoghelper import *\nnid = await add_msg('Added by code')\nprint(sorted(m['id'] for m in await find_msgs(only_chg=True, context=0)), nid)\nprint(len(await find_msgs(only_chg=True, context=0, dname='untracked')))",
    );
    await writeText(name, writeIpynb(new Dialog([...committed.filter((m) => m.id !== 'chg00004'), ask])));
    await writeText(`${folder}/untracked.ipynb`, writeIpynb(new Dialog([note('unt00001', 'One.'), new Message({ id: 'unt00002', msgType: 'prompt', content: 'Two?' })])));
    const nb = await openDialog(name);
    await vscode.window.showNotebookDocument(nb);
    // Not saved: one message edited in the editor.
    const doc = cellOf(nb, 'chg00002').document;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), 'Edited, not saved.');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const [found, untracked] = (await run(nb, 'ask00001')).trim().split('\n');
    const added = ids(nb)[ids(nb).indexOf('ask00001') + 1];
    assert.equal(found, `${JSON.stringify(['ask00001', added, 'chg00002'].sort()).replace(/"/g, "'").replace(/,/g, ', ')} ${added}`);
    assert.equal(untracked, '2', 'a dialog not committed yet: every message counts as changed');
  });

  it('toggle_comment, toggle_bookmark, copy/cut/paste_msgs, list_dialogs, run_msg; saved exactly', async () => {
    const { name, nb } = await freshDialog('dialoghelper', [
      note('head0001', '# Top'),
      code('cmt00001', 'x = 1\n# y'),
      note('mark0001', 'Marked.'),
      code('flag0001', "from dialoghelper import *\nprint(await toggle_comment('cmt00001'))\nprint(await toggle_bookmark('cmt00001', 3))\nprint(await toggle_bookmark('mark0001', 3))"),
      note('copy0001', 'Copied.'),
      note('cut00001', 'Cut.'),
      code('clip0001', "print(await copy_msgs('copy0001'))\nprint(await paste_msgs('mark0001'))\nprint(await copy_msgs('cut00001', cut=True))\nprint(await paste_msgs('head0001', after=False))"),
      code('list0001', "print(await list_dialogs())\nprint(await run_msg(ids='runm0001'))"),
      code('runm0001', 'print(41 + 1)'),
    ]);
    assert.ok(await save(nb));
    const before = readIpynb(await readText(name));
    assert.equal(await run(nb, 'flag0001'), "{'success': 'complete'}\n{'success': True, 'id': 'cmt00001'}\n{'success': True, 'id': 'mark0001'}\n");
    assert.equal(cellOf(nb, 'cmt00001').document.getText(), '# x = 1\n# # y');
    assert.equal(await run(nb, 'clip0001'), "{'success': 'complete'}\n".repeat(4));
    const now = ids(nb);
    assert.ok(!now.includes('cut00001'), 'cut');
    const [cutCopy, , , , pasted] = [now[0], now[1], now[2], now[3], now[4]];
    assert.deepEqual(now.slice(1, 4), ['head0001', 'cmt00001', 'mark0001'], 'the cut message pasted before head0001, the copy after mark0001');
    assert.equal(cellOf(nb, cutCopy).document.getText(), 'Cut.');
    assert.equal(cellOf(nb, pasted).document.getText(), 'Copied.');
    const listed = await run(nb, 'list0001');
    assert.match(listed, /'other'/, listed);
    assert.match(listed, /\{'success': 'queued', 'ids': \['runm0001'\]\}/);
    await until(() => items(nb, 'runm0001', STDOUT) === '42\n', 'runm0001 run by run_msg', 120000);

    assert.ok(await save(nb));
    const after = readIpynb(await readText(name));
    assert.deepEqual(after.messages.map((m) => m.id), ids(nb));
    const byId = (id: string) => after.messages.find((m) => m.id === id)!;
    assert.equal(byId('cmt00001').content, '# x = 1\n# # y');
    assert.equal(byId('cmt00001').meta.bookmark, undefined, 'bookmark 3 moved away');
    assert.equal(byId('mark0001').meta.bookmark, 3);
    const shape = (m: Message) => JSON.stringify([m.msgType, m.content, m.meta, m.pinned, m.skipped]);
    assert.equal(shape(byId(pasted)), shape(before.messages.find((m) => m.id === 'copy0001')!));
    assert.equal(shape(byId(cutCopy)), shape(before.messages.find((m) => m.id === 'cut00001')!));
    for (const m of before.messages.filter((x) => !['cmt00001', 'mark0001', 'cut00001'].includes(x.id))) {
      if (m.msgType === 'code') assert.equal(byId(m.id).content, m.content, `${m.id} source unchanged`);
      else assert.equal(shape(byId(m.id)), shape(m), `${m.id} unchanged`);
    }
  });

  it('another dialog by name opens beside; an unknown one, a browser route and a foreign Origin are refused clearly', async () => {
    const { nb } = await freshDialog('dialoghelper', [
      // Opening the other dialog beside can take longer than dialoghelper's 10 s on a loaded machine: the client waits longer.
      code('othr0002', "from dialoghelper import *\nprint(await add_msg('From the first dialog', dname='other', timeout=120))"),
      note('hdr00001', '## A section'),
      code('exp00001', 'x = 1'),
      code(
        'tgl00001',
        "print(await call_endpa('toggle_export_', ids='exp00001', json=True))\nprint(call_endp('toggle_header_collapse_', id='hdr00001'))\ntry: await update_msg(id='tgl00001', content='gone')\nexcept DialogAPIError as e: print('refused:', e)",
      ),
      code('nope0001', "try: await add_msg('x', dname='nope')\nexcept DialogAPIError as e: print('refused:', e)"),
      code('html0001', "try: pop_data('abc')\nexcept DialogAPIError as e: print('refused:', e)\nprint(call_endp('add_html_', content='<b>hi</b>'))"),
      code(
        'orig0001',
        [
          'import urllib.request, urllib.error',
          "url = f'http://localhost:{dh_settings[\"port\"]}/curr_dialog_'",
          "for h in ({'Origin': 'https://evil.example'}, {'Host': 'evil.example'}):",
          '    try: urllib.request.urlopen(urllib.request.Request(url, data=b"dlg_name=x", headers=h, method="POST"))',
          "    except urllib.error.HTTPError as e: print(e.code, e.read().decode())",
          "port = str(dh_settings['port']).split('/')[0]",
          "try: urllib.request.urlopen(urllib.request.Request(f'http://localhost:{port}/guessed/curr_dialog_', data=b'', method='POST'))",
          'except urllib.error.HTTPError as e: print(e.code)',
        ].join('\n'),
      ),
    ]);
    const addedId = (await run(nb, 'othr0002')).trim();
    const other = (await until(() => vscode.workspace.notebookDocuments.find((d) => d.uri.path.endsWith('/scratch/dialoghelper/other.ipynb')), 'other.ipynb opened'))!;
    assert.equal(other.notebookType, 'dialog-notebook');
    assert.deepEqual(ids(other), ['othr0001', 'othr0003', addedId], "placement defaults to at_end in another dialog (dialoghelper's rule)");
    assert.equal(vscode.window.activeNotebookEditor?.notebook, nb, 'opened without the focus');
    assert.equal(
      await run(nb, 'tgl00001'),
      `{'success': 'complete', 'exported': True}\n{"success":"complete"}\nrefused: message tgl00001 is the cell running this code: VS Code cannot change a cell while it runs (the run would be lost); change it from another cell\n`,
    );
    const meta = (id: string) => (cellOf(nb, id).metadata.dialog as { meta?: Record<string, unknown> }).meta ?? {};
    assert.ok((meta('exp00001').nbdev as Record<string, unknown> | undefined)?.export, 'exported (nbdev metadata)');
    assert.equal(meta('hdr00001').heading_collapsed, true);
    assert.match(await run(nb, 'nope0001'), /^refused: No dialog scratch\/dialoghelper\/nope\.ipynb in the workspace/);
    const html = await run(nb, 'html0001');
    assert.match(html, /^refused: pop_data_blocking_ is Solveit's browser page; not available in VS Code\n/);
    assert.match(html, /add_html_ is Solveit's browser page; not available in VS Code/);
    const refusals = (await run(nb, 'orig0001')).trim().split('\n');
    assert.match(refusals[0], /^403 .*Origin/);
    assert.match(refusals[1], /^421 /);
    assert.equal(refusals[2], '404');
  });
});
