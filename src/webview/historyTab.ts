// The History tab: exactly the turns `dlg2hist` / `dlg2chat` give for the prompt under the cursor,
// with skipped messages struck through, tokens per turn and the total against the context budget.

import { StateMessage } from '../shared/panelProtocol';
import { FLAG_ICONS, tokensText as tokens } from '../shared/outlineView';
import { button, h, icon } from './dom';

const ROLE_ICONS = { user: 'account', assistant: 'hubot', tool: 'tools' } as const;
const KINDS: Record<string, [label: string, icon: string]> = {
  media: ['media', 'file-media'],
  thinking: ['thinking', 'lightbulb'],
  tool_use: ['call', 'tools'],
  tool_result: ['result', 'output'],
  skipped: ['skipped', FLAG_ICONS.skipped],
};

export function historyTab(s: StateMessage, mode: 'hist' | 'chat', setMode: (m: 'hist' | 'chat') => void): HTMLElement {
  const bar = h(
    'div',
    { class: 'toolbar' },
    button('dlg2hist', () => setMode('hist'), mode === 'hist' ? 'toggle on' : 'toggle', 'The history as dlg2hist gives it'),
    button('dlg2chat', () => setMode('chat'), mode === 'chat' ? 'toggle on' : 'toggle', 'The canonical chat messages dlg2chat gives'),
  );
  const wrap = h('div', { class: 'history' }, bar);
  if (!s.history) {
    wrap.append(h('p', { class: 'empty' }, s.historyError ?? 'Select a prompt.'));
    return wrap;
  }
  const { total, turns } = s.history;
  const pct = Math.min(100, (100 * total) / s.budget);
  const meter = h('div', { class: `meter${total > s.budget ? ' over' : ''}`, title: `${total} of ${s.budget} tokens` }, h('div', { class: 'fill' }));
  (meter.firstChild as HTMLElement).style.width = `${pct}%`;
  wrap.append(
    h('div', { class: 'budget' }, h('span', {}, `~${tokens(total)} / ${tokens(s.budget)} tokens · ${turns.length} turns · up to prompt ${s.history.promptId}`), meter),
  );
  turns.forEach((t, k) => {
    const head = h('div', { class: 'turn-head' }, icon(ROLE_ICONS[t.role]), h('span', { class: 'role' }, `${k + 1}. ${t.role}`), h('span', { class: 'meta' }, `~${tokens(t.tokens)} tok`));
    const box = h('div', { class: `turn role-${t.role}` }, head);
    for (const p of t.parts) {
      const kind = KINDS[p.kind];
      const tag = kind && h('span', { class: 'tag' }, icon(kind[1]), kind[0]);
      if (p.kind === 'media') box.append(h('div', { class: 'part media' }, tag, h('span', { class: 'media-info' }, p.text)));
      else box.append(h('div', { class: `part kind-${p.kind}` }, tag, h('pre', {}, p.text)));
    }
    wrap.append(box);
  });
  return wrap;
}
