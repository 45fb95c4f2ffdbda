// A reply's tool call as DOM built from text nodes only: its name and arguments, and its result with
// its real line breaks. Nothing in a call is ever parsed as HTML or markdown, so a `<http://…>` in it
// shows as written and cannot break the fold.

import { callSummary, pyJsonDumps, ToolSpan } from '../core/reply';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children);
  return e;
}

export function toolCallElement(s: ToolSpan): HTMLElement {
  const head = callSummary(s.name, s.args, s.result);
  const body = el('div', 'tool-body');
  for (const [k, v] of Object.entries(s.args)) {
    body.append(el('div', 'tool-label', k), el('pre', 'tool-arg', typeof v === 'string' ? v : pyJsonDumps(v, { indent: 2 })));
  }
  body.append(el('div', 'tool-label', s.server ? 'result (server tool)' : 'result'), el('pre', 'tool-result', s.result));
  return el('details', 'tool-call', el('summary', '', el('code', '', head)), body);
}
