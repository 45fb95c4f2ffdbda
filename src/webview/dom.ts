// A tiny DOM builder that only ever creates text nodes from strings: dialog content is untrusted, so
// nothing here parses HTML, sets `innerHTML` or creates links.

export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; title?: string; onclick?: (e: MouseEvent) => void; [attr: `data-${string}`]: string } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'class') el.className = v as string;
    else if (k === 'title') el.title = v as string;
    else if (k === 'onclick') el.addEventListener('click', v as EventListener);
    else if (k.startsWith('data-')) el.setAttribute(k, v as string);
  }
  for (const c of children) if (c) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** A codicon (the font served with the panel); `name` always comes from the panel's own tables. */
export function icon(name: string, title?: string): HTMLSpanElement {
  const el = h('span', { class: `codicon codicon-${name}`, title });
  if (!title) el.setAttribute('aria-hidden', 'true');
  return el;
}

/** A button with a text label, after an optional codicon. */
export function button(label: string, onclick: () => void, cls = '', title = '', iconName?: string): HTMLButtonElement {
  const b = h('button', { class: cls, title }, iconName ? icon(iconName) : null, label);
  b.type = 'button';
  b.addEventListener('click', onclick);
  return b;
}

/** A textarea sized to its text, calling `oninput` with the new value. */
export function textarea(value: string, oninput: (v: string) => void, cls = ''): HTMLTextAreaElement {
  const t = h('textarea', { class: cls });
  t.value = value;
  t.spellcheck = false;
  const size = () => {
    t.rows = Math.min(20, Math.max(2, t.value.split('\n').length));
  };
  size();
  t.addEventListener('input', () => {
    size();
    oninput(t.value);
  });
  return t;
}

export function input(value: string, oninput: (v: string) => void, cls = ''): HTMLInputElement {
  const i = h('input', { class: cls });
  i.type = 'text';
  i.value = value;
  i.spellcheck = false;
  i.addEventListener('input', () => oninput(i.value));
  return i;
}
