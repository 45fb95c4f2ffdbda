// What a rendered reply may keep: an allow-list of tags and attributes for DOMPurify, and the URL
// policy its attribute hook applies. Replies come from dialog files, so they are untrusted whatever the
// workspace's trust: nothing in them may run, embed a document, submit, restyle the page or navigate
// by itself. Pure (no DOM), so it is unit-tested; reply.ts applies it in the renderer's DOM.

import type { ReplyAttachments } from '../shared/replyOutput';

/** Markdown's output plus the HTML replies use: tool-call folds (`<details>`), tables, code. */
export const REPLY_TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'cite', 'code', 'col', 'colgroup', 'dd', 'del', 'details', 'dfn',
  'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'ins', 'kbd',
  'li', 'mark', 'ol', 'p', 'pre', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'summary', 'sup',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'tt', 'u', 'ul', 'var', 'wbr',
];

/** No `id`/`name` (they clobber globals), no `on*`, no `target`; `style` only as a table cell's alignment. */
export const REPLY_ATTRS = [
  'href', 'src', 'alt', 'title', 'width', 'height', 'align', 'colspan', 'rowspan', 'start', 'open', 'class', 'style',
];

/** DOMPurify's URL check, narrowed to our schemes (the hook below has already decided; this is a second lock). */
export const REPLY_URI = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);
/** Everything a browser (or DOMPurify) may drop from a URL before reading its scheme, and then some. */
const URL_SPACE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+[;,]/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const TEXT_ALIGN = /^text-align:\s*(left|right|center);?$/i;

/** The lower-case scheme of a URL as a browser would read it, '' for a relative one (`#a`, `/x`, `a/b`). */
export function urlScheme(url: string): string {
  const m = /^([^/?#]*?):/.exec(url.replace(URL_SPACE, ''));
  return m ? m[1].toLowerCase() : '';
}

/** `attachment:NAME` as a data URL of the attachment's image, or null when there is no such image. */
export function attachmentUrl(url: string, attachments: ReplyAttachments | undefined): string | null {
  const name = url.slice('attachment:'.length);
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // a stray % is part of the name
  }
  const bundle = attachments && (Object.hasOwn(attachments, name) ? attachments[name] : Object.hasOwn(attachments, decoded) ? attachments[decoded] : undefined);
  if (!bundle || typeof bundle !== 'object') return null;
  for (const [mime, data] of Object.entries(bundle)) {
    if (/^image\/[a-z0-9.+-]+$/i.test(mime) && typeof data === 'string' && BASE64.test(data)) return `data:${mime};base64,${data}`;
  }
  return null;
}

/**
 * The value attribute `name` of a `tag` element keeps once shown, or null to drop it. Called for every
 * attribute DOMPurify meets (names outside REPLY_ATTRS are dropped by DOMPurify itself).
 */
export function replyAttribute(tag: string, name: string, value: string, attachments?: ReplyAttachments): string | null {
  if (name === 'href') return LINK_SCHEMES.has(urlScheme(value)) || urlScheme(value) === '' ? value : null;
  if (name === 'src') {
    if (tag !== 'img') return null;
    if (value.startsWith('attachment:')) return attachmentUrl(value, attachments);
    const scheme = urlScheme(value);
    if (scheme === 'data') return DATA_IMAGE.test(value) ? value : null;
    return scheme === '' || IMAGE_SCHEMES.has(scheme) ? value : null;
  }
  if (name === 'style') {
    const m = TEXT_ALIGN.exec(value.trim());
    return m && (tag === 'td' || tag === 'th') ? `text-align: ${m[1].toLowerCase()}` : null;
  }
  return value;
}
