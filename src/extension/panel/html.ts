// The panel's HTML shell: a strict CSP (no inline script, only the nonce'd bundle; styles, fonts and
// images from the extension or data: URIs), theme colours through CSS variables, icons from the
// codicon font. Dialog content never appears here: the script renders it as text.

import * as vscode from 'vscode';

/** Where the codicon font and its stylesheet are served from (the @vscode/codicons package). */
export function codiconsRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'node_modules', '@vscode', 'codicons', 'dist');
}

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string): string {
  const js = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const css = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css'));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(codiconsRoot(extensionUri), 'codicon.css'));
  const src = webview.cspSource;
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${src}; img-src ${src} data:; font-src ${src}; base-uri 'none'; form-action 'none'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons}">
<link rel="stylesheet" href="${css}">
<title>Dialog</title>
</head>
<body>
<div id="app" role="application"></div>
<script nonce="${nonce}" src="${js}"></script>
</body>
</html>`;
}
