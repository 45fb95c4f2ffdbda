// dialoghelper's `toggle_comment` on a code message's source (the rule of its 0.2.42 `_toggle_comment`).

/** Comments every line when any non-blank line is uncommented, else uncomments all (`# ` or `#`). */
export function toggleComment(s: string): string {
  // Lines as Python's splitlines gives them: a final newline ends the last line rather than adding one.
  const lines = s.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (lines.some((l) => l.trim() && !l.trimStart().startsWith('#'))) return lines.map((l) => '# ' + l).join('\n');
  return lines.map((l) => (l.startsWith('# ') ? l.slice(2) : l.startsWith('#') ? l.slice(1) : l)).join('\n');
}
