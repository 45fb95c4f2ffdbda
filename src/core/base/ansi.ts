// Terminal-screen semantics for captured streams (ai-projections §3): what a user would have seen, not
// the bytes the process wrote. Progress bars (`\r`), backspaces and alternate screens collapse here.

const ALT_ON = '\x1b[?1049h';
const ALT_OFF = '\x1b[?1049l';

/**
 * Removes CSI sequences only (ESC `[` … final byte in `@`–`~`); OSC and other escapes stay. The
 * reference's `.*?` does not cross a newline, so neither does this.
 */
export function stripAnsi(s: string): string {
  return s.indexOf('\x1b') < 0 ? s : s.replace(/\x1b\[[^\n]*?[@-~]/g, '');
}

/** Applies `\r` overwrites and `\b` erases line by line, and drops alternate-screen content. */
export function cleanCliOutput(text: string): string {
  let s = text;
  if (s.includes(ALT_ON)) {
    const off = s.lastIndexOf(ALT_OFF);
    if (off < 0) return '';
    s = s.slice(off + ALT_OFF.length);
  }
  if (s.indexOf('\r') < 0 && s.indexOf('\b') < 0) return s;
  s = s.replace(/\r\n/g, '\n');
  return s.split('\n').map(cleanLine).join('\n');
}

function cleanLine(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 13) end--; // not /\r+$/: quadratic over inner \r runs
  let l = line.slice(0, end);
  const cr = l.lastIndexOf('\r');
  if (cr >= 0) l = l.slice(cr + 1);
  if (l.indexOf('\b') < 0) return l;
  // Each `\b` erases the character before it (if any); a trailing one just disappears.
  const cps = Array.from(l);
  const out: string[] = [];
  for (let k = 0; k < cps.length; k++) {
    const c = cps[k];
    if (c !== '\b') out.push(c);
    else if (k < cps.length - 1) out.pop();
  }
  return out.join('');
}
