// The Sections tab: the outline with message counts and token estimates; a click reveals the cell.

import { OutlineNodeWire, StateMessage } from '../core/panelProtocol';
import { h, tokens } from './dom';

const GLYPHS: Record<string, string> = { prompt: '✦', code: '{}', note: '#', raw: '¶' };

function row(n: OutlineNodeWire, selected: string | null, reveal: (id: string) => void): HTMLLIElement {
  const heading = n.level > 0;
  const badges = [n.pinned && h('span', { class: 'badge pinned', title: 'pinned' }, 'pinned'), n.skipped && h('span', { class: 'badge skipped', title: 'skipped: hidden from the AI' }, 'skipped'), n.exploded && h('span', { class: 'badge', title: 'part of an exploded reply' }, 'exploded')];
  const line = h(
    'div',
    { class: `row type-${n.msgType}${heading ? ` heading h${n.level}` : ''}${n.id === selected ? ' selected' : ''}${n.skipped ? ' is-skipped' : ''}`, title: `${n.msgType} ${n.id}`, onclick: () => reveal(n.id) },
    h('span', { class: 'glyph' }, heading ? '#'.repeat(Math.min(n.level, 3)) : GLYPHS[n.msgType] ?? '•'),
    h('span', { class: 'label' }, n.label),
    ...badges,
    h('span', { class: 'meta' }, heading ? `${n.count} msgs · ~${tokens(n.sectionTokens)} tok` : `~${tokens(n.tokens)} tok`),
  );
  const li = h('li', {}, line);
  if (n.children.length) li.append(h('ul', {}, ...n.children.map((c) => row(c, selected, reveal))));
  return li;
}

export function sectionsTab(s: StateMessage, reveal: (id: string) => void): HTMLElement {
  if (!s.dialog) return h('p', { class: 'empty' }, 'Open a dialog to see its sections.');
  if (!s.sections.length) return h('p', { class: 'empty' }, 'No headings, prompts or code yet.');
  return h('ul', { class: 'tree' }, ...s.sections.map((n) => row(n, s.selected, reveal)));
}
