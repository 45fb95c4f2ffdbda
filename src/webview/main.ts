// The Dialog panel's browser side: renders the host's `state` (validated with the shared zod schemas)
// into three tabs and posts typed requests back. UI state (tab, history mode) is kept with setState so
// it survives reloads; the host's panel serializer receives it too.

import { DEFAULT_PANEL_STATE, PanelMessage, PanelState, StateMessage, parseHostMessage, parsePanelState } from '../shared/panelProtocol';
import { Draft, replyTab } from './replyTab';
import { historyTab } from './historyTab';
import { sectionsTab } from './sectionsTab';
import { h, icon } from './dom';

interface VsCodeApi {
  postMessage(m: PanelMessage): void;
  getState(): unknown;
  setState(s: PanelState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
let ui: PanelState = parsePanelState(vscode.getState() ?? DEFAULT_PANEL_STATE);
let state: StateMessage | null = null;
let draft: Draft | null = null;
let status = '';
const app = document.getElementById('app')!;

const TABS: [PanelState['tab'], string, string][] = [
  ['sections', 'Sections', 'list-tree'],
  ['history', 'History', 'history'],
  ['reply', 'Reply', 'comment-discussion'],
];

function save(): void {
  vscode.setState(ui);
}

function resetDraft(): void {
  const r = state?.reply;
  draft = r ? { promptId: r.promptId, parts: structuredClone(r.parts), dirty: false } : null;
}

function render(): void {
  const s = state;
  const tabs = h(
    'nav',
    { class: 'tabs' },
    ...TABS.map(([id, label, iconName]) =>
      h('button', { class: `tab${ui.tab === id ? ' on' : ''}`, 'data-tab': id, onclick: () => ((ui = { ...ui, tab: id }), save(), render()) }, icon(iconName), label),
    ),
  );
  // The badge shows (via the `dirty` class) from the first keystroke, without re-rendering the field being edited.
  const title = h('div', { class: `title${draft?.dirty ? ' dirty' : ''}` }, s?.dialog ?? 'No dialog', h('span', { class: 'badge edited' }, 'reply edited'));
  let body: HTMLElement;
  if (!s) body = h('p', { class: 'empty' }, 'Loading…');
  else if (ui.tab === 'sections') body = sectionsTab(s, (id) => vscode.postMessage({ type: 'reveal', id }));
  else if (ui.tab === 'history')
    body = historyTab(s, ui.mode, (mode) => {
      ui = { ...ui, mode };
      save();
      vscode.postMessage({ type: 'setMode', mode });
    });
  else
    body = replyTab(
      s,
      draft,
      status,
      () => title.classList.add('dirty'),
      () => {
        if (!draft) return;
        status = 'Applying…';
        vscode.postMessage({ type: 'applyReply', promptId: draft.promptId, parts: draft.parts });
        render();
      },
      () => {
        resetDraft();
        status = '';
        render();
      },
    );
  app.replaceChildren(title, tabs, h('main', { class: `body tab-${ui.tab}` }, body));
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = parseHostMessage(e.data);
  if (!m) return;
  if (m.type === 'applied') {
    status = m.message;
    if (m.ok && draft) draft.dirty = false;
    render();
    return;
  }
  state = m;
  // An edited draft stays (even when the cursor moves to another prompt) until applied or reverted;
  // re-rendering the reply tab then would only steal the focus from the field being edited.
  if (!draft?.dirty) resetDraft();
  if (ui.tab !== 'reply' || !draft?.dirty) render();
});

save();
render();
vscode.postMessage({ type: 'ready' });
// The host may have switched modes in another panel instance: tell it ours.
vscode.postMessage({ type: 'setMode', mode: ui.mode });
