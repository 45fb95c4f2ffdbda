// `dlg outline`: the section tree, one line per message, indented by the headings that contain it.
import { Dialog } from '../core/model';
import { headerLevel } from '../core/sections';

const firstLine = (s: string, max = 80) => {
  const line = s.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/).find((l) => l.trim()) ?? '';
  const chars = Array.from(line);
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : line;
};

export function outlineLines(d: Dialog): string[] {
  const open: number[] = [];
  return d.messages.map((m) => {
    const level = headerLevel(m);
    if (level) {
      while (open.length && open[open.length - 1] >= level) open.pop();
      const line = `${'  '.repeat(open.length)}${firstLine(m.content.trimStart())}  [${m.id}]`;
      open.push(level);
      return line;
    }
    return `${'  '.repeat(open.length)}${m.msgType[0]}: ${firstLine(m.content)}  [${m.id}]`;
  });
}
