// Where the web pass runs: the extension (and this suite) in the browser's web-worker extension host,
// from the package's `browser` entry, on the browser platform; the Node pass never runs this suite.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { platform } from '../../src/extension/platform';
import { EXTENSION_ID, activate } from '../extension/helpers';

describe('web: the extension in the web-worker extension host', () => {
  it('runs without Node, from the browser entry, on the browser platform', async () => {
    await activate();
    assert.equal(typeof (globalThis as { process?: unknown }).process, 'undefined', 'no Node process object here');
    assert.equal(typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope, 'function', 'a web worker');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.equal(ext.isActive, true);
    assert.equal(ext.extensionKind, vscode.ExtensionKind.UI, 'the browser side, not the remote (Node) host');
    assert.equal(ext.packageJSON.browser, './dist/extension.web.js');
    assert.equal(platform().kind, 'browser');
    assert.equal(platform().startLocalServer, undefined);
  });
});
