// When a change shows in an open notebook: the time a probe first holds, checked now and after each of the
// notebook's change events (the outside-change and many-hands benches).
import * as vscode from 'vscode';

export function whenShown(nb: vscode.NotebookDocument, probe: () => boolean, timeoutMs = 60_000): Promise<number> {
  if (probe()) return Promise.resolve(performance.now());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error('timed out waiting for the change'))), timeoutMs);
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook !== nb || !probe()) return;
      sub.dispose();
      clearTimeout(timer);
      resolve(performance.now());
    });
  });
}
