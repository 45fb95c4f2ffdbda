// The History tab: the request answering the prompt under the cursor would send — by default its very
// messages ("What is sent"), else the same history as Solveit's XML (`dlg2hist`) — with skipped messages
// struck through, the context policy's verdicts (messages left out listed and struck, the cut one
// marked), tokens per turn and the total against the model's budget.

import { StateMessage } from '../shared/panelProtocol';
import { FLAG_ICONS, tokensText as tokens } from '../shared/outlineView';
import { button, h, icon } from './dom';

const ROLE_ICONS = { user: 'account', assistant: 'hubot', tool: 'tools' } as const;
const KINDS: Record<string, [label: string, icon: string]> = {
  media: ['media', 'file-media'],
  file: ['file', 'file-code'],
  thinking: ['thinking', 'lightbulb'],
  tool_use: ['call', 'tools'],
  tool_result: ['result', 'output'],
  skipped: ['skipped', FLAG_ICONS.skipped],
  cut: ['cut to fit', 'fold'],
  craft: ['CRAFT', 'library'],
};

/** The system prompt sent before the turns (the dialog's mode included). */
function systemBox(system: string, n: number): HTMLElement {
  const head = h('div', { class: 'turn-head' }, icon('settings-gear'), h('span', { class: 'role' }, 'system prompt'), h('span', { class: 'meta' }, `~${tokens(n)} tok`));
  return h('div', { class: 'turn role-system' }, head, h('div', { class: 'part kind-text' }, h('pre', {}, system)));
}

export function historyTab(s: StateMessage, mode: 'hist' | 'chat', setMode: (m: 'hist' | 'chat') => void): HTMLElement {
  const bar = h(
    'div',
    { class: 'toolbar' },
    button('What is sent', () => setMode('chat'), mode === 'chat' ? 'toggle on' : 'toggle', 'The messages of the request, as the model gets them'),
    button('Dialog as XML (dlg2hist)', () => setMode('hist'), mode === 'hist' ? 'toggle on' : 'toggle', 'The same history as Solveit’s dlg2hist XML: a reading aid, not what is sent'),
  );
  const wrap = h('div', { class: 'history' }, bar);
  if (!s.history) {
    wrap.append(h('p', { class: 'empty' }, s.historyError ?? 'Select a prompt.'));
    return wrap;
  }
  const { total, turns, leftOut = [], cut = [], model } = s.history;
  const pct = Math.min(100, (100 * total) / s.budget);
  const meter = h('div', { class: `meter${total > s.budget ? ' over' : ''}`, title: `${total} of ${s.budget} tokens` }, h('div', { class: 'fill' }));
  (meter.firstChild as HTMLElement).style.width = `${pct}%`;
  const fitted = leftOut.length || cut.length ? ` · ${leftOut.length} left out, ${cut.length} cut to fit` : '';
  wrap.append(
    h('div', { class: 'budget' }, h('span', {}, `~${tokens(total)} / ${tokens(s.budget)} tokens${model ? ` for ${model}` : ''} · ${turns.length} turns${fitted} · up to prompt ${s.history.promptId}`), meter),
  );
  if (s.history.over) wrap.append(h('p', { class: 'over-note' }, 'The prompt and pinned messages alone exceed the budget: the model will likely refuse.'));
  if (s.history.system) wrap.append(systemBox(s.history.system, s.history.systemTokens ?? 0));
  if (leftOut.length) {
    const box = h('div', { class: 'turn left-out' }, h('div', { class: 'turn-head' }, icon('circle-slash'), h('span', { class: 'role' }, 'Left out to fit the budget'), h('span', { class: 'meta' }, `~${tokens(leftOut.reduce((n, m) => n + m.tokens, 0))} tok`)));
    for (const m of leftOut) box.append(h('div', { class: 'part kind-leftOut' }, h('pre', {}, `${m.text}  (~${tokens(m.tokens)} tok)`)));
    wrap.append(box);
  }
  turns.forEach((t, k) => {
    const head = h('div', { class: 'turn-head' }, icon(ROLE_ICONS[t.role]), h('span', { class: 'role' }, `${k + 1}. ${t.role}`), h('span', { class: 'meta' }, `~${tokens(t.tokens)} tok`));
    const box = h('div', { class: `turn role-${t.role}` }, head);
    for (const p of t.parts) {
      const kind = KINDS[p.kind];
      const tag = kind && h('span', { class: 'tag' }, icon(kind[1]), kind[0]);
      if (p.kind === 'media' || p.kind === 'file') box.append(h('div', { class: 'part media' }, tag, h('span', { class: 'media-info' }, p.text)));
      else box.append(h('div', { class: `part kind-${p.kind}` }, tag, h('pre', {}, p.text)));
    }
    wrap.append(box);
  });
  return wrap;
}
