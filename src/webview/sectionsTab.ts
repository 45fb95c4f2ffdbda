// The Sections tab: the outline with message counts and token estimates; a click reveals the cell.
// Type and flag icons are the sections tree's (core/outlineView), drawn with the codicon font.

import { OutlineNodeWire, StateMessage } from '../shared/panelProtocol';
import { FLAG_ICONS, HEADING_ICON, TYPE_ICONS, tokensText as tokens, typeIcon } from '../shared/outlineView';
import { h, icon } from './dom';

const FLAG_TITLES = { pinned: 'pinned', skipped: 'skipped: hidden from the AI', exploded: 'part of an exploded reply', conflict: 'a conflict: changed on both sides of a merge, both versions kept' } as const;

function row(n: OutlineNodeWire, selected: string | null, reveal: (id: string) => void): HTMLLIElement {
  const heading = n.level > 0;
  // The type becomes a class only when it is one we know: dialog data never names classes.
  const type = Object.hasOwn(TYPE_ICONS, n.msgType) ? n.msgType : 'other';
  const flags = (['pinned', 'skipped', 'exploded', 'conflict'] as const).filter((f) => n[f]).map((f) => h('span', { class: `flag ${f}`, title: FLAG_TITLES[f] }, icon(FLAG_ICONS[f]), f));
  const line = h(
    'div',
    { class: `row type-${type}${heading ? ` heading h${n.level}` : ''}${n.id === selected ? ' selected' : ''}${n.skipped ? ' is-skipped' : ''}`, title: `${heading ? `heading ${n.level}` : n.msgType} ${n.id}`, onclick: () => reveal(n.id) },
    h('span', { class: 'glyph' }, icon(heading ? HEADING_ICON : typeIcon(n.msgType))),
    h('span', { class: 'label' }, n.label),
    ...flags,
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
