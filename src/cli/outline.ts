// `dlg outline`: the section tree, one line per message, indented by the headings that contain it.
import { Dialog } from '../core/model';
import { headerLevel } from '../core/model';
import { firstLine } from '../core/outline';

export function outlineLines(d: Dialog): string[] {
  const open: number[] = [];
  return d.messages.map((m) => {
    const level = headerLevel(m);
    if (level) {
      while (open.length && open[open.length - 1] >= level) open.pop();
      const line = `${'  '.repeat(open.length)}${firstLine(m.content)}  [${m.id}]`;
      open.push(level);
      return line;
    }
    return `${'  '.repeat(open.length)}${m.msgType[0]}: ${firstLine(m.content)}  [${m.id}]`;
  });
}
