// The share preview's browser code: the page as readers will see it (each message rendered with the reply
// renderer's sanitiser), what is left out, what looks secret, and the choices; Publish asks the host.

import type { HostToPreview, PreviewState, PreviewToHost, ShareChoices } from '../../shared/shareProtocol';
import { markdownSanitiser } from '../../renderer/sanitise';
import { h } from '../dom';

declare function acquireVsCodeApi(): { postMessage(m: PreviewToHost): void };
const vscode = acquireVsCodeApi();
const render = markdownSanitiser(window);
const app = document.getElementById('app')!;
let state: PreviewState | undefined;
let status: HTMLElement | undefined;

function post(m: PreviewToHost) {
  vscode.postMessage(m);
}

function choose(change: Partial<ShareChoices>) {
  if (!state) return;
  post({ type: 'choices', choices: { ...state.choices, ...change } });
}

function checkbox(label: string, checked: boolean, onChange: (on: boolean) => void, id: string): HTMLElement {
  const input = h('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.id = id;
  input.addEventListener('change', () => onChange(input.checked));
  const l = h('label', {}, input, ` ${label}`);
  return l;
}

function button(label: string, onclick: () => void, cls = ''): HTMLButtonElement {
  const b = h('button', { class: cls, onclick: () => onclick() }, label);
  b.type = 'button';
  return b;
}

function side(s: PreviewState): HTMLElement {
  const c = s.choices;
  const secrets = s.secrets.length
    ? h(
        'section',
        { class: 'secrets', 'data-count': String(s.secrets.length) },
        h('h2', {}, `Looks secret (${s.secrets.length})`),
        h('p', {}, 'Remove it from the dialog, leave the message out, or keep it knowingly.'),
        ...s.secrets.map((x) => h('div', { class: 'hit' }, h('span', {}, x.text), ' ', button(`Leave out message ${x.n}`, () => choose({ leaveOut: [...c.leaveOut, x.id] })))),
        checkbox('Share it anyway: I know what I publish', c.keepSecrets, (on) => choose({ keepSecrets: on }), 'keep-secrets'),
      )
    : h('section', { class: 'secrets clean', 'data-count': '0' }, h('h2', {}, 'Nothing looks secret'));
  const left = h(
    'section',
    { class: 'left' },
    h('h2', {}, `Left out (${s.left.length})`),
    ...s.left.map((x) => h('div', { class: 'left-out' }, x.text, x.chosen ? button('Put back', () => choose({ leaveOut: c.leaveOut.filter((id) => id !== x.id) }), 'link') : null)),
    h('p', { class: 'hint' }, 'Thinking, token usage and the folder’s CRAFT context are never shared.'),
  );
  const options = h(
    'section',
    { class: 'options' },
    h('h2', {}, 'Choices'),
    checkbox('Keep code outputs', c.keepOutputs, (on) => choose({ keepOutputs: on }), 'keep-outputs'),
    checkbox('Keep pinned messages', c.keepPinned, (on) => choose({ keepPinned: on }), 'keep-pinned'),
    checkbox('Keep skipped messages', c.keepSkipped, (on) => choose({ keepSkipped: on }), 'keep-skipped'),
  );
  const blockedBy = s.blocked || (s.secrets.length && !c.keepSecrets ? 'Something looks secret: remove it, leave its message out, or tick “Share it anyway”.' : '');
  const publish = button(s.updates ? 'Update the gist' : 'Publish secret gist', () => post({ type: 'publish' }), 'primary');
  publish.id = 'publish';
  publish.disabled = !!blockedBy;
  status = h('p', { class: 'status' }, blockedBy);
  status.setAttribute('role', 'status');
  return h(
    'aside',
    {},
    h('h1', {}, `Share ${s.name}`),
    h('p', {}, `A secret gist on ${s.target}${s.updates ? `, updating ${s.updates}` : ''}: ${s.name}.md (this page) and ${s.name}.ipynb (the dialog, to continue it).`),
    secrets,
    options,
    left,
    h('div', { class: 'actions' }, publish, button('Export as HTML…', () => post({ type: 'exportHtml' })), button('Cancel', () => post({ type: 'cancel' }))),
    status,
  );
}

function page(s: PreviewState): HTMLElement {
  const main = h('main', { class: 'page' });
  for (const b of s.blocks) {
    const block = h('div', { class: 'message', 'data-id': b.id, title: `message ${b.n}` });
    block.append(render(b.md));
    const out = button('Leave out', () => choose({ leaveOut: [...s.choices.leaveOut, b.id] }), 'leave-out');
    out.title = `Leave message ${b.n} out of the share`;
    main.append(h('div', { class: 'row' }, block, out));
  }
  return main;
}

/** The page alone, as HTML, for Export as HTML (already sanitised: the fragments' own markup). */
function pageHtml(): string {
  const main = document.querySelector('main.page');
  if (!main) return '';
  const copy = main.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('button').forEach((b) => b.remove());
  return copy.innerHTML;
}

function show(s: PreviewState) {
  const scroll = document.scrollingElement?.scrollTop ?? 0;
  state = s;
  app.replaceChildren(side(s), page(s));
  if (document.scrollingElement) document.scrollingElement.scrollTop = scroll;
  if (s.exportHtml) post({ type: 'html', html: pageHtml() });
}

window.addEventListener('message', (e: MessageEvent<HostToPreview>) => {
  const m = e.data;
  if (m.type === 'state') show(m);
  else if (status) {
    status.textContent = m.text;
    status.className = `status ${m.type}`;
    const publish = document.getElementById('publish') as HTMLButtonElement | null;
    if (publish) publish.disabled = m.type === 'busy';
    if (m.type === 'done' && m.url) status.append(' ', h('code', {}, m.url));
  }
});
post({ type: 'ready' });
