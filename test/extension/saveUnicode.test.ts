// Text that UTF-8 bytes cannot carry or that a decoder drops: a lone surrogate (a `\ud83d` escape in the
// file) in a cell's source or a reply, and a reply that starts with U+FEFF (a UTF-8 decoder takes it for a
// byte-order mark). A reply reaches VS Code as output bytes, so these are where bytes could change; an
// edit of another cell must save them as written.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readIpynb } from '../../src/core/ipynb';
import { aiRes } from '../../src/core/model';
import { closeAll, openDialog, save, setCellText, writeText, wsUri } from './helpers';

const SEP = '##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->';
const NOTE = 'lone \ud83d high and \udc00 low';
const REQUEST = 'ask \udfff';
const REPLY = '\ufeffBOM first, then a lone \ud83d';

function dialogText(): string {
  const cell = (id: string, source: string, meta = {}) =>
    JSON.stringify({ cell_type: 'markdown', id, metadata: meta, source: [source] }, null, 1).replace(/\n/g, '\n  ');
  const cells = [cell('aa000001', NOTE), cell('aa000002', `${REQUEST}\n\n${SEP}\n\n${REPLY}`, { solveit_ai: true }), cell('aa000003', 'edit me')];
  return `{\n "cells": [\n  ${cells.join(',\n  ')}\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n`;
}

async function bytesOf(name: string): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await vscode.workspace.fs.readFile(wsUri(name)));
}

describe('saving text UTF-8 cannot carry', function () {
  this.timeout(60000);
  afterEach(closeAll);

  it('lone surrogates in a source and a reply, and a reply starting with U+FEFF, survive an edit of another cell', async () => {
    const name = 'scratch/unicode-kept.ipynb';
    const text = dialogText();
    assert.ok(text.includes('\\ud83d'), 'the file holds the escape, as Python writes it');
    await writeText(name, text);
    const nb = await openDialog(name);
    await setCellText(nb.cellAt(2), 'edited');
    assert.ok(await save(nb), 'saved');
    const after = await bytesOf(name);
    const d = readIpynb(after);
    assert.equal(d.messages[0].content, NOTE);
    assert.equal(d.messages[1].content, REQUEST);
    assert.equal(aiRes(d.messages[1]), REPLY);
    assert.equal(d.messages[2].content, 'edited');
    // The unedited cells are their original bytes.
    const [first, second] = text.split('"id": "aa000003"')[0].split('"id": "aa000002"');
    assert.ok(after.startsWith(first.slice(0, first.lastIndexOf('{'))), 'the first cell as written');
    assert.ok(after.includes(second.slice(0, second.lastIndexOf('{'))), 'the prompt cell as written');
  });
});
