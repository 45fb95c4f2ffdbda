// One-line previews of messages (model §6): the rows of message lists, summaries and find results.

import { isJsonObject } from '../base/json';
import { Message, truthy } from './dialog';
import { aiRes } from './outputs';
import { PY_WS, cpLen, cpSlice, truncstr } from '../python/text';
import { pyRepr, pyStr } from '../python';

const SUFFIXES = ['', 'k', 'M', 'B', 'T'];

/** `x` with one decimal, rounding half to even on the exact binary value (Python's `f"{x:.1f}"`). */
function fixed1(x: number): string {
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let s = a.toFixed(1);
  // toFixed rounds exact ties up. A tie needs a·10 to end in exactly .5, i.e. a = j/4 with j odd.
  const q = a * 4;
  if (Number.isInteger(q) && q % 2 === 1) {
    const n = Math.floor(a * 10);
    const even = n % 2 === 0 ? n : n + 1;
    s = `${Math.floor(even / 10)}.${even % 10}`;
  }
  return (neg ? '-' : '') + s;
}

/** `1250` → `1.2k`, `999999` → `1000k`: thousands steps through k M B T, one decimal, trailing `.0` dropped. */
export function humanize(n: number): string {
  let x = n;
  let i = 0;
  while (Math.abs(x) >= 1000 && i < SUFFIXES.length - 1) {
    x /= 1000;
    i++;
  }
  return fixed1(x).replace(/0$/, '').replace(/\.$/, '') + SUFFIXES[i];
}

const PARA = new RegExp(`\\n(?:[${PY_WS}]*\\n)*`, 'g');

/** `line` with newline runs as `¶`, cut to `maxlen` code points with a `…[size of txt]` suffix. */
function previewLine(line: string, txt: string, maxlen: number): string {
  const s = line.replace(PARA, '¶');
  if (cpLen(s) <= maxlen) return s;
  const suf = `…[${humanize(cpLen(txt))}]`;
  return cpSlice(s, maxlen - cpLen(suf)) + suf;
}

/** The meta-form directive tag, `[export k=v]`, or `''`. */
function dirTag(m: Message): string {
  const d = m.meta.nbdev;
  if (!isJsonObject(d) || !Object.keys(d).length) return '';
  return '[' + Object.entries(d).map(([k, v]) => (v === 'true' ? k : `${k}=${pyStr(v)}`)).join(' ') + ']';
}

/**
 * `id:t[dirs]:content` on one line (`t` = first letter of the type), plus `\n> reply` for a prompt with a
 * reply, else ` ⇒ out(size)` when there is output (size = length of the output's Python repr).
 */
export function preview(m: Message, maxlen = 180, sep = ':'): string {
  const kind = m.meta.rec_kind;
  const txt = !m.content && truthy(kind) ? `<${pyStr(kind)}>` : m.content;
  let res = previewLine(`${m.id}:${m.msgType.slice(0, 1)}${dirTag(m)}${sep}${txt}`, txt, maxlen);
  const reply = aiRes(m);
  if (m.msgType === 'prompt' && reply) res += '\n' + previewLine('> ' + reply, reply, maxlen);
  else if (truthy(m.output)) res += ` ⇒ out(${humanize(cpLen(pyRepr(m.output)))})`;
  return res;
}

/** The markdown-repr summary: content cut to 96, plus ` ⇒ ` and the output's repr cut to 60. */
export function summ(m: Message): string {
  return truncstr(m.content, 96) + (truthy(m.output) ? ` ⇒ ${truncstr(pyStr(m.output), 60)}` : '');
}

/** One preview per message; with `rows`, only the first `rows` plus `…(N more)`. */
export function showMsgs(msgs: readonly Message[], maxlen = 180, rows: number | null = null): string {
  const xs = rows === null ? msgs : msgs.slice(0, rows);
  let res = xs.map((m) => preview(m, maxlen)).join('\n');
  if (rows !== null && msgs.length > rows) res += `\n…(${msgs.length - rows} more)`;
  return res;
}
