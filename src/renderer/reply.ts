// The notebook renderer of prompt replies (package.json `notebookRenderer`, bundled to
// dist/replyRenderer.js). VS Code's markdown renderer sanitises only in untrusted workspaces; replies
// come from dialog files, so this one renders them with markdown-it and then keeps only what
// policy.ts allows, with DOMPurify, in every workspace. It runs in the notebook's output webview.

import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { THINK_END, THINK_START, thinkTexts, toolSpans } from '../core/reply';
import type { ReplyAttachments } from '../shared/replyOutput';
import { REPLY_ATTRS, REPLY_TAGS, REPLY_URI, attachmentUrl, replyAttribute } from './policy';
import { REPLY_CSS } from './style';
import { toolCallElement } from './toolCall';

/** The part of VS Code's renderer API (`vscode-notebook-renderer`) this renderer uses. */
interface OutputItem {
  readonly metadata: unknown;
  text(): string;
}

const markdown = new MarkdownIt({ html: true, linkify: false });
const purify = DOMPurify(window);
let attachments: ReplyAttachments | undefined;
purify.addHook('uponSanitizeAttribute', (node, data) => {
  const kept = replyAttribute(node.nodeName.toLowerCase(), data.attrName, data.attrValue, attachments);
  if (kept === null) data.keepAttr = false;
  else data.attrValue = kept;
});

/** Markdown as a sanitised fragment of this document (never reparsed as HTML afterwards). */
function sanitised(text: string): DocumentFragment {
  return purify.sanitize(markdown.render(text), {
    ALLOWED_TAGS: REPLY_TAGS,
    ALLOWED_ATTR: REPLY_ATTRS,
    ALLOWED_URI_REGEXP: REPLY_URI,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
}

/** The images the prompt's request shows, a thumbnail each (only attachments that are images, as data URLs). */
function thumbnails(names: unknown): HTMLElement | null {
  const urls = (Array.isArray(names) ? names : []).map((n) => (typeof n === 'string' ? attachmentUrl(`attachment:${n}`, attachments) : null));
  if (!urls.some((u) => u)) return null;
  const strip = document.createElement('div');
  strip.className = 'thumbnails';
  for (const url of urls) {
    if (!url) continue;
    const img = document.createElement('img');
    img.src = url;
    img.alt = 'attached image';
    strip.append(img);
  }
  return strip;
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
    const thumbs = thumbnails((meta as { thumbnails?: unknown } | null)?.thumbnails);
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

export function activate() {
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
