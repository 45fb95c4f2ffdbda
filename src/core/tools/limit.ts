// A tool result cut to what an agent accepts (issue 44): agents refuse or drown in huge results (Claude
// Code refuses tool results over about 25k tokens), so a door that has a limit keeps the head of the
// result, at a line break, and says what was cut and how to read the rest with the tool's own ranges.

/** Characters per token, as a limit in tokens is counted (the usual estimate for English and code). */
export const CHARS_PER_TOKEN = 4;

/** How to read what was cut, for each tool that can return much. */
function howToReadRest(tool: string, args: Record<string, unknown>, keptLines: number): string {
  switch (tool) {
    case 'view_dlg':
      return 'view fewer messages at once: find_msgs with ids, msg_type, re_pattern or limit (and trunc_out=true), then view_msg for one message.';
    case 'find_msgs':
      return 'narrow it with limit, ids, msg_type or re_pattern, or pass include_output=false or trunc_out=true.';
    case 'view_msg': {
      const start = typeof args.start_line === 'number' && args.start_line > 0 ? args.start_line : 1;
      return `read on with view_msg(id, start_line=${start + keptLines}); an output stays short with trunc_out=true.`;
    }
    case 'read_msg':
      return 'read the content in parts with view_msg(id, start_line=…, end_line=…), and the output with view_msg(id, incl_out=true, trunc_out=true).';
    case 'python':
      return 'print less at once: slice what you print, or keep the value in a variable and print parts of it.';
    default:
      return 'ask for less at once.';
  }
}

/**
 * `text` cut to `maxChars` (0: no limit): the head, cut at a line break where there is one near, then a
 * line saying how much was cut and how to read it.
 */
export function limitResult(text: string, maxChars: number, tool: string, args: Record<string, unknown> = {}): string {
  if (!maxChars || text.length <= maxChars) return text;
  let head = text.slice(0, maxChars);
  const nl = head.lastIndexOf('\n');
  if (nl > maxChars * 0.8) head = head.slice(0, nl + 1);
  // Never split a surrogate pair.
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  const keptLines = head.split('\n').length - (head.endsWith('\n') ? 1 : 0);
  const cut = text.length - head.length;
  const lines = text.split('\n').length - keptLines;
  const tokens = Math.round(maxChars / CHARS_PER_TOKEN);
  return `${head}${head.endsWith('\n') ? '' : '\n'}[… cut: ${cut.toLocaleString('en-US')} more characters (${lines.toLocaleString('en-US')} lines) over the ${tokens.toLocaleString('en-US')}-token result limit. To read the rest, ${howToReadRest(tool, args, keptLines)}]`;
}
