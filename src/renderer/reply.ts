// The notebook renderer of prompt replies (package.json `notebookRenderer`, bundled to
// dist/replyRenderer.js). VS Code's markdown renderer sanitises only in untrusted workspaces; replies
// come from dialog files, so this one renders them with markdown-it and then keeps only what
// policy.ts allows, with DOMPurify, in every workspace. It runs in the notebook's output webview.

import { THINK_END, THINK_START, thinkTexts, toolSpans } from '../core/reply';
import type { ImagesReply, ImagesRequest, ReplyAttachments } from '../shared/replyOutput';
import { attachmentUrl } from './policy';
import { markdownSanitiser } from './sanitise';
import { REPLY_CSS } from './style';
import { toolCallElement } from './toolCall';

/** The part of VS Code's renderer API (`vscode-notebook-renderer`) this renderer uses. */
interface OutputItem {
  readonly metadata: unknown;
  text(): string;
}

const toFragment = markdownSanitiser(window);
let attachments: ReplyAttachments | undefined;

/** Markdown as a sanitised fragment of this document (never reparsed as HTML afterwards). */
function sanitised(text: string): DocumentFragment {
  return toFragment(text, attachments);
}

/** The part of the renderer context that talks to the extension (package.json `requiresMessaging`). */
interface Messaging {
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (message: unknown) => void): unknown;
}

/**
 * Thumbnails' images already shown, by cell id, name and size: a reply re-rendered (each streamed update
 * is a new output) shows them at once. A handful of dialogs' worth: the oldest go first.
 */
const images = new Map<string, string>();
const IMAGES_KEPT = 64;
/** Thumbnail strips waiting for the extension's images, by request. */
const waiting = new Map<number, { strip: HTMLElement; names: string[]; keys: string[] }>();
let requests = 0;
let messaging: Messaging = {};

function keep(key: string, url: string) {
  images.delete(key);
  images.set(key, url);
  if (images.size > IMAGES_KEPT) images.delete(images.keys().next().value!);
}

const THUMB_TITLE = 'Show full size (click)';

/** A thumbnail that a click (or Enter) shows full size, as Solveit and Jupyter show an image, and a second click shrinks again. */
function thumbnail(strip: HTMLElement, url: string) {
  const img = document.createElement('img');
  img.src = url;
  img.alt = 'attached image';
  img.title = THUMB_TITLE;
  img.tabIndex = 0;
  img.setAttribute('role', 'button');
  img.setAttribute('aria-expanded', 'false');
  const toggle = () => {
    const full = img.classList.toggle('full');
    img.title = full ? 'Show as a thumbnail (click)' : THUMB_TITLE;
    img.setAttribute('aria-expanded', String(full));
  };
  img.addEventListener('click', toggle);
  img.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    e.stopPropagation();
    toggle();
  });
  strip.append(img);
}

/**
 * The images the prompt's request shows, a thumbnail each (only attachments that are images, as data
 * URLs). The output names them; their bytes come from the extension (ImagesRequest) unless already here.
 */
function thumbnails(meta: { thumbnails?: unknown; cell?: unknown; sizes?: unknown }): HTMLElement | null {
  const names = (Array.isArray(meta.thumbnails) ? meta.thumbnails : []).filter((n): n is string => typeof n === 'string');
  if (!names.length) return null;
  const cell = typeof meta.cell === 'string' ? meta.cell : '';
  const sizes = Array.isArray(meta.sizes) ? meta.sizes : [];
  const strip = document.createElement('div');
  strip.className = 'thumbnails';
  const missing: { name: string; key: string }[] = [];
  names.forEach((name, k) => {
    const key = JSON.stringify([cell, name, sizes[k]]);
    const url = attachmentUrl(`attachment:${name}`, attachments) ?? images.get(key);
    if (url) thumbnail(strip, url);
    else missing.push({ name, key });
  });
  if (!missing.length || !messaging.postMessage) return strip.childElementCount ? strip : null;
  const request = ++requests;
  waiting.set(request, { strip, names: missing.map((m) => m.name), keys: missing.map((m) => m.key) });
  messaging.postMessage({ type: 'images', request, cell, names: missing.map((m) => m.name) } satisfies ImagesRequest);
  return strip;
}

function received(message: unknown) {
  const reply = message as ImagesReply | null;
  const w = reply?.type === 'images' ? waiting.get(reply.request) : undefined;
  if (!w || !reply!.images || typeof reply!.images !== 'object') return;
  waiting.delete(reply!.request);
  w.names.forEach((name, k) => {
    const url = attachmentUrl(`attachment:${name}`, reply!.images);
    if (!url) return;
    keep(w.keys[k], url);
    if (w.strip.isConnected) thumbnail(w.strip, url);
  });
}

/** Think blocks as closed folds with their text inside (the block's `::: details` is not markdown-it's). */
function foldThinking(text: string): string {
  let out = '';
  let at = 0;
  for (let k = text.indexOf(THINK_START); k >= 0; k = text.indexOf(THINK_START, at)) {
    const e = text.indexOf(THINK_END, k + THINK_START.length);
    if (e < 0) break;
    const end = e + THINK_END.length;
    out += `${text.slice(at, k)}<details class="thinking"><summary>🧠 Thinking</summary>\n\n${thinkTexts(text.slice(k, end)).join('\n\n')}\n\n</details>`;
    at = end;
  }
  return at ? out + text.slice(at) : text;
}

/** The reply: its prose as sanitised markdown, its thinking folded, its tool calls built from their JSON as text. */
function render(reply: string, meta: unknown): DocumentFragment {
  const text = foldThinking(reply);
  const a = (meta as { attachments?: unknown } | null)?.attachments;
  attachments = a && typeof a === 'object' ? (a as ReplyAttachments) : undefined;
  try {
    const out = document.createDocumentFragment();
    const thumbs = thumbnails((meta ?? {}) as Parameters<typeof thumbnails>[0]);
    if (thumbs) out.append(thumbs);
    let at = 0;
    for (const s of toolSpans(text)) {
      out.append(sanitised(text.slice(at, s.start)), toolCallElement(s));
      at = s.end;
    }
    out.append(sanitised(text.slice(at)));
    return out;
  } finally {
    attachments = undefined;
  }
}

export function activate(context: Messaging = {}) {
  messaging = context;
  context.onDidReceiveMessage?.(received);
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      // A shadow root keeps our styles in and the page's out, as VS Code's markdown renderer does.
      let root = element.shadowRoot?.querySelector<HTMLElement>('.dialog-reply');
      if (!root) {
        const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
        const defaults = document.getElementById('_defaultStyles');
        if (defaults) shadow.appendChild(defaults.cloneNode(true));
        const style = document.createElement('style');
        style.textContent = REPLY_CSS;
        shadow.appendChild(style);
        root = document.createElement('div');
        root.className = 'dialog-reply';
        shadow.appendChild(root);
      }
      root.replaceChildren(render(item.text(), item.metadata));
    },
  };
}
