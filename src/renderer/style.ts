// The reply's look: that of VS Code's markdown cells, from the theme's CSS variables, so a reply reads
// like a note above it in every theme.

export const REPLY_CSS = `
.dialog-reply {
  font-family: var(--vscode-markdown-font-family, var(--vscode-font-family));
  font-size: var(--notebook-markdown-font-size, var(--vscode-font-size));
  color: var(--vscode-foreground);
  overflow-wrap: break-word;
}
.dialog-reply > :first-child { margin-top: 0; }
.thumbnails { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 8px; }
.thumbnails img { max-height: 160px; max-width: 240px; object-fit: contain; border: 1px solid var(--vscode-panel-border, transparent); border-radius: 3px; cursor: zoom-in; }
.thumbnails img.full { max-height: none; max-width: 100%; cursor: zoom-out; }
.dialog-reply > :last-child { margin-bottom: 0; }
h1 { font-size: 26px; line-height: 31px; margin: 0 0 13px; }
h2 { font-size: 19px; margin: 0 0 10px; }
h1, h2, h3 { font-weight: normal; }
a { color: var(--vscode-textLink-foreground); text-decoration: none; }
a:hover { color: var(--vscode-textLink-activeForeground); text-decoration: underline; }
code, kbd, samp { font-family: var(--vscode-editor-font-family); font-size: 1em; line-height: 1.357em; }
:not(pre) > code {
  color: var(--vscode-textPreformat-foreground);
  background: var(--vscode-textPreformat-background);
  padding: 1px 3px;
  border-radius: 4px;
}
pre {
  background: var(--vscode-textCodeBlock-background);
  padding: 8px 12px;
  border-radius: 4px;
  overflow-x: auto;
}
pre code { white-space: pre; }
blockquote {
  margin: 0 7px 0 5px;
  padding: 0 16px 0 10px;
  border-left: 5px solid var(--vscode-textBlockQuote-border);
  background: var(--vscode-textBlockQuote-background);
}
table { border-collapse: collapse; border-spacing: 0; }
th, td { border: 1px solid var(--vscode-editorGroup-border, rgba(128, 128, 128, 0.35)); padding: 5px 10px; }
th { text-align: left; }
img { max-width: 100%; }
hr { border: 0; height: 2px; border-bottom: 2px solid var(--vscode-textSeparator-foreground, currentColor); }
summary { cursor: pointer; }
details { margin: 0.5em 0; }
.tool-call > summary code { white-space: pre-wrap; word-break: break-word; }
.tool-body { margin: 4px 0 0 14px; }
.tool-label { color: var(--vscode-descriptionForeground); font-size: 0.9em; margin-top: 4px; }
.tool-body pre { margin: 2px 0; white-space: pre-wrap; word-break: break-word; }
`;
