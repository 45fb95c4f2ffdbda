// Opening corpus dialogs in the real VS Code: kinds, counts, languages, replies, outputs and the dirty
// flag, checked against the Python reference's golden records (an independent oracle).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAll, copyOf, dialogState, golden, holdsFor, openDialog, replyText, until } from './helpers';
import { promptImages } from '../../src/extension/look/replyImages';

const KIND: Record<string, [vscode.NotebookCellKind, string]> = {
  note: [vscode.NotebookCellKind.Markup, 'markdown'],
  prompt: [vscode.NotebookCellKind.Code, 'dialog-prompt'],
  code: [vscode.NotebookCellKind.Code, 'python'],
  raw: [vscode.NotebookCellKind.Code, 'raw'],
};

const FILES = [
  'basic',
  'replies',
  'outputs',
  'media',
  'tools',
  'AnswerDotAI__solveit_demos__00_Welcome_To_Solveit',
  'AnswerDotAI__fastllm__03_acomplete',
];

describe('opening dialogs with vscode.openWith(uri, "dialog-notebook")', function () {
  this.timeout(60000);
  afterEach(closeAll);

  for (const stem of FILES) {
    it(`${stem}: one cell per message, with the kind, language, text and reply of its message`, async () => {
      const g = await golden(stem);
      const nb = await openDialog(`${stem}.ipynb`);
      assert.equal(nb.notebookType, 'dialog-notebook');
      assert.equal(nb.cellCount, g.read.n_messages);
      g.messages.forEach((m, i) => {
        const cell = nb.cellAt(i);
        const [kind, lang] = KIND[m.msg_type];
        assert.equal(cell.kind, kind, `cell ${i} kind`);
        assert.equal(cell.document.languageId, lang, `cell ${i} language`);
        assert.equal(cell.metadata.dialog?.id, m.id, `cell ${i} id`);
        // VS Code's cell editor normalises line ends; the exact text is kept aside (see save.test.ts).
        assert.equal(cell.document.getText(), m.content.replace(/\r\n?/g, '\n').replace(/\n/g, cell.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n'), `cell ${i} text`);
        if (m.msg_type === 'prompt') assert.equal(replyText(cell), m.ai_res, `cell ${i} reply`);
        if (m.msg_type === 'code') assert.equal(cell.outputs.length, (m.output as unknown[]).length, `cell ${i} outputs`);
        if (m.msg_type === 'note' || m.msg_type === 'raw') assert.equal(cell.outputs.length, 0);
      });
      assert.equal(nb.isDirty, false, 'opening never dirties the document');
      // Asynchronous listeners (id stamping) get their chance: none may dirty it.
      await holdsFor(() => !nb.isDirty, 'the dialog clean', 300);
    });
  }

  it('renders code outputs the way VS Code renders Jupyter outputs', async () => {
    const nb = await openDialog('outputs.ipynb');
    const mimes = nb.getCells().flatMap((c) => c.outputs.flatMap((o) => o.items.map((i) => i.mime)));
    for (const m of ['application/vnd.code.notebook.stdout', 'application/vnd.code.notebook.error', 'text/plain']) {
      assert.ok(mimes.includes(m), `an output item of type ${m}`);
    }
    const err = nb.cellAt(2).outputs.flatMap((o) => o.items).find((i) => i.mime === 'application/vnd.code.notebook.error')!;
    const parsed = JSON.parse(new TextDecoder().decode(err.data)) as { name: string; message: string };
    assert.equal(parsed.name, 'ZeroDivisionError');
  });

  it('gives images as bytes and replies as markdown items', async () => {
    const nb = await openDialog('media.ipynb');
    const png = nb.getCells().flatMap((c) => c.outputs.flatMap((o) => o.items)).find((i) => i.mime === 'image/png');
    assert.ok(png, 'a png output');
    assert.deepEqual([...png.data.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'decoded PNG bytes, not base64 text');
    const note = nb.cellAt(0);
    assert.ok(note.metadata.attachments, 'a note exposes its attachments to the markdown renderer');
  });

  it('sends the workbench no second copy of a cell: its file text stays in the extension host, attachment bytes go once', async () => {
    const nb = await openDialog('media.ipynb');
    for (const cell of nb.getCells()) {
      const meta = JSON.stringify(cell.metadata);
      const origin = (cell.metadata.dialogOrigin ?? {}) as Record<string, unknown>;
      assert.equal(typeof origin.file, 'string', `cell ${cell.index}: its read named in the transient bookkeeping`);
      assert.deepEqual([origin.text, origin.state], [undefined, undefined], `cell ${cell.index}: no origin text or state in metadata`);
      for (const b64 of Object.values((cell.metadata.attachments ?? {}) as Record<string, Record<string, string>>).flatMap(Object.values)) {
        assert.equal(meta.split(b64).length - 1, 1, `cell ${cell.index}: an attachment's base64 once in its metadata`);
      }
    }
    // What stays aside still writes the unedited cells byte for byte (save.test.ts checks files whole).
    assert.ok(nb.getCells().some((c) => c.metadata.attachments), 'the dialog has a note with attachments');
  });

  it("sends a prompt's images once too: its reply output names its thumbnails, the renderer asks for their bytes", async () => {
    const nb = await openDialog('.corpus/public/ExploringML__solveit-to-social-media__Demo.ipynb');
    const prompts = nb.getCells().filter((c) => c.document.languageId === 'dialog-prompt' && (c.metadata.dialog as { attachments?: unknown[] }).attachments?.length);
    assert.equal(prompts.length, 2, 'two prompts with pasted images');
    for (const prompt of prompts) {
      const md = prompt.outputs[0].metadata!;
      const names = md.thumbnails as string[];
      assert.equal(names.length, 1, `cell ${prompt.index}: its image named as a thumbnail`);
      assert.equal(md.attachments, undefined, `cell ${prompt.index}: no bytes in its reply output`);
      // What the renderer's request gets: the image of this prompt, as its metadata holds it.
      const images = promptImages(nb, md.cell as string, names);
      const b64 = Object.values(images[names[0]])[0];
      assert.ok(b64.length > 1000, `cell ${prompt.index}: the image's base64`);
      assert.equal(JSON.stringify(prompt.metadata).split(b64).length - 1, 1, `cell ${prompt.index}: the base64 once in its metadata`);
      assert.equal(md.sizes?.toString(), String(atob(b64).length), `cell ${prompt.index}: the image's size`);
    }
    assert.notDeepEqual(promptImages(nb, prompts[0].outputs[0].metadata!.cell as string, prompts[1].outputs[0].metadata!.thumbnails as string[]), promptImages(nb, prompts[1].outputs[0].metadata!.cell as string, prompts[1].outputs[0].metadata!.thumbnails as string[]), 'each prompt its own image');
  });

  it("a pasted copy of a prompt names itself in its reply output: its thumbnails outlive the original's deletion", async () => {
    const nb = await openDialog(await copyOf('.corpus/public/ExploringML__solveit-to-social-media__Demo.ipynb'));
    const prompt = nb.getCells().find((c) => c.document.languageId === 'dialog-prompt' && (c.metadata.dialog as { attachments?: unknown[] }).attachments?.length)!;
    const id = dialogState(prompt).id!;
    const names = prompt.outputs[0].metadata!.thumbnails as string[];
    // A paste as VS Code makes it: the cell's text, metadata (its id too) and outputs, as they are.
    const copy = new vscode.NotebookCellData(prompt.kind, prompt.document.getText(), prompt.document.languageId);
    copy.metadata = prompt.metadata;
    copy.outputs = prompt.outputs.map((o) => new vscode.NotebookCellOutput(o.items, o.metadata));
    const paste = new vscode.WorkspaceEdit();
    paste.set(nb.uri, [vscode.NotebookEdit.insertCells(prompt.index + 1, [copy])]);
    assert.ok(await vscode.workspace.applyEdit(paste));
    const pasted = nb.cellAt(prompt.index + 1);
    const own = await until(() => {
      const mine = dialogState(pasted).id;
      return mine && mine !== id && pasted.outputs[0]?.metadata?.cell === mine ? mine : '';
    }, "the copy's own id in its reply output");
    const remove = new vscode.WorkspaceEdit();
    remove.set(nb.uri, [vscode.NotebookEdit.deleteCells(new vscode.NotebookRange(prompt.index, prompt.index + 1))]);
    assert.ok(await vscode.workspace.applyEdit(remove));
    assert.deepEqual(Object.keys(promptImages(nb, own, names)), names, "the copy's images, found by its own id");
  });

  it('a file that cannot be read does not open as a dialog and is never written', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'edge_not_json.ipynb');
    const before = await vscode.workspace.fs.readFile(uri);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'dialog-notebook').then(undefined, () => undefined);
    const none = () => !vscode.workspace.notebookDocuments.some((d) => d.uri.toString() === uri.toString() && d.notebookType === 'dialog-notebook');
    await holdsFor(none, 'no dialog document for an unreadable file', 500);
    await vscode.commands.executeCommand('workbench.action.files.saveAll');
    assert.deepEqual(await vscode.workspace.fs.readFile(uri), before);
  });
});
