// The search engine: SQLite in WebAssembly, its sqlite3.wasm shipped in dist/ and read through
// workspace.fs, so the desktop and the browser build load it the same way.

import * as vscode from 'vscode';
import { loadSqlite, openWasmSqlite, WasmSqlite } from '../../node/wasmSqlite';

export async function loadSearchEngine(extensionUri: vscode.Uri): Promise<{ open(bytes?: Uint8Array): WasmSqlite }> {
  const wasm = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'dist', 'sqlite3.wasm'));
  const sqlite3 = await loadSqlite(wasm);
  return { open: (bytes) => openWasmSqlite(sqlite3, bytes) };
}
