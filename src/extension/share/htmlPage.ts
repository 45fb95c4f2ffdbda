// Export as HTML: the page readers see as one self-contained file (styles inside, images as data: URLs,
// the markup already sanitised by the preview with the reply renderer's sanitiser), with a CSP that
// lets nothing run or load from elsewhere.

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const PAGE_CSS = `body{margin:0;background:#fff;color:#1f2328;font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:860px;margin:0 auto;padding:32px 16px}
pre{background:#f6f8fa;padding:12px;overflow:auto;border-radius:6px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:85%}
blockquote{margin:1em 0;padding:0 1em;color:#1f2328;border-left:.25em solid #0969da;background:#f6f8fa}
img{max-width:100%}
table{border-collapse:collapse}td,th{border:1px solid #d1d9e0;padding:4px 10px}
details{margin:.5em 0;padding:4px 8px;border:1px solid #d1d9e0;border-radius:6px}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}pre,blockquote{background:#161b22}blockquote{color:#e6edf3}td,th,details{border-color:#30363d}}`;

/** The whole HTML file of `title` around the page's sanitised markup. */
export function htmlDocument(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: https:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
